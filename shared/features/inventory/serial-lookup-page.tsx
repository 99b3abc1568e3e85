import { useState } from 'react';
import { Badge, Box, Button, Field, HStack, Input, Link, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { format, parseISO } from 'date-fns';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { useSupabase } from '../../lib/platform-context';
import { findSerial, serialFromInput, serialQuerySchema, type SerialQueryValues, type SerialSale, type SerialUnit } from './serial-lookup-api';
import type { StoreContext } from './store-context';

const day = (iso: string) => format(parseISO(iso), 'd MMM yyyy');

const STATUS: Record<SerialUnit['status'], string> = {
  in_stock: 'In stock', sold: 'Sold', damaged: 'Damaged', not_received: 'Sold but never received',
};

function WarrantyBadge({ unit }: { unit: SerialUnit }) {
  if (unit.warranty === 'in_warranty' && unit.warranty_ends_on) {
    return <Badge colorPalette="green" data-testid="serial-warranty">In warranty until {day(unit.warranty_ends_on)}</Badge>;
  }
  if (unit.warranty === 'expired' && unit.warranty_ends_on) {
    return <Badge colorPalette="red" data-testid="serial-warranty">Warranty expired on {day(unit.warranty_ends_on)}</Badge>;
  }
  if (unit.warranty === 'none') return <Badge data-testid="serial-warranty">No warranty recorded for this product</Badge>;
  return <Badge data-testid="serial-warranty">Not sold: no warranty running</Badge>;
}

function SaleRow({ sale }: { sale: SerialSale }) {
  return (
    <Stack gap="1" borderLeftWidth="2px" pl="3" data-testid="serial-sale">
      <HStack gap="2" wrap="wrap">
        <Text fontWeight="medium">Sold {day(sale.sold_on)} at {sale.store}</Text>
        <Text fontFamily="mono">Receipt {sale.receipt_number}</Text>
        {sale.sale_id && (
          <Link asChild colorPalette="blue"><RouterLink to={`/dashboard/inventory/receipts/${sale.sale_id}`}>Open receipt</RouterLink></Link>
        )}
        {sale.duplicate && <Badge colorPalette="orange">offline repeat, flagged for review</Badge>}
      </HStack>
      {sale.customer && <Text fontSize="sm">Customer: {sale.customer}</Text>}
      {sale.refunds.map((r, i) => (
        <Text key={r.refund_id ?? i} fontSize="sm" data-testid="serial-return">
          Returned {day(r.returned_on)} at {r.store}: {r.disposition === 'restock' ? 'back in stock' : 'marked damaged'}
        </Text>
      ))}
    </Stack>
  );
}

function UnitCard({ unit }: { unit: SerialUnit }) {
  return (
    <Stack gap="3" borderWidth="1px" rounded="md" p="4" data-testid="serial-unit">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Box>
          <Text fontWeight="semibold">{unit.product}</Text>
          <Text fontSize="sm" color="fg.muted" fontFamily="mono">{unit.tracking === 'imei' ? 'IMEI' : 'S/N'} {unit.serial} · {unit.sku}</Text>
        </Box>
        <HStack gap="2" wrap="wrap">
          <Badge data-testid="serial-status">{STATUS[unit.status]}</Badge>
          <WarrantyBadge unit={unit} />
        </HStack>
      </HStack>
      {unit.received ? (
        <Text fontSize="sm" data-testid="serial-received">
          Received {day(unit.received.at)} at {unit.received.store}
          {unit.received.supplier ? ` from ${unit.received.supplier}` : ''}
          {unit.received.purchase_order_id && (
            <> (<Link asChild colorPalette="blue"><RouterLink to={`/dashboard/inventory/purchase-orders/${unit.received.purchase_order_id}`}>purchase order</RouterLink></Link>)</>
          )}
        </Text>
      ) : <Text fontSize="sm" color="fg.muted">Never received: sold offline under a serial the shop had not recorded.</Text>}
      {unit.warranty_months !== null && <Text fontSize="sm" color="fg.muted">{unit.warranty_months} months of warranty from the day of sale.</Text>}
      {unit.sales.length === 0 ? <Text fontSize="sm" color="fg.muted">Not sold yet.</Text> : unit.sales.map((s, i) => <SaleRow key={`${s.receipt_number}-${i}`} sale={s} />)}
      {!unit.details && unit.sales.length > 0 && (
        <Text fontSize="xs" color="fg.muted">Customers and receipts show for owners and managers of the selling store.</Text>
      )}
    </Stack>
  );
}

/**
 * Inventory > Serial lookup (issue 29, ADR 0365): type or scan a serial, an IMEI or a GS1 DataMatrix and see the
 * product, where it was received, each sale and return, and the warranty. Cashiers use it at the counter for a
 * warranty claim (the database leaves out customers, orders and receipt links for them).
 */
export function SerialLookupPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [result, setResult] = useState<{ serial: string; units: SerialUnit[] } | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<SerialQueryValues>({
    resolver: zodResolver(serialQuerySchema), defaultValues: { query: '' },
  });
  const onSubmit = async (values: SerialQueryValues) => {
    const read = serialFromInput(values.query);
    if (!read.ok) return setError('query', { message: read.error });
    try {
      setResult({ serial: read.serial, units: await findSerial(supabase, ctx.businessId, read.serial) });
    } catch (error) {
      setResult(null);
      setError('root', { message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <Stack gap="4">
      <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Find a serial number">
        <HStack align="end" gap="2" wrap="wrap">
          <Field.Root invalid={Boolean(formState.errors.query)} maxW="md">
            <Field.Label>Serial number or IMEI</Field.Label>
            <Input autoFocus autoComplete="off" placeholder="Type or scan (a DataMatrix works too)" {...register('query')} />
            <Field.ErrorText>{formState.errors.query?.message}</Field.ErrorText>
          </Field.Root>
          <Button type="submit" loading={formState.isSubmitting}>Find</Button>
        </HStack>
        {formState.errors.root?.message && <Text color="fg.error" fontSize="sm" role="alert">{formState.errors.root.message}</Text>}
      </form>
      {result && (result.units.length === 0 ? (
        <Text role="status" data-testid="serial-not-found">No unit with the serial {result.serial} in this business.</Text>
      ) : (
        <Stack gap="3" role="region" aria-label={`Serial ${result.serial}`}>
          {result.units.map((u) => <UnitCard key={`${u.variant_id}-${u.serial}`} unit={u} />)}
        </Stack>
      ))}
    </Stack>
  );
}
