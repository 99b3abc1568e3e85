import { useState } from 'react';
import { Button, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { WorkspaceCard } from './workspace-card';
import { transferOwnership, type TeamMember, type Workspace } from './workspace-api';

/** The typed confirmation, compared as the database compares it (case and outer spaces ignored). */
export const nameMatches = (typed: string, name: string) => typed.trim().toLowerCase() === name.trim().toLowerCase();

/**
 * Ownership transfer (issue 11): the owner picks a member and types the business name back; the database
 * (transfer_ownership_confirmed) checks both, makes the member the one owner, keeps the old owner as a manager of
 * every store, and writes "business.ownership_transferred" to the trail.
 */
export function TransferOwnershipCard({ workspace, members, onTransferred }: {
  workspace: Workspace; members: TeamMember[]; onTransferred: () => void;
}) {
  const supabase = useSupabase();
  const candidates = members.filter((m) => m.role !== 'owner');
  const [to, setTo] = useState('');
  const [typed, setTyped] = useState('');
  const [saving, setSaving] = useState(false);
  const chosen = candidates.find((m) => m.user_id === to);
  const ready = chosen !== undefined && nameMatches(typed, workspace.name);

  const submit = async () => {
    if (!chosen || !ready) return;
    setSaving(true);
    try {
      await transferOwnership(supabase, workspace.id, chosen.user_id, typed);
      notify.success('Ownership transferred', `${chosen.full_name ?? chosen.email} now owns ${workspace.name}; you are a manager.`);
      onTransferred();
    } catch (error) {
      notify.error('Not transferred', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <WorkspaceCard title="Transfer ownership" description="Hand this business to another member of the team.">
      {candidates.length === 0 ? (
        <Text color="fg.muted">Invite someone first: ownership goes to a member of the team.</Text>
      ) : (
        <form aria-label="Transfer ownership" noValidate onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}>
          <Stack gap="3" maxW="lg">
            <FormField label="New owner" required>
              <NativeSelect.Root>
                <NativeSelect.Field value={to} onChange={(e) => setTo(e.currentTarget.value)}>
                  <option value="">Choose a member</option>
                  {candidates.map((m) => (
                    <option key={m.user_id} value={m.user_id}>{m.full_name ? `${m.full_name} (${m.email})` : m.email}</option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <Text fontSize="sm">
              They become the only owner: they manage the team, the plan and the stores. You stay as a manager of every
              store. The business's limits then follow the new owner's plan (the Free limits if they have none; nothing
              is deleted). Only the new owner can hand it back.
            </Text>
            <FormField label={`Type "${workspace.name}" to confirm`} required>
              <Input value={typed} autoComplete="off" onChange={(e) => setTyped(e.currentTarget.value)} />
            </FormField>
            <div>
              <Button type="submit" colorPalette="red" disabled={!ready} loading={saving}>Transfer ownership</Button>
            </div>
          </Stack>
        </form>
      )}
    </WorkspaceCard>
  );
}
