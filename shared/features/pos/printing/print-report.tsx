import { useState } from 'react';
import { Button, Text } from '@chakra-ui/react';
import type { PrintResult } from './print-receipt';

/**
 * Prints one shift report (X or Z) or refund slip on its own through the print dialog, on the web and the desktop
 * alike: while printing, the body carries a class under which only the slip (.pos-report) is visible. On the desktop
 * the caller may pass onPrint to go through the bridge instead (print-slip.ts: ESC/POS to a network receipt printer,
 * docs/adr/0150).
 */
const reportCss = `@media print {
  body.pos-printing-report * { visibility: hidden !important; }
  body.pos-printing-report .pos-report, body.pos-printing-report .pos-report * { visibility: visible !important; }
  body.pos-printing-report .pos-report { position: absolute; left: 0; top: 0; width: 80mm; margin: 0; padding: 3mm;
    border: 0 !important; font-size: 11px; color: #000; background: #fff; }
  body.pos-printing-report .pos-report button { display: none; }
}`;

export function printReport(browserPrint: () => void = () => window.print()) {
  document.body.classList.add('pos-printing-report');
  try {
    browserPrint(); // blocks until the dialog closes
  } finally {
    document.body.classList.remove('pos-printing-report');
  }
}

export function PrintReportButton({ kind, label, onPrint }: {
  kind: 'X' | 'Z' | 'refund';
  /** The button's text (default "Print X report" / "Print Z report" / "Print refund receipt"). */
  label?: string;
  onPrint?: () => Promise<PrintResult>;
}) {
  const [result, setResult] = useState<PrintResult | null>(null);
  const [busy, setBusy] = useState(false);
  const print = async () => {
    if (!onPrint) {
      printReport();
      return;
    }
    setBusy(true);
    try {
      setResult(await onPrint());
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <style>{reportCss}</style>
      <Button size="sm" variant="outline" mt="2" loading={busy} onClick={() => void print()}>
        {label ?? (kind === 'refund' ? 'Print refund receipt' : `Print ${kind} report`)}
      </Button>
      {result && !result.ok && <Text role="alert" color="fg.error">{result.message}</Text>}
    </>
  );
}
