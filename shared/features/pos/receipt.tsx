import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { formatMinor } from './cart';

export interface ReceiptData {
  receiptNumber: string;
  occurredAt: string;
  header: string | null;
  footer: string | null;
  currency: string;
  lines: { name: string; qty: number; unitPrice: number; total: number }[];
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  taxByRate: { rate: number; tax: number }[];
  tenders: { kind: string; amount: number; tendered: number; change: number }[];
  pending: boolean;
}

/** The 80 mm receipt; @media print hides everything else (see the style below) so window.print() prints just it. */
export function Receipt({ data, onClose }: { data: ReceiptData; onClose: () => void }) {
  const money = (n: number) => formatMinor(n, data.currency);
  return (
    <Stack gap="3" data-testid="receipt">
      <style>{`@media print { body * { visibility: hidden; } .pos-receipt, .pos-receipt * { visibility: visible; }
        .pos-receipt { position: absolute; left: 0; top: 0; width: 80mm; padding: 2mm; font-size: 11px; }
        @page { size: 80mm auto; margin: 0; } }`}</style>
      <Box className="pos-receipt" fontFamily="mono" fontSize="sm" maxW="80mm" borderWidth="1px" p="3" bg="bg">
        {data.header && <Text textAlign="center" fontWeight="bold">{data.header}</Text>}
        <Text textAlign="center">Receipt {data.receiptNumber}</Text>
        <Text textAlign="center">{new Date(data.occurredAt).toLocaleString()}</Text>
        <Box borderTopWidth="1px" borderStyle="dashed" my="2" />
        {data.lines.map((line, i) => (
          <Box key={i}>
            <Text>{line.name}</Text>
            <HStack justify="space-between"><Text>{line.qty} x {money(line.unitPrice)}</Text><Text>{money(line.total)}</Text></HStack>
          </Box>
        ))}
        <Box borderTopWidth="1px" borderStyle="dashed" my="2" />
        <HStack justify="space-between"><Text>Subtotal</Text><Text>{money(data.subtotal)}</Text></HStack>
        {data.discount > 0 && <HStack justify="space-between"><Text>Discount</Text><Text>-{money(data.discount)}</Text></HStack>}
        {data.taxByRate.map((t) => (
          <HStack key={t.rate} justify="space-between"><Text>Tax {t.rate}%</Text><Text>{money(t.tax)}</Text></HStack>
        ))}
        <HStack justify="space-between" fontWeight="bold"><Text>Total</Text><Text data-testid="receipt-total">{money(data.total)}</Text></HStack>
        {data.tenders.map((t, i) => (
          <Box key={i}>
            <HStack justify="space-between"><Text textTransform="capitalize">{t.kind}</Text><Text>{money(t.tendered)}</Text></HStack>
            {t.change > 0 && <HStack justify="space-between"><Text>Change</Text><Text data-testid="receipt-change">{money(t.change)}</Text></HStack>}
          </Box>
        ))}
        {data.pending && <Text textAlign="center" mt="2">Saved offline: syncs when the connection returns</Text>}
        {data.footer && <Text textAlign="center" mt="2">{data.footer}</Text>}
      </Box>
      <HStack>
        <Button onClick={() => window.print()}>Print receipt</Button>
        <Button variant="outline" onClick={onClose}>New sale</Button>
      </HStack>
    </Stack>
  );
}
