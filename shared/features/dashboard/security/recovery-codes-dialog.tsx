import { useState } from 'react';
import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { useSupabase } from '../../../lib/platform-context';
import { newRecoveryCodes, recoveryCodesLeft } from '../../../lib/two-factor-api';
import { RecoveryCodesList } from './recovery-codes-list';

/**
 * View Recovery Codes: stored hashed, so they cannot be shown again; the dialog says how many are left and
 * makes a new set (the old ones stop working).
 */
export function RecoveryCodesDialog() {
  const supabase = useSupabase();
  const [open, setOpen] = useState(false);
  const [left, setLeft] = useState<number | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const openDialog = async () => {
    setOpen(true);
    setCodes(null);
    setError(null);
    try {
      setLeft(await recoveryCodesLeft(supabase));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  const makeNew = async () => {
    setBusy(true);
    setError(null);
    try {
      setCodes(await newRecoveryCodes(supabase));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(event) => (event.open ? void openDialog() : setOpen(false))}>
      <Dialog.Trigger asChild>
        <Button size="sm" variant="outline">
          View Recovery Codes
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Recovery codes</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {codes ? (
                <RecoveryCodesList codes={codes} />
              ) : (
                <Stack gap="3">
                  <Text fontSize="sm" data-testid="recovery-codes-left">
                    {left === null ? 'Checking...' : `You have ${left} unused recovery code${left === 1 ? '' : 's'}.`}
                  </Text>
                  <Text fontSize="sm" color="fg.muted">
                    Codes are shown only when they are made. Making new ones replaces the old ones.
                  </Text>
                  {error && (
                    <Text role="alert" fontSize="sm" color="fg.error">
                      {error}
                    </Text>
                  )}
                  <div>
                    <Button size="sm" colorPalette="blue" loading={busy} onClick={() => void makeNew()}>
                      Make new recovery codes
                    </Button>
                  </div>
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Close</Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
