import { useState } from 'react';
import { Switch, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { setManagersNeedTwoFactor } from './workspace-api';
import { WorkspaceCard } from './workspace-card';

/** The owner's switch: managers must sign in with an authenticator code to work in this business. */
export function ManagersTwoFactorCard({ businessId, initial }: { businessId: string; initial: boolean }) {
  const supabase = useSupabase();
  const [required, setRequired] = useState(initial);
  const [saving, setSaving] = useState(false);

  const change = async (next: boolean) => {
    setSaving(true);
    try {
      await setManagersNeedTwoFactor(supabase, businessId, next);
      setRequired(next);
      notify.success('Saved', next ? 'Managers now need two-factor sign-in.' : 'Managers may sign in with a password alone.');
    } catch (error) {
      notify.error('Not saved', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <WorkspaceCard title="Two-factor sign-in for managers"
      description="Managers then work in this business only after giving a code from their authenticator app.">
      <Switch.Root checked={required} disabled={saving} onCheckedChange={(event) => void change(event.checked)} colorPalette="blue">
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>Require two-factor sign-in for managers</Switch.Label>
      </Switch.Root>
      <Text fontSize="sm" color="fg.muted" mt="2">
        Turning this on needs two-factor sign-in on your own account.
      </Text>
    </WorkspaceCard>
  );
}
