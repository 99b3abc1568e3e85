import { Button, HStack, IconButton, Input, NativeSelect, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { LuX } from 'react-icons/lu';
import { FormField } from '../../components/form-field';
import { purchaseOrderSchema, type PurchaseOrderValues } from './inventory-schemas';
import { hitLabel, type Supplier } from './orders-api';
import { QuantityGrid } from './quantity-grid';
import { VariantPicker } from './variant-picker';

/** A new purchase order: the supplier, when it is expected, and the items with quantity and unit cost. */
export function PurchaseOrderForm({ businessId, suppliers, initial, onSubmit, onCancel }: {
  businessId: string; suppliers: Supplier[]; initial?: Partial<PurchaseOrderValues>;
  onSubmit: (values: PurchaseOrderValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, control, formState } = useForm<PurchaseOrderValues>({
    resolver: zodResolver(purchaseOrderSchema),
    defaultValues: { supplierId: '', expectedOn: '', notes: '', lines: [], ...initial },
  });
  const lines = useFieldArray({ control, name: 'lines' });
  const errors = formState.errors;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="New purchase order">
      <Stack gap="4" borderWidth="1px" rounded="md" p="4">
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
          <FormField label="Supplier" required error={errors.supplierId?.message}>
            <NativeSelect.Root>
              <NativeSelect.Field {...register('supplierId')}>
                <option value="">Choose…</option>
                {suppliers.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label="Expected on" error={errors.expectedOn?.message}><Input type="date" {...register('expectedOn')} /></FormField>
          <FormField label="Notes" error={errors.notes?.message}><Input {...register('notes')} /></FormField>
        </SimpleGrid>
        <VariantPicker businessId={businessId} label="Add an item to the order" onPick={(hit) => {
          if (lines.fields.some((f) => f.variantId === hit.variant_id)) return;
          lines.append({ variantId: hit.variant_id, label: `${hitLabel(hit)} (${hit.sku})`, unit: hit.unit, qty: '1', unitCost: '' });
        }} />
        <QuantityGrid businessId={businessId} action="Add to the order" onAdd={(picks) => {
          for (const p of picks) {
            if (!lines.fields.some((f) => f.variantId === p.variantId)) {
              lines.append({ variantId: p.variantId, label: p.label, unit: p.unit, qty: String(p.qty), unitCost: '' });
            }
          }
        }} />
        {lines.fields.length > 0 && (
          <Table.ScrollArea>
            <Table.Root size="sm" aria-label="Order lines">
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
        )}
        {errors.lines?.root?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.lines.root.message}</Text>}
        {errors.lines?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.lines.message}</Text>}
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Save draft</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
