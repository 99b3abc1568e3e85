import { useState } from 'react';
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { CodeForm } from '../../../components/two-factor/code-form';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { removeAuthenticator } from '../../../lib/two-factor-api';

/** Removing an authenticator asks for a fresh code from it: a stolen signed-in laptop alone cannot turn 2FA off. */
export function RemoveFactorDialog({ factorId, name, onDone }: { factorId: string; name: string; onDone: () => void }) {
  const supabase = useSupabase();
  const [open, setOpen] = useState(false);
  const remove = async (code: string) => {
    await removeAuthenticator(supabase, factorId, code);
    setOpen(false);
    notify.success('Authenticator removed', `${name} no longer signs you in.`);
    onDone();
  };
  return (
    <Dialog.Root role="alertdialog" open={open} onOpenChange={(event) => setOpen(event.open)}>
      <Dialog.Trigger asChild>
        <Button size="xs" variant="outline" colorPalette="red" aria-label={`Remove ${name}`}>
          Remove
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Remove {name}?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontSize="sm" mb="3">
                Type a code from this authenticator to confirm. Without an authenticator, signing in asks only for your
                password.
              </Text>
              <CodeForm submitLabel="Remove authenticator" onCode={remove} />
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
