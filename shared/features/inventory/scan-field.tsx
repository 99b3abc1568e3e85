import { useState } from 'react';
import { Input, Stack, Text } from '@chakra-ui/react';

/**
 * A field a scanner types into (wedge scanners end with Enter): the scan is handed over and the answer shown, so
 * the person sees what the scan filled (item and lot) or why it did nothing. Used by transfers and counts.
 */
export function ScanField({ label, placeholder, onScan, testId }: {
  label: string; placeholder: string; onScan: (text: string) => Promise<string>; testId: string;
}) {
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const read = async () => {
    setBusy(true);
    try {
      setNote(await onScan(text));
      setText('');
    } catch (error) {
      setNote(`Not read: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="1">
      <Input size="sm" maxW="md" aria-label={label} placeholder={placeholder} value={text} autoComplete="off" data-busy={busy || undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (text.trim()) void read();
          }
        }} />
      {note && <Text fontSize="sm" role="status" data-testid={testId}>{note}</Text>}
    </Stack>
  );
}
