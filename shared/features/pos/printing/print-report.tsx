import { Button } from '@chakra-ui/react';

/**
 * Prints one shift report (X or Z) on its own through the print dialog, on the web and the desktop alike: while
 * printing, the body carries a class under which only the report (.pos-report) is visible. Reports go to an office
 * printer or the receipt printer's system driver; the raw ESC/POS path is for receipts (docs/adr/0132).
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

export function PrintReportButton({ kind }: { kind: 'X' | 'Z' }) {
  return (
    <>
      <style>{reportCss}</style>
      <Button size="sm" variant="outline" mt="2" onClick={() => printReport()}>Print {kind} report</Button>
    </>
  );
}
