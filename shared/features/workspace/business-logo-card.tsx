import { useState } from 'react';
import { Button, HStack, Image, Input, Stack, Text } from '@chakra-ui/react';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { logoFileSchema, removeLogo, uploadLogo } from '../../lib/business-logo';
import { announceLogoChange, useBusinessLogo } from '../../lib/use-business-logo';
import { WorkspaceCard } from './workspace-card';

/** The business's logo: shown in the dashboard header and on receipts; the owner uploads or removes it. */
export function BusinessLogoCard({ businessId, isOwner }: { businessId: string; isOwner: boolean }) {
  const supabase = useSupabase();
  const { url } = useBusinessLogo(businessId);
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [pickerKey, setPickerKey] = useState(0);

  const choose = async (file: File | undefined) => {
    const parsed = logoFileSchema.safeParse(file);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      await uploadLogo(supabase, businessId, parsed.data);
      notify.success('Logo saved', 'It now shows in the header and on receipts.');
      announceLogoChange();
    } catch (error) {
      notify.error('Logo not saved', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
      setPickerKey((key) => key + 1);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await removeLogo(supabase, businessId);
      announceLogoChange();
    } catch (error) {
      notify.error('Logo not removed', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <WorkspaceCard title="Logo" description={isOwner ? 'Shown in the header and on receipts. PNG, JPG or WebP up to 2 MB.' : 'Only the owner changes the logo.'}>
      <Stack gap="3" maxW="lg">
        {url ? <Image src={url} alt="Business logo" maxH="20" maxW="60" objectFit="contain" data-testid="logo-preview" />
          : <Text fontSize="sm" color="fg.muted">{url === null ? 'No logo yet.' : 'Loading...'}</Text>}
        {isOwner && (
          <HStack gap="3" align="end" wrap="wrap">
            <FormField label="Upload a logo" error={problem}>
              <Input key={pickerKey} type="file" accept="image/png,image/jpeg,image/webp" p="1.5" disabled={busy}
                data-testid="logo-input" onChange={(event) => void choose(event.currentTarget.files?.[0])} />
            </FormField>
            {url && <Button variant="outline" onClick={() => void remove()} disabled={busy}>Remove logo</Button>}
          </HStack>
        )}
      </Stack>
    </WorkspaceCard>
  );
}
