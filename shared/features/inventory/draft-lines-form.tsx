import { Button, HStack, IconButton, Input, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { LuX } from 'react-icons/lu';
import { draftLinesSchema, type DraftLinesValues } from './inventory-schemas';
import { hitLabel } from './orders-api';
import { QuantityGrid } from './quantity-grid';
import { VariantPicker } from './variant-picker';

/**
 * A draft purchase order's lines, editable: quantity and unit cost per line, remove a line, add an item. Saved as
 * one list (edit_purchase_order_draft replaces the draft's lines and records the change in the activity trail).
 */
export function DraftLinesForm({ businessId, initial, onSubmit, onCancel }: {
  businessId: string; initial: DraftLinesValues['lines'];
  onSubmit: (values: DraftLinesValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, control, formState } = useForm<DraftLinesValues>({
    resolver: zodResolver(draftLinesSchema), defaultValues: { lines: initial },
  });
  const lines = useFieldArray({ control, name: 'lines' });
  const errors = formState.errors;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Edit draft lines">
      <Stack gap="3" borderWidth="1px" rounded="md" p="4">
        <Table.ScrollArea>
          <Table.Root size="sm" aria-label="Draft lines">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Item</Table.ColumnHeader>
                <Table.ColumnHeader>Quantity</Table.ColumnHeader>
                <Table.ColumnHeader>Unit cost</Table.ColumnHeader>
                <Table.ColumnHeader />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.fields.map((field, i) => (
                <Table.Row key={field.id}>
                  <Table.Cell>{field.label}</Table.Cell>
                  <Table.Cell minW="28">
                    <Input size="sm" inputMode="decimal" aria-label={`Quantity of ${field.label}`} {...register(`lines.${i}.qty` as const)}
                      aria-invalid={Boolean(errors.lines?.[i]?.qty)} />
                    {errors.lines?.[i]?.qty && <Text fontSize="xs" color="fg.error">{errors.lines[i]?.qty?.message}</Text>}
                  </Table.Cell>
                  <Table.Cell minW="28">
                    <Input size="sm" inputMode="decimal" placeholder="average" aria-label={`Unit cost of ${field.label}`}
                      {...register(`lines.${i}.unitCost` as const)} aria-invalid={Boolean(errors.lines?.[i]?.unitCost)} />
                    {errors.lines?.[i]?.unitCost && <Text fontSize="xs" color="fg.error">{errors.lines[i]?.unitCost?.message}</Text>}
                  </Table.Cell>
                  <Table.Cell>
                    <IconButton size="xs" variant="ghost" aria-label={`Remove ${field.label}`} onClick={() => lines.remove(i)}><LuX /></IconButton>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        <VariantPicker businessId={businessId} label="Add an item to the draft" onPick={(hit) => {
          if (lines.fields.some((f) => f.variantId === hit.variant_id)) return;
          lines.append({ variantId: hit.variant_id, label: `${hitLabel(hit)} (${hit.sku})`, unit: hit.unit, qty: '1', unitCost: '' });
        }} />
        <QuantityGrid businessId={businessId} action="Add to the draft" onAdd={(picks) => {
          for (const p of picks) {
            if (!lines.fields.some((f) => f.variantId === p.variantId)) {
              lines.append({ variantId: p.variantId, label: p.label, unit: p.unit, qty: String(p.qty), unitCost: '' });
            }
          }
        }} />
        {errors.lines?.root?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.lines.root.message}</Text>}
        {errors.lines?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.lines.message}</Text>}
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Save lines</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
