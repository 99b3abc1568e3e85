import { useEffect, useState } from 'react';
import { Button, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { usePlatform } from '../../../lib/platform-context';
import type { PrinterSettings, ReceiptPrinting } from '../../../platform/platform';

/**
 * This computer's receipt printer (desktop only; the browser always prints through its own dialog): the system
 * dialog, a chosen installed printer printed to silently, or a network ESC/POS printer by address with the cash
 * drawer kick. Saved per device by the desktop app, which checks the address is on the shop's network.
 */
export function PrinterSettingsButton() {
  const { printing } = usePlatform();
  const [open, setOpen] = useState(false);
  if (!printing) return null;
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen((o) => !o)} aria-expanded={open}>Printer</Button>
      {open && <PrinterSettingsPanel printing={printing} onDone={() => setOpen(false)} />}
    </>
  );
}

export function PrinterSettingsPanel({ printing, onDone }: { printing: ReceiptPrinting; onDone: () => void }) {
  const [settings, setSettings] = useState<PrinterSettings | null>(null);
  const [printers, setPrinters] = useState<{ name: string; displayName: string }[]>([]);
  const [host, setHost] = useState('');
  const [port, setPort] = useState('9100');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    void printing.getSettings().then((s) => {
      setSettings(s);
      setHost(s.network?.host ?? '');
      setPort(String(s.network?.port ?? 9100));
    });
    void printing.listPrinters().then(setPrinters, () => setPrinters([]));
  }, [printing]);

  if (!settings) return <Text color="fg.muted">Loading printer settings…</Text>;

  const save = async () => {
    const next: PrinterSettings = {
      ...settings,
      network: host.trim() ? { host: host.trim(), port: Number(port) || 0 } : null,
    };
    try {
      const result = await printing.saveSettings(next);
      setMessage(result.ok ? { ok: true, text: 'Printer settings saved' } : { ok: false, text: result.message });
      if (result.ok) onDone();
    } catch {
      setMessage({ ok: false, text: 'Check the printer address and port.' });
    }
  };

  return (
    <Stack as="form" gap="2" borderWidth="1px" rounded="md" p="3" maxW="md" aria-label="Printer settings"
      onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <NativeSelect.Root>
        <NativeSelect.Field aria-label="Print receipts with" value={settings.mode}
          onChange={(e) => setSettings({ ...settings, mode: e.target.value as PrinterSettings['mode'] })}>
          <option value="dialog">The print dialog</option>
          <option value="system">An installed printer, without a dialog</option>
          <option value="network">A network receipt printer (ESC/POS)</option>
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {settings.mode === 'system' && (
        <NativeSelect.Root>
          <NativeSelect.Field aria-label="Printer" value={settings.deviceName ?? ''}
            onChange={(e) => setSettings({ ...settings, deviceName: e.target.value || null })}>
            <option value="">Choose a printer</option>
            {printers.map((p) => <option key={p.name} value={p.name}>{p.displayName}</option>)}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      )}
      {settings.mode === 'network' && (
        <>
          <HStack>
            <Input aria-label="Printer address" placeholder="192.168.1.50" value={host} onChange={(e) => setHost(e.target.value)} />
            <Input aria-label="Port" maxW="24" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
          </HStack>
          <label>
            <input type="checkbox" checked={settings.openDrawerOnCash}
              onChange={(e) => setSettings({ ...settings, openDrawerOnCash: e.target.checked })} /> Open the cash drawer after a cash sale
          </label>
          <NativeSelect.Root maxW="xs">
            <NativeSelect.Field aria-label="Characters per line" value={String(settings.columns)}
              onChange={(e) => setSettings({ ...settings, columns: e.target.value === '42' ? 42 : 48 })}>
              <option value="48">48 characters per line</option>
              <option value="42">42 characters per line</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </>
      )}
      <HStack>
        <Button type="submit" size="sm">Save</Button>
        <Button size="sm" variant="ghost" onClick={onDone}>Cancel</Button>
      </HStack>
      {message && <Text role={message.ok ? 'status' : 'alert'} color={message.ok ? 'fg.success' : 'fg.error'}>{message.text}</Text>}
    </Stack>
  );
}
