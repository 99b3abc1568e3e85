import { useState } from 'react';
import { Box, Button, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { formatMinor } from './cart';
import { EmailReceipt, requestReceiptEmail, saleIdForReceipt } from './printing/email-receipt';
import { printReceipt, type PrintResult } from './printing/print-receipt';
import { ReceiptBarcode } from './printing/receipt-barcode';
import { formatReceiptLot, type ReceiptLot } from '../../lib/receipt-lot';
import { taxLabel } from '../../lib/tax-label';

export interface ReceiptData {
  receiptNumber: string;
  occurredAt: string;
  /** The sale's id (its outbox key): needed to email the receipt once the sale is on the server. */
  saleId?: string;
  storeName?: string | null;
  /** The business's logo (a public Storage URL), printed above the store's name. */
  logoUrl?: string | null;
  header: string | null;
  footer: string | null;
  currency: string;
  /** total is qty x unit price (the line before its discount): the lines add up to the subtotal (issue 25). */
  lines: { name: string; qty: number; unitPrice: number; total: number; unit?: string; detail?: string;
    /** The register named the line's lot (a DataMatrix scan): it is in `detail`, and the server keeps it. */
    lotNamed?: boolean;
    /** The lots the server picked for the line (FEFO), filled in once the sale has posted (receipt-lots.ts). */
    lots?: ReceiptLot[] }[];
  /** Posted online with lot-tracked lines the server picks lots for: the till fills them in (ADR 0403). */
  awaitLots?: boolean;
  /** What cash rounding added to the total (negative: took off); the tenders pay total + cashRounding (issue 29). */
  cashRounding?: number;
  /** Prices include tax: tax lines read "included" and the total is the subtotal less discounts. */
  taxInclusive?: boolean;
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  taxByRate: { rate: number; tax: number }[];
  /** foreign: cash in another currency (ADR 0395): what was handed over in it and the rate it was taken at. */
  tenders: { kind: string; amount: number; tendered: number; change: number;
    foreign?: { currency: string; rate: string; tendered: number } }[];
  pending: boolean;
}

// Printing the page prints only the receipt, at 80 mm: the browser's window.print() and the desktop's silent
// webContents.print() both go through this (docs/adr/0132).
const printCss = `@media print {
  @page { size: 80mm auto; margin: 0; }
  body * { visibility: hidden !important; }
  .pos-receipt, .pos-receipt * { visibility: visible !important; }
  .pos-receipt { position: absolute; left: 0; top: 0; width: 80mm; max-width: 80mm; margin: 0; padding: 3mm;
    border: 0 !important; font-size: 11px; line-height: 1.3; color: #000; background: #fff; }
  .pos-receipt svg { max-width: 100%; }
  /* A shift report printing on its own (printing/print-report.tsx) hides the receipt too. */
  body.pos-printing-report .pos-receipt, body.pos-printing-report .pos-receipt * { visibility: hidden !important; }
}`;

/** The 80 mm receipt: store header, number as text and barcode, date, lines, taxes per rate, tenders, change, footer. */
export function Receipt({ data, onClose }: { data: ReceiptData; onClose: () => void }) {
  const money = (n: number) => formatMinor(n, data.currency);
  const platform = usePlatform();
  const supabase = useSupabase();
  const [printing, setPrinting] = useState<'idle' | 'busy' | PrintResult>('idle');
  const change = data.tenders.reduce((sum, t) => sum + t.change, 0);

  const print = async () => {
    setPrinting('busy');
    setPrinting(await printReceipt(platform, data));
  };

  return (
    <Stack gap="3" data-testid="receipt">
      <style>{printCss}</style>
      <Box className="pos-receipt" fontFamily="mono" fontSize="sm" maxW="80mm" borderWidth="1px" p="3" bg="bg">
        {data.logoUrl && <Image src={data.logoUrl} alt="" mx="auto" mb="1" maxH="16" maxW="48mm" objectFit="contain" data-testid="receipt-logo" />}
        {data.storeName && <Text textAlign="center" fontWeight="bold" fontSize="md">{data.storeName}</Text>}
        {data.header && <Text textAlign="center" whiteSpace="pre-line">{data.header}</Text>}
        <Text textAlign="center" mt="1" data-testid="receipt-number">Receipt {data.receiptNumber}</Text>
        <Text textAlign="center">{new Date(data.occurredAt).toLocaleString()}</Text>
        <Box borderTopWidth="1px" borderStyle="dashed" my="2" />
        {data.lines.map((line, i) => (
          <Box key={i}>
            <Text>{line.name}</Text>
            {line.detail && <Text data-testid="receipt-line-detail">{line.detail}</Text>}
            {line.lots?.map((lot) => <Text key={lot.lot_number} data-testid="receipt-line-lot">{formatReceiptLot(lot)}</Text>)}
            <HStack justify="space-between">
              <Text>{line.qty}{line.unit ? ` ${line.unit}` : ''} x {money(line.unitPrice)}{line.unit ? `/${line.unit}` : ''}</Text>
              <Text>{money(line.total)}</Text>
            </HStack>
          </Box>
        ))}
        <Box borderTopWidth="1px" borderStyle="dashed" my="2" />
        <HStack justify="space-between"><Text>Subtotal</Text><Text>{money(data.subtotal)}</Text></HStack>
        {data.discount > 0 && <HStack justify="space-between"><Text>Discount</Text><Text>-{money(data.discount)}</Text></HStack>}
        {data.taxByRate.map((t) => (
          <HStack key={t.rate} justify="space-between" data-testid="receipt-tax"><Text>{taxLabel(t.rate, data.taxInclusive)}</Text><Text>{money(t.tax)}</Text></HStack>
        ))}
        <HStack justify="space-between" fontWeight="bold"><Text>Total</Text><Text data-testid="receipt-total">{money(data.total)}</Text></HStack>
        {data.cashRounding ? (
          <>
            <HStack justify="space-between"><Text>Cash rounding</Text><Text data-testid="receipt-cash-rounding">{money(data.cashRounding)}</Text></HStack>
            <HStack justify="space-between" fontWeight="bold"><Text>Paid</Text><Text>{money(data.total + data.cashRounding)}</Text></HStack>
          </>
        ) : null}
        {data.tenders.map((t, i) => (
          <HStack key={i} justify="space-between">
            <Text textTransform="capitalize">{t.kind}</Text><Text>{money(t.kind === 'cash' ? t.tendered : t.amount)}</Text>
          </HStack>
        ))}
        {data.tenders.filter((t) => t.foreign).map((t, i) => (
          <Text key={`fx${i}`} fontSize="sm" data-testid="receipt-foreign">
            {t.foreign && `${formatMinor(t.foreign.tendered, t.foreign.currency)} at ${t.foreign.rate} ${data.currency} per ${t.foreign.currency}`}
          </Text>
        ))}
        {change > 0 && <HStack justify="space-between"><Text>Change</Text><Text data-testid="receipt-change">{money(change)}</Text></HStack>}
        <Box mt="3" display="flex" justifyContent="center"><ReceiptBarcode value={data.receiptNumber} /></Box>
        {data.pending && <Text textAlign="center" mt="2">Saved offline: syncs when the connection returns</Text>}
        {data.footer && <Text textAlign="center" mt="2" whiteSpace="pre-line">{data.footer}</Text>}
      </Box>
      <HStack wrap="wrap">
        <Button onClick={() => void print()} loading={printing === 'busy'}>
          {typeof printing === 'object' && !printing.ok ? 'Print again' : 'Print receipt'}
        </Button>
        <Button variant="outline" onClick={onClose}>New sale</Button>
      </HStack>
      {typeof printing === 'object' && printing.ok && printing.via !== 'browser' && printing.via !== 'dialog' && (
        <Text role="status" color="fg.success">Receipt printed</Text>
      )}
      {typeof printing === 'object' && !printing.ok && (
        <Text role="alert" color="fg.error">{printing.message} The sale is saved.</Text>
      )}
      <EmailReceipt send={async (email) => {
        const saleId = await saleIdForReceipt(supabase, data.receiptNumber, data.saleId);
        if (!saleId) return 'This sale has not reached the server yet. Try again once it has synced.';
        return requestReceiptEmail(supabase, saleId, email);
      }} />
    </Stack>
  );
}
