import { useState } from 'react';
import { Button, Dialog, Portal } from '@chakra-ui/react';
import { LuTrash2 } from 'react-icons/lu';
import { notify } from '../../../components/toaster';
import { useDashboardSession } from '../dashboard-session';

/**
 * Delete Account as the spec defines it: a confirmation, then sign-out and a request to contact support.
 * Nothing is deleted here on purpose (spec section 8): deletion is a support process.
 */
export function DeleteAccountDialog() {
  const { signOut } = useDashboardSession();
  const [open, setOpen] = useState(false);

  const confirm = async () => {
    setOpen(false);
    await signOut();
    notify.info('Account deletion requested', 'Please contact support to complete account deletion.');
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
                This action cannot be undone. This will permanently delete your account and remove all of your data
                from our servers.
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" onClick={() => void confirm()}>
                Delete Account
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
