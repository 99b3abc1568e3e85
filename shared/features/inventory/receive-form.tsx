import { useState } from 'react';
import { Button, HStack, Input, Stack, Table, Text, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { gtinLookupCodes, parseGs1 } from '../../lib/gs1';
import { receiveSchema, serialList, type ReceiveValues } from './inventory-schemas';

export type ReceiveLine = ReceiveValues['lines'][number];

/**
 * What arrived of an ordered purchase order: per line a quantity (blank: nothing this time), the lot and expiry of
 * lot-tracked items, and the serial of each unit of serial-tracked ones. A GS1 DataMatrix scanned into the scan
 * field finds its line by GTIN and fills the lot and expiry (and adds its serial). Receiving less than ordered
 * leaves the order partly received.
 */
export function ReceiveForm({ lines, onSubmit, onCancel }: {
  lines: ReceiveLine[]; onSubmit: (values: ReceiveValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, formState, setValue, getValues } = useForm<ReceiveValues>({
    resolver: zodResolver(receiveSchema), defaultValues: { lines },
  });
  const errors = formState.errors.lines;
  const [scan, setScan] = useState('');
  const [scanNote, setScanNote] = useState<string | null>(null);
  const anyLots = lines.some((l) => l.hasLots || l.serialTracking);

  const readScan = () => {
    const parsed = parseGs1(scan);
    if (!parsed.ok) return setScanNote(`Not read: ${parsed.error}`);
    const { gtin, lot, expiry, serial } = parsed.data;
    const codes = gtin ? gtinLookupCodes(gtin) : [];
    const i = lines.findIndex((l) => l.barcodes.some((b) => codes.includes(b)));
    const line = lines[i];
    if (!line) return setScanNote(gtin ? `No line of this order has the GTIN ${gtin}` : 'This code has no GTIN (01)');
    const filled: string[] = [];
    if (lot && line.hasLots) {
      setValue(`lines.${i}.lotNumber`, lot, { shouldValidate: formState.isSubmitted });
      filled.push(`lot ${lot}`);
    }
    if (expiry && line.hasLots) {
      setValue(`lines.${i}.expiresOn`, expiry, { shouldValidate: formState.isSubmitted });
      filled.push(`expiry ${expiry}`);
    }
    if (serial && line.serialTracking) {
      const serials = serialList(getValues(`lines.${i}.serials`));
      if (!serials.includes(serial)) setValue(`lines.${i}.serials`, [...serials, serial].join('\n'), { shouldValidate: formState.isSubmitted });
      filled.push(`serial ${serial}`);
    }
    setScanNote(filled.length ? `${line.label}: ${filled.join(', ')}` : `${line.label}: nothing to fill (no lot or serial)`);
    setScan('');
  };
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Receive goods">
      <Stack gap="3" borderWidth="1px" rounded="md" p="4">
        <Text fontWeight="medium">What arrived</Text>
        {anyLots && (
          <Stack gap="1">
            <Input size="sm" maxW="md" aria-label="Scan a DataMatrix" placeholder="Scan a DataMatrix (GS1) to fill the lot and expiry"
              value={scan} onChange={(e) => setScan(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  if (scan.trim()) readScan();
                }
              }} />
            {scanNote && <Text fontSize="sm" role="status" data-testid="receive-scan-note">{scanNote}</Text>}
          </Stack>
        )}
        <Table.ScrollArea>
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Item</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Expected</Table.ColumnHeader>
                <Table.ColumnHeader>Received now</Table.ColumnHeader>
                <Table.ColumnHeader>Lot</Table.ColumnHeader>
                <Table.ColumnHeader>Expires</Table.ColumnHeader>
                {lines.some((l) => l.serialTracking) && <Table.ColumnHeader>Serials</Table.ColumnHeader>}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.map((line, i) => (
                <Table.Row key={line.lineId}>
                  <Table.Cell>{line.label}</Table.Cell>
                  <Table.Cell textAlign="end">{line.remaining}</Table.Cell>
                  <Table.Cell minW="24">
                    <Input size="sm" inputMode="decimal" aria-label={`Received of ${line.label}`} {...register(`lines.${i}.qty` as const)}
                      aria-invalid={Boolean(errors?.[i]?.qty)} />
                    {errors?.[i]?.qty && <Text fontSize="xs" color="fg.error">{errors[i]?.qty?.message}</Text>}
                  </Table.Cell>
                  <Table.Cell minW="28">
                    {line.hasLots ? (
                      <>
                        <Input size="sm" aria-label={`Lot of ${line.label}`} {...register(`lines.${i}.lotNumber` as const)}
                          aria-invalid={Boolean(errors?.[i]?.lotNumber)} />
                        {errors?.[i]?.lotNumber && <Text fontSize="xs" color="fg.error">{errors[i]?.lotNumber?.message}</Text>}
                      </>
                    ) : '-'}
                  </Table.Cell>
                  <Table.Cell minW="36">
                    {line.hasLots ? (
                      <>
                        <Input size="sm" type="date" aria-label={`Expiry of ${line.label}`} {...register(`lines.${i}.expiresOn` as const)}
                          aria-invalid={Boolean(errors?.[i]?.expiresOn)} />
                        {errors?.[i]?.expiresOn && <Text fontSize="xs" color="fg.error">{errors[i]?.expiresOn?.message}</Text>}
                      </>
                    ) : '-'}
                  </Table.Cell>
                  {lines.some((l) => l.serialTracking) && (
                    <Table.Cell minW="48">
                      {line.serialTracking ? (
                        <>
                          <Textarea size="sm" rows={3} aria-label={`Serials of ${line.label}`} placeholder={line.serialTracking === 'imei' ? 'One IMEI per line' : 'One serial per line'}
                            {...register(`lines.${i}.serials` as const)} aria-invalid={Boolean(errors?.[i]?.serials)} />
                          {errors?.[i]?.serials && <Text fontSize="xs" color="fg.error">{errors[i]?.serials?.message}</Text>}
                        </>
                      ) : '-'}
                    </Table.Cell>
                  )}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        {errors?.root?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.root.message}</Text>}
        {errors?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.message}</Text>}
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Receive</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
