import { Box, Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { format, parseISO } from 'date-fns';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { formatMinor } from '../../lib/money';
import { formatReceiptLot } from '../../lib/receipt-lot';
import { useSupabase } from '../../lib/platform-context';
import { taxLabel } from '../../lib/tax-label';
import { fetchSaleReceipt, type SaleReceipt } from './serial-lookup-api';
import { Loaded, useLoad } from './use-load';

// Printing this page prints the receipt alone (the register's receipt has the same rule).
const printCss = `@media print {
  body * { visibility: hidden !important; }
  .sale-receipt, .sale-receipt * { visibility: visible !important; }
  .sale-receipt { position: absolute; left: 0; top: 0; width: 80mm; border: 0 !important; }
}`;

/** A sale as its receipt reads: store, number, date, lines (with the S/N or the lots sold), taxes, tenders. */
function ReceiptView({ r }: { r: SaleReceipt }) {
  const money = (n: number) => formatMinor(n, r.currency);
  return (
    <Box className="sale-receipt" fontFamily="mono" fontSize="sm" maxW="80mm" borderWidth="1px" p="3" data-testid="sale-receipt">
      {r.store_name && <Text textAlign="center" fontWeight="bold">{r.store_name}</Text>}
      {r.header && <Text textAlign="center" whiteSpace="pre-line">{r.header}</Text>}
      <Text textAlign="center" mt="1" data-testid="receipt-number">Receipt {r.receipt_number}</Text>
      <Text textAlign="center">{format(parseISO(r.occurred_at), 'd MMM yyyy HH:mm')}</Text>
      {r.customer && <Text textAlign="center" data-testid="receipt-customer">Customer: {r.customer}</Text>}
      <Box borderTopWidth="1px" borderStyle="dashed" my="2" />
      {r.lines.map((l, i) => (
        <Box key={i}>
          <Text>{l.description}</Text>
          {l.serial && <Text data-testid="receipt-line-detail">S/N {l.serial}</Text>}
          {l.lots.map((lot) => <Text key={lot.lot_number} data-testid="receipt-line-lot">{formatReceiptLot(lot)}</Text>)}
          <HStack justify="space-between">
            <Text>{l.qty} x {money(l.unit_price)}</Text>
            <Text>{money(Math.round(l.unit_price * l.qty))}</Text>
          </HStack>
        </Box>
      ))}
      <Box borderTopWidth="1px" borderStyle="dashed" my="2" />
      <HStack justify="space-between"><Text>Subtotal</Text><Text>{money(r.subtotal)}</Text></HStack>
      {r.discount_total > 0 && <HStack justify="space-between"><Text>Discount</Text><Text>-{money(r.discount_total)}</Text></HStack>}
      {r.taxes.map((t) => (
        <HStack key={t.rate} justify="space-between"><Text>{taxLabel(t.rate, r.tax_inclusive)}</Text><Text>{money(t.tax)}</Text></HStack>
      ))}
      <HStack justify="space-between" fontWeight="bold"><Text>Total</Text><Text data-testid="receipt-total">{money(r.total)}</Text></HStack>
      {r.tenders.map((t, i) => (
        <HStack key={i} justify="space-between"><Text textTransform="capitalize">{t.kind}</Text><Text>{money(t.amount)}</Text></HStack>
      ))}
      {r.footer && <Text textAlign="center" mt="2" whiteSpace="pre-line">{r.footer}</Text>}
    </Box>
  );
}

/**
 * /dashboard/inventory/receipts/:saleId: a sale's receipt opened from the serial lookup (issue 29), to read or
 * print for a warranty claim. The database shows it to the readers of the sale only (owners and managers of the
 * store, the cashier who rang it); anyone else gets "not found".
 */
export function SaleReceiptPage() {
  const supabase = useSupabase();
  const { saleId = '' } = useParams();
  const [state, reload] = useLoad(saleId, () => fetchSaleReceipt(supabase, saleId));
  return (
    <Stack gap="3">
      <style>{printCss}</style>
      <HStack gap="3" className="no-print">
        <Link asChild colorPalette="blue"><RouterLink to="/dashboard/inventory/serials">Back to the serial lookup</RouterLink></Link>
        {state.status === 'ready' && <Button size="sm" variant="outline" onClick={() => window.print()}>Print</Button>}
      </HStack>
      <Loaded state={state} what="The receipt" reload={reload}>{(r) => <ReceiptView r={r} />}</Loaded>
    </Stack>
  );
}
