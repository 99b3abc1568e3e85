import { useState } from 'react';
import { Button, Input, Stack, Text } from '@chakra-ui/react';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { announceDeletionChange, requestBusinessDeletion, useDeletionStatus } from './business-deletion-api';
import { nameMatches } from './transfer-ownership-card';
import { WorkspaceCard } from './workspace-card';
import type { Workspace } from './workspace-api';

/**
 * Delete the business (issue 26, docs/adr/0220): the owner types its name; the business-deletion function (owner
 * only, second factor when enrolled) starts 30 days in which anyone sees the banner and the owner can cancel.
 */
export function DeleteBusinessCard({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const status = useDeletionStatus(supabase, workspace.id);
  const [typed, setTyped] = useState('');
  const [saving, setSaving] = useState(false);
  const ready = nameMatches(typed, workspace.name);

  const submit = async () => {
    if (!ready) return;
    setSaving(true);
    const refusal = await requestBusinessDeletion(supabase, workspace.id, typed);
    setSaving(false);
    if (refusal) {
      notify.error('Deletion not started', refusal);
      return;
    }
    setTyped('');
    notify.success('Deletion scheduled', `${workspace.name} will be deleted in 30 days. You can cancel until then.`);
    announceDeletionChange();
  };

  return (
    <WorkspaceCard title="Delete business" description="Close this business for good.">
      {status ? (
        <Stack gap="3">
          <Text color="fg.muted">The deletion is scheduled; the banner above says when and lets you cancel it.</Text>
          {/* One export panel on the page (Export business data, above): a second one here had its own state. */}
          <Text>Keep a copy before the erasure with Export business data, above.</Text>
        </Stack>
      ) : (
        <form aria-label="Delete business" noValidate onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}>
          <Stack gap="3" maxW="lg">
            <Text fontSize="sm">
              Nothing is deleted for 30 days, and you can cancel until then; the plan stops renewing at once. Export the
              business first (Export business data, above). Then the customers, the team and the support
              tickets are erased; sales, refunds, tax and Z reports and invoices are kept for the period the law
              requires (10 years unless your country asks for less), then erased too.
            </Text>
            <FormField label={`Type "${workspace.name}" to confirm`} required>
              <Input value={typed} autoComplete="off" onChange={(e) => setTyped(e.currentTarget.value)} />
            </FormField>
            <div>
              <Button type="submit" colorPalette="red" disabled={!ready} loading={saving}>Delete business</Button>
            </div>
          </Stack>
        </form>
      )}
    </WorkspaceCard>
  );
}
