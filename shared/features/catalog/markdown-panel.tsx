import { useState } from 'react';
import { Button, Checkbox, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { formatMinor } from '../../lib/money';
import { useSupabase } from '../../lib/platform-context';
import { markdownCollection, markdownSchema, type MarkdownRow, type MarkdownValues } from './collections-api';
import { toMinorUnits } from './variant-grid';

/** The markdown's value as the database takes it: percent as typed, a fixed price in minor units; null if unreadable. */
export function markdownValue(v: MarkdownValues, currency: string | null): number | null {
  if (v.kind === 'percent') {
    if (!/^\d{1,2}(\.\d{1,2})?$/.test(v.value)) return null;
    const n = Number(v.value);
    return n > 0 && n < 100 ? n : null;
  }
  return toMinorUnits(v.value, currency);
}

/**
 * The end-of-season markdown of one collection (issue 29): a percentage off or a fixed price, previewed line by
 * line, then applied at once by markdown_collection (all or nothing, audited). Selling below cost needs the box.
 */
export function MarkdownPanel({ collectionId, name, currency, onDone }: {
  collectionId: string; name: string; currency: string | null; onDone: () => void;
}) {
  const supabase = useSupabase();
  const [preview, setPreview] = useState<{ key: string; rows: MarkdownRow[] } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, control, formState } = useForm<MarkdownValues>({
    resolver: zodResolver(markdownSchema), defaultValues: { kind: 'percent', value: '', belowCostOk: false },
  });
  const values = useWatch({ control });
  const key = JSON.stringify(values);
  const money = (minor: number) => (currency ? formatMinor(minor, currency) : (minor / 100).toFixed(2));

  const run = (apply: boolean) => handleSubmit(async (v) => {
    const value = markdownValue(v, currency);
    if (value === null) {
      setRefusal(v.kind === 'percent' ? 'Enter a percentage above 0 and below 100' : 'Enter a price such as 9.99');
      return;
    }
    try {
      const rows = await markdownCollection(supabase, collectionId, v.kind, value, apply, v.belowCostOk);
      setRefusal(null);
      if (apply) {
        notify.success('Markdown applied', `${rows.filter((r) => r.new_price !== r.old_price).length} price(s) of ${name} changed`);
        onDone();
      } else {
        setPreview({ key: JSON.stringify(v), rows });
      }
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : String(error));
    }
  })();

  const shown = preview?.key === key ? preview.rows : null;
  const changing = shown?.filter((r) => r.new_price !== r.old_price) ?? [];
  return (
    <Stack as="form" gap="3" borderWidth="1px" rounded="md" p="3" aria-label={`Markdown of ${name}`} onSubmit={(e) => e.preventDefault()}>
      <HStack gap="3" wrap="wrap" align="flex-end">
        <FormField label="Markdown">
          <NativeSelect.Root size="sm" w="48">
            <NativeSelect.Field {...register('kind')}>
              <option value="percent">Percentage off</option>
              <option value="price">Fixed price</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label={values.kind === 'percent' ? 'Percent off' : 'New price'} error={formState.errors.value?.message}>
          <Input size="sm" w="32" inputMode="decimal" {...register('value')} />
        </FormField>
        <Controller control={control} name="belowCostOk" render={({ field }) => (
          <Checkbox.Root checked={field.value} onCheckedChange={(e) => field.onChange(Boolean(e.checked))}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Allow selling below cost</Checkbox.Label>
          </Checkbox.Root>
        )} />
        <Button size="sm" variant="outline" onClick={() => void run(false)}>Preview</Button>
        <Button size="sm" disabled={!shown || changing.length === 0} onClick={() => void run(true)}>
          Apply to {changing.length} price{changing.length === 1 ? '' : 's'}
        </Button>
      </HStack>
      {refusal && <Text color="fg.error" fontSize="sm" role="alert">{refusal}</Text>}
      {shown && (
        <Table.ScrollArea maxH="60vh">
          <Table.Root size="sm" aria-label="Markdown preview" stickyHeader>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Item</Table.ColumnHeader>
                <Table.ColumnHeader>Price</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Now</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">After</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {shown.map((r) => (
                <Table.Row key={`${r.variant_id}|${r.store_id ?? ''}`}>
                  <Table.Cell>{[r.product_name, r.option1, r.option2].filter(Boolean).join(' / ')} <Text as="span" fontFamily="mono" color="fg.muted">{r.sku}</Text></Table.Cell>
                  <Table.Cell>{r.store_id ? 'store price' : 'price'}</Table.Cell>
                  <Table.Cell textAlign="end">{money(r.old_price)}</Table.Cell>
                  <Table.Cell textAlign="end" fontWeight={r.new_price !== r.old_price ? 'semibold' : undefined}>{money(r.new_price)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
