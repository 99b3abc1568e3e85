import { useState } from 'react';
import { Alert, Button } from '@chakra-ui/react';
import { format } from 'date-fns';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { announceDeletionChange, cancelBusinessDeletion, useDeletionStatus } from './business-deletion-api';
import type { Workspace } from './workspace-api';

/**
 * The banner every member sees while the business waits out its 30 days before deletion (docs/adr/0220); the owner
 * can cancel from it.
 */
export function BusinessDeletionBanner({ workspace }: { workspace: Workspace }) {
  const supabase = useSupabase();
  const status = useDeletionStatus(supabase, workspace.id);
  const [busy, setBusy] = useState(false);
  if (!status) return null;

  const cancel = async () => {
    setBusy(true);
    const refusal = await cancelBusinessDeletion(supabase, workspace.id);
    setBusy(false);
    if (refusal) {
      notify.error('Deletion not canceled', refusal);
      return;
    }
    notify.success('Deletion canceled', `${workspace.name} stays, and its plan renews as before.`);
    announceDeletionChange();
  };

  return (
    <Alert.Root status="warning" role="alert" aria-label="Business deletion">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {status.state === 'pending'
            ? `${workspace.name} will be deleted on ${format(new Date(status.erase_after), 'PPP')}`
            : `${workspace.name} is being deleted`}
        </Alert.Title>
        <Alert.Description>
          Its customers, team and tickets are then erased; sales, refunds and tax records are kept as the law requires,
          then erased too. The plan does not renew.
        </Alert.Description>
      </Alert.Content>
      {status.state === 'pending' && workspace.role === 'owner' && (
        <Button size="sm" variant="outline" alignSelf="center" loading={busy} onClick={() => void cancel()}>
          Cancel deletion
        </Button>
      )}
    </Alert.Root>
  );
}
