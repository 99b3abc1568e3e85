import { useState } from 'react';
import { Button, Code, Dialog, Image, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { CodeForm } from '../../../components/two-factor/code-form';
import { FormField } from '../../../components/form-field';
import { useSupabase } from '../../../lib/platform-context';
import { enrollAuthenticator, newRecoveryCodes, removeAuthenticator, verifyCode, type NewFactor } from '../../../lib/two-factor-api';
import { RecoveryCodesList } from './recovery-codes-list';

type Step = { kind: 'name' } | { kind: 'scan'; factor: NewFactor } | { kind: 'codes'; codes: string[] };

/**
 * Setting up an authenticator app: name it, scan the QR code (or type the secret), confirm with a code, then
 * save the recovery codes, shown this once. Closing before the code is confirmed removes the half-made factor.
 */
export function EnrollDialog({ onDone }: { onDone: () => void }) {
  const supabase = useSupabase();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'name' });
  const [name, setName] = useState('Authenticator app');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      setStep({ kind: 'scan', factor: await enrollAuthenticator(supabase, name.trim()) });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (factor: NewFactor, code: string) => {
    await verifyCode(supabase, factor.id, code);
    setStep({ kind: 'codes', codes: await newRecoveryCodes(supabase) });
    onDone();
  };

  const close = () => {
    if (step.kind === 'scan') {
      void removeAuthenticator(supabase, step.factor.id, null).catch((failure: unknown) =>
        console.warn('Removing the unconfirmed authenticator failed:', failure instanceof Error ? failure.message : failure),
      );
    }
    setOpen(false);
    setStep({ kind: 'name' });
    setError(null);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(event) => (event.open ? setOpen(true) : close())}>
      <Dialog.Trigger asChild>
        <Button size="sm" colorPalette="blue">
          Set up authenticator app
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{step.kind === 'codes' ? 'Save your recovery codes' : 'Set up an authenticator app'}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {step.kind === 'name' && (
                <Stack gap="3">
                  <FormField label="Name" error={error ?? undefined} helperText="Tells your authenticators apart, like “Work phone”." required>
                    <Input value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />
                  </FormField>
                  <Button colorPalette="blue" loading={busy} disabled={name.trim() === ''} onClick={() => void start()}>
                    Continue
                  </Button>
                </Stack>
              )}
              {step.kind === 'scan' && (
                <Stack gap="4">
                  <Text fontSize="sm">Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy...).</Text>
                  <Image src={step.factor.qrCode} alt="QR code for your authenticator app" boxSize="48" alignSelf="center" bg="white" />
                  <Text fontSize="sm">
                    Can’t scan it? Type this key instead:{' '}
                    <Code data-testid="totp-secret" wordBreak="break-all">
                      {step.factor.secret}
                    </Code>
                  </Text>
                  <CodeForm submitLabel="Confirm" autoFocus={false} onCode={(code) => confirm(step.factor, code)} />
                </Stack>
              )}
              {step.kind === 'codes' && <RecoveryCodesList codes={step.codes} />}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={close}>
                {step.kind === 'codes' ? 'Done' : 'Cancel'}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
