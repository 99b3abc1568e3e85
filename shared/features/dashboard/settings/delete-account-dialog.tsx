import { useState } from 'react';
import { Button, Dialog, Portal } from '@chakra-ui/react';
import { LuTrash2 } from 'react-icons/lu';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';
import { deleteOwnAccount } from './delete-account-api';

/**
 * Delete Account (issue 26): the person's own login is deleted by the delete-account Edge Function (docs/adr/0208),
 * then they are signed out. The shop's books keep what they rang, under "Former staff member". An owner is told to
 * transfer the business first; nothing is deleted then.
 */
export function DeleteAccountDialog() {
  const supabase = useSupabase();
  const { signOut } = useDashboardSession();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    const refusal = await deleteOwnAccount(supabase);
    setBusy(false);
    if (refusal) {
      setOpen(false);
      notify.error('Account not deleted', refusal);
      return;
    }
    setOpen(false);
    await signOut();
    notify.success('Account deleted', 'Your login is gone; the shops you worked for keep their records.');
  };

  return (
    <Dialog.Root role="alertdialog" open={open} onOpenChange={(event) => setOpen(event.open)}>
      <Dialog.Trigger asChild>
        <Button colorPalette="red" variant="outline">
          <LuTrash2 aria-hidden /> Delete Account
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Are you absolutely sure?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>
                This action cannot be undone. Your login and your personal details are deleted; the shops you worked for
                keep their sales and records under &quot;Former staff member&quot;. A business owner transfers the business
                first.
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" loading={busy} onClick={() => void confirm()}>
                Delete Account
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
