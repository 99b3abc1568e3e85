import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { usePlatform } from '../../lib/platform-context';
import type { StorePc, StorePcStatus } from '../../platform/platform';

/**
 * This store PC (desktop only, docs/adr/0271-0272): its version, what the updater is doing, a problem with IT's
 * machine policy, and the user's own update channel and switch, shown as set by IT where the policy set or
 * locked them (main refuses those changes anyway).
 */
export function ThisComputerButton() {
  const { machine } = usePlatform();
  const [open, setOpen] = useState(false);
  if (!machine) return null;
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen((o) => !o)} aria-expanded={open}>This computer</Button>
      {open && <ThisComputerPanel machine={machine} />}
    </>
  );
}

export function ThisComputerPanel({ machine }: { machine: StorePc }) {
  const [status, setStatus] = useState<StorePcStatus | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    void machine.status().then(setStatus, () => setMessage({ ok: false, text: 'The computer\'s status could not be read.' }));
  }, [machine]);
  if (!status) return <Text color="fg.muted">{message?.text ?? 'Loading…'}</Text>;

  const channelLocked = status.locked.includes('updateChannel');
  const autoLocked = status.locked.includes('autoUpdate');
  const change = async (next: { updateChannel?: 'stable' | 'beta'; autoUpdate?: boolean }) => {
    const result = await machine.changeSettings(next).catch(() => ({ ok: false, message: 'The settings could not be saved.' }));
    setMessage({ ok: result.ok, text: result.message });
    if (result.ok) setStatus({ ...status, ...next });
  };

  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" maxW="md" aria-label="This computer">
      <Text textStyle="sm">Storewise {status.version} ({status.channel})</Text>
      <Text textStyle="sm" data-testid="update-status">{status.update}</Text>
      {status.policyProblem && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>This computer&apos;s policy has a problem</Alert.Title>
            <Alert.Description>{status.policyProblem}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <NativeSelect.Root disabled={channelLocked}>
        <NativeSelect.Field aria-label="Update channel" value={status.channel}
          onChange={(e) => void change({ updateChannel: e.target.value as 'stable' | 'beta' })}>
          <option value="stable">Stable updates</option>
          <option value="beta">Beta updates (early versions)</option>
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Checkbox.Root checked={status.autoUpdate} disabled={autoLocked}
        onCheckedChange={(e) => void change({ autoUpdate: e.checked === true })}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Update automatically</Checkbox.Label>
      </Checkbox.Root>
      {(channelLocked || autoLocked) && <Text textStyle="xs" color="fg.muted">Some settings are set by your IT department.</Text>}
      {message && <Text textStyle="sm" role="status" color={message.ok ? 'fg.muted' : 'fg.error'}>{message.text}</Text>}
    </Stack>
  );
}
