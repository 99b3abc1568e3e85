import { Box, HStack, Text } from '@chakra-ui/react';
import type { PrintableSlip } from '../../../platform/platform';
import { usePlatform } from '../../../lib/platform-context';
import { formatMinor } from '../cart';
import { PrintReportButton } from './print-report';
import { printSlip } from './print-slip';

/** A slip (a refund, docs/adr/0150) on screen as it prints, with its print button (the drawer opens for cash). */
export function SlipView({ slip, openDrawer }: { slip: PrintableSlip; openDrawer: boolean }) {
  const platform = usePlatform();
  return (
    <Box className="pos-report" borderWidth="1px" rounded="md" p="3" fontFamily="mono" fontSize="sm" maxW="80mm" data-testid="refund-slip">
      {slip.storeName && <Text textAlign="center" fontWeight="bold">{slip.storeName}</Text>}
      <Text textAlign="center" fontWeight="bold">{slip.title}</Text>
      <Text textAlign="center">{new Date(slip.occurredAt).toLocaleString()}</Text>
      {slip.rows.map((row, i) => (
        <HStack key={i} justify="space-between" fontWeight={row.bold ? 'bold' : undefined}>
          <Text>{row.label}</Text><Text>{row.amount !== null ? formatMinor(row.amount, slip.currency) : row.text}</Text>
        </HStack>
      ))}
      {slip.footer && <Text mt="2">{slip.footer}</Text>}
      <PrintReportButton kind="refund" onPrint={() => printSlip(platform, slip, { openDrawer })} />
    </Box>
  );
}
