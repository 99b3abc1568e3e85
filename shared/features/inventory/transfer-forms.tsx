import { Button, HStack, IconButton, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { LuX } from 'react-icons/lu';
import { FormField } from '../../components/form-field';
import type { ScannedItem } from './datamatrix-scan';
import type { StockStore } from './inventory-api';
import { missingOf, parseQty, receiveTransferSchema, sendTransferSchema, type ReceiveTransferValues, type SendTransferValues } from './inventory-schemas';
import { hitLabel, type CatalogHit } from './orders-api';
import type { SheetRow } from './transfers-api';
import { QuantityGrid, type GridPick } from './quantity-grid';
import { ScanField } from './scan-field';
import { VariantPicker } from './variant-picker';

/**
 * Sending stock to another store: the destination and the items (lot-tracked ones per lot, first expiring first).
 * A scan (a GS1 DataMatrix or a plain barcode) adds one unit of its item, on the line of the lot it carries.
 */
export function SendTransferForm({ businessId, stores, loadStock, findScanned, onSubmit, onCancel }: {
  businessId: string; stores: StockStore[]; loadStock: (variantId: string) => Promise<SheetRow[]>;
  findScanned: (text: string) => Promise<ScannedItem>;
  onSubmit: (values: SendTransferValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, control, formState, getValues, setValue } = useForm<SendTransferValues>({
    resolver: zodResolver(sendTransferSchema), defaultValues: { toStoreId: '', note: '', lines: [] },
  });
  const lines = useFieldArray({ control, name: 'lines' });
  const errors = formState.errors;
  const pick = async (hit: CatalogHit) => {
    if (lines.fields.some((f) => f.variantId === hit.variant_id)) return;
    const held = (await loadStock(hit.variant_id)).sort((a, b) => (a.expires_on ?? '').localeCompare(b.expires_on ?? ''));
    const base = `${hitLabel(hit)} (${hit.sku})`;
    const rows = hit.has_lots ? held.filter((r) => Number(r.on_hand) > 0) : held;
    for (const r of rows.length ? rows : [{ lot_id: null, lot_number: null, on_hand: 0 }]) {
      lines.append({ variantId: hit.variant_id, unit: hit.unit, qty: '', lotId: r.lot_id ?? '', available: Number(r.on_hand),
        label: r.lot_number ? `${base}, lot ${r.lot_number}` : base });
    }
  };
  // The size grid's cells: items by the piece, one line each with what this store holds (lot-tracked styles are
  // rare in clothing; their lots are listed as a picked item's are, quantities left to type).
  const pickGrid = async (picks: GridPick[]) => {
    for (const p of picks) {
      if (lines.fields.some((f) => f.variantId === p.variantId)) continue;
      const held = await loadStock(p.variantId);
      if (p.hasLots) {
        for (const r of held.filter((x) => Number(x.on_hand) > 0)) {
          lines.append({ variantId: p.variantId, unit: p.unit, qty: '', lotId: r.lot_id ?? '', available: Number(r.on_hand),
            label: `${p.label}, lot ${r.lot_number ?? ''}` });
        }
        continue;
      }
      lines.append({ variantId: p.variantId, unit: p.unit, qty: String(p.qty), lotId: '', label: p.label,
        available: held.reduce((sum, r) => sum + Number(r.on_hand), 0) });
    }
  };
  // One unit of the scanned item on its lot's line (the line is added when missing). A lot the store does not hold
  // cannot be sent from it, so the scan says so rather than adding a line the database would refuse.
  const scan = async (text: string): Promise<string> => {
    const found = await findScanned(text);
    if (!found.ok) return found.error;
    const { item, lot } = found;
    if (item.hasLots && !lot) return `${item.label}: the code carries no lot (10); add the item and type the quantity per lot`;
    const held = await loadStock(item.id);
    const row = item.hasLots ? held.find((r) => r.lot_number === lot && Number(r.on_hand) > 0) : held[0];
    if (item.hasLots && !row) return `${item.label}: lot ${lot ?? ''} is not in stock in this store`;
    const lotId = row?.lot_id ?? '';
    const name = `${item.label} (${item.sku})${lot && item.hasLots ? `, lot ${lot}` : ''}`;
    const i = getValues('lines').findIndex((l) => l.variantId === item.id && (l.lotId || '') === lotId);
    const qty = (i >= 0 ? parseQty(getValues(`lines.${i}.qty`), item.unit) ?? 0 : 0) + 1;
    if (i >= 0) setValue(`lines.${i}.qty`, String(qty), { shouldValidate: formState.isSubmitted });
    else lines.append({ variantId: item.id, unit: item.unit, qty: '1', lotId, available: Number(row?.on_hand ?? 0), label: name });
    return `${name}: ${qty} to send`;
  };
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Send stock">
      <Stack gap="3" borderWidth="1px" rounded="md" p="4">
        <HStack gap="3" wrap="wrap" align="flex-start">
          <FormField label="Send to" required error={errors.toStoreId?.message}>
            <NativeSelect.Root>
              <NativeSelect.Field {...register('toStoreId')}>
                <option value="">Choose a store…</option>
                {stores.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label="Note" error={errors.note?.message}><Input {...register('note')} /></FormField>
        </HStack>
        <VariantPicker businessId={businessId} label="Add an item to send" onPick={(hit) => void pick(hit)} />
        <ScanField label="Scan to send" placeholder="Scan a DataMatrix or barcode: one unit, on its lot's line" onScan={scan}
          testId="transfer-scan-note" />
        <QuantityGrid businessId={businessId} action="Add to the transfer" onAdd={pickGrid} />
        {lines.fields.length > 0 && (
          <Table.ScrollArea>
            <Table.Root size="sm" aria-label="Items to send">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">On hand</Table.ColumnHeader>
                  <Table.ColumnHeader>Send</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {lines.fields.map((field, i) => (
                  <Table.Row key={field.id}>
                    <Table.Cell>{field.label}</Table.Cell>
                    <Table.Cell textAlign="end">{field.available}</Table.Cell>
                    <Table.Cell minW="24">
                      <Input size="sm" inputMode="decimal" aria-label={`Send of ${field.label}`} {...register(`lines.${i}.qty` as const)}
                        aria-invalid={Boolean(errors.lines?.[i]?.qty)} />
                      {errors.lines?.[i]?.qty && <Text fontSize="xs" color="fg.error">{errors.lines[i]?.qty?.message}</Text>}
                    </Table.Cell>
                    <Table.Cell>
                      <IconButton size="xs" variant="ghost" aria-label={`Remove ${field.label}`} onClick={() => lines.remove(i)}><LuX /></IconButton>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
        {(errors.lines?.root?.message ?? errors.lines?.message) && (
          <Text color="fg.error" fontSize="sm" role="alert">{errors.lines?.root?.message ?? errors.lines?.message}</Text>
        )}
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Send</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}

/** Receiving a transfer: per line received and damaged; what is left of the sent quantity is missing. */
export function ReceiveTransferForm({ lines, onSubmit, onCancel }: {
  lines: ReceiveTransferValues['lines']; onSubmit: (values: ReceiveTransferValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, control, formState } = useForm<ReceiveTransferValues>({
    resolver: zodResolver(receiveTransferSchema), defaultValues: { lines },
  });
  const watched = useWatch({ control, name: 'lines' });
  const errors = formState.errors.lines;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Receive transfer">
      <Stack gap="3">
        <Table.ScrollArea>
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Item</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Sent</Table.ColumnHeader>
                <Table.ColumnHeader>Received</Table.ColumnHeader>
                <Table.ColumnHeader>Damaged</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Missing</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.map((line, i) => (
                <Table.Row key={line.lineId}>
                  <Table.Cell>{line.label}</Table.Cell>
                  <Table.Cell textAlign="end">{line.sent}</Table.Cell>
                  <Table.Cell minW="24">
                    <Input size="sm" inputMode="decimal" aria-label={`Received of ${line.label}`} {...register(`lines.${i}.received` as const)}
                      aria-invalid={Boolean(errors?.[i]?.received)} />
                    {errors?.[i]?.received && <Text fontSize="xs" color="fg.error">{errors[i]?.received?.message}</Text>}
                  </Table.Cell>
                  <Table.Cell minW="24">
                    <Input size="sm" inputMode="decimal" aria-label={`Damaged of ${line.label}`} {...register(`lines.${i}.damaged` as const)}
                      aria-invalid={Boolean(errors?.[i]?.damaged)} />
                    {errors?.[i]?.damaged && <Text fontSize="xs" color="fg.error">{errors[i]?.damaged?.message}</Text>}
                  </Table.Cell>
                  <Table.Cell textAlign="end" data-testid="transfer-missing">{missingOf(watched[i] ?? line)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Receive transfer</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
