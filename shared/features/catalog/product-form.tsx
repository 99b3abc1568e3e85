import { Button, Checkbox, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import type { NewProduct } from './catalog-api';
import { productSchema, type ProductValues } from './product-schema';
import { emptyGrid, gridVariants, SizeColourGrid, type GridState } from './size-colour-grid';
import { generateGrid, toMinorUnits } from './variant-grid';

const defaults: ProductValues = {
  name: '', brand: '', unit: 'each', price: '0', hasLots: false, requiresExpiry: false,
  options: [{ name: '', values: '' }, { name: '', values: '' }, { name: '', values: '' }],
};

/**
 * The new-product form: up to 3 options whose values multiply into a variant grid with suggested SKUs; with the
 * clothing pack on (sizeGrid), sizes by colours in a grid instead (size-colour-grid.tsx), which can be switched off.
 */
export function ProductForm({ onSubmit, onCancel, sizeGrid = false }: {
  onSubmit: (product: NewProduct) => Promise<void>; onCancel: () => void; sizeGrid?: boolean;
}) {
  const { register, handleSubmit, control, formState } = useForm<ProductValues>({
    resolver: zodResolver(productSchema), defaultValues: defaults,
  });
  const [skus, setSkus] = useState<Record<string, string>>({});
  const name = useWatch({ control, name: 'name' });
  const options = useWatch({ control, name: 'options' });
  const grid = useMemo(() => generateGrid(name, options), [name, options]);
  // Null until the person chooses: the grid follows the pack, which may load after the form opens.
  const [gridChoice, setGridChoice] = useState<boolean | null>(null);
  const byGrid = gridChoice ?? sizeGrid;
  const [cells, setCells] = useState<GridState>(emptyGrid);
  const [gridProblem, setGridProblem] = useState<string | null>(null);
  const gridMade = useMemo(() => gridVariants(cells, name), [cells, name]);

  const submit = handleSubmit(async (values) => {
    const price = toMinorUnits(values.price) ?? 0;
    if (sizeGrid && byGrid) {
      const made = gridVariants(cells, values.name);
      setGridProblem(made.problem);
      if (made.problem) return;
      await onSubmit({
        name: values.name, brand: values.brand, unit: values.unit, hasLots: values.hasLots,
        requiresExpiry: values.requiresExpiry, optionNames: ['Size', 'Colour'],
        variants: made.variants.map((v) => ({ options: v.options, sku: v.sku, price, barcode: v.barcode })),
      });
      return;
    }
    await onSubmit({
      name: values.name, brand: values.brand, unit: values.unit, hasLots: values.hasLots,
      requiresExpiry: values.requiresExpiry,
      optionNames: values.options.filter((o) => o.name.trim() !== '' && o.values.trim() !== '').map((o) => o.name.trim()),
      variants: grid.map((v) => ({ options: v.options, sku: skus[v.options.join('|')] ?? v.sku, price })),
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="New product">
      <Stack gap="4">
        <HStack gap="3" align="flex-start" wrap="wrap">
          <FormField label="Name" required error={formState.errors.name?.message}>
            <Input {...register('name')} />
          </FormField>
          <FormField label="Brand" error={formState.errors.brand?.message}>
            <Input {...register('brand')} />
          </FormField>
          <FormField label="Sold by">
            <NativeSelect.Root>
              <NativeSelect.Field {...register('unit')}>
                <option value="each">the piece</option>
                <option value="kg">weight (kg)</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label="Price" required error={formState.errors.price?.message}>
            <Input inputMode="decimal" {...register('price')} />
          </FormField>
        </HStack>
        <HStack gap="6">
          <Controller control={control} name="hasLots" render={({ field }) => (
            <Checkbox.Root checked={field.value} onCheckedChange={(e) => field.onChange(Boolean(e.checked))}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>Tracked by lot</Checkbox.Label>
            </Checkbox.Root>
          )} />
          <Controller control={control} name="requiresExpiry" render={({ field }) => (
            <Checkbox.Root checked={field.value} onCheckedChange={(e) => field.onChange(Boolean(e.checked))}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>Every lot has an expiry date</Checkbox.Label>
            </Checkbox.Root>
          )} />
        </HStack>
        {sizeGrid && (
          <Checkbox.Root checked={byGrid} onCheckedChange={(e) => setGridChoice(Boolean(e.checked))}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Sizes by colours (grid)</Checkbox.Label>
          </Checkbox.Root>
        )}
        {sizeGrid && byGrid ? (
          <Stack gap="2">
            <SizeColourGrid state={cells} productName={name} onChange={(next) => {
              setCells(next);
              setGridProblem(null);
            }} />
            {gridProblem && <Text color="fg.error" fontSize="sm" role="alert">{gridProblem}</Text>}
            <Text fontSize="sm" color="fg.muted" data-testid="grid-count">
              {gridMade.variants.length} variant{gridMade.variants.length === 1 ? '' : 's'}
            </Text>
          </Stack>
        ) : (<>
        <Stack gap="2">
          <Text fontWeight="medium">Options (for example Size: S, M, L and Colour: White, Blue)</Text>
          {[0, 1, 2].map((i) => (
            <HStack key={i} gap="2">
              <Input size="sm" maxW="40" placeholder={`Option ${i + 1}`} aria-label={`Option ${i + 1} name`}
                {...register(`options.${i}.name` as const)} />
              <Input size="sm" placeholder="Values, separated by commas" aria-label={`Option ${i + 1} values`}
                {...register(`options.${i}.values` as const)} />
            </HStack>
          ))}
        </Stack>
        <Table.Root size="sm" aria-label="Variants">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Variant</Table.ColumnHeader>
              <Table.ColumnHeader>SKU</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {grid.map((v) => {
              const key = v.options.join('|');
              return (
                <Table.Row key={key}>
                  <Table.Cell>{v.options.join(' / ') || 'Default'}</Table.Cell>
                  <Table.Cell>
                    <Input size="xs" aria-label={`SKU of ${v.options.join(' / ') || 'the product'}`}
                      value={skus[key] ?? v.sku} onChange={(e) => setSkus({ ...skus, [key]: e.target.value.toUpperCase() })} />
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <Text fontSize="sm" color="fg.muted">{grid.length} variant{grid.length === 1 ? '' : 's'}</Text>
        </>)}
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Create product</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
