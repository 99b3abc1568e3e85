import { Button, Checkbox, HStack, Input, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { checkBarcode } from './barcode-check';
import {
  productEditSchema, storePriceSchemaFor, variantEditSchema, type ProductEditValues, type StorePriceValues, type VariantEditValues,
} from './product-schema';

/** A product's details: name, brand, category, unit, tax rate and the stock and lot switches. */
export function ProductDetailsForm({ initial, categories, onSubmit }: {
  initial: ProductEditValues; categories: { id: string; name: string }[]; onSubmit: (values: ProductEditValues) => Promise<void>;
}) {
  const { register, handleSubmit, control, formState } = useForm<ProductEditValues>({ resolver: zodResolver(productEditSchema), defaultValues: initial });
  const hasLots = useWatch({ control, name: 'hasLots' });
  const errors = formState.errors;
  const box = (name: 'trackStock' | 'hasLots' | 'requiresExpiry', label: string, disabled = false) => (
    <Controller control={control} name={name} render={({ field }) => (
      <Checkbox.Root checked={field.value} disabled={disabled} onCheckedChange={(e) => field.onChange(Boolean(e.checked))}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{label}</Checkbox.Label>
      </Checkbox.Root>
    )} />
  );
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Product details">
      <Stack gap="3">
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
          <FormField label="Name" required error={errors.name?.message}><Input {...register('name')} /></FormField>
          <FormField label="Brand" error={errors.brand?.message}><Input {...register('brand')} /></FormField>
          <FormField label="Category">
            <NativeSelect.Root>
              <NativeSelect.Field {...register('categoryId')}>
                <option value="">None</option>
                {categories.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
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
          <FormField label="Tax rate (%)" error={errors.taxRate?.message} helperText="Blank: the store's rate">
            <Input inputMode="decimal" {...register('taxRate')} />
          </FormField>
        </SimpleGrid>
        <HStack gap="6" wrap="wrap">
          {box('trackStock', 'Track stock')}
          {box('hasLots', 'Tracked by lot')}
          {box('requiresExpiry', 'Every lot has an expiry date', !hasLots)}
        </HStack>
        <HStack><Button type="submit" loading={formState.isSubmitting}>Save product</Button></HStack>
      </Stack>
    </form>
  );
}

/** One variant's SKU, price and cost, saved on its own. */
export function VariantEditForm({ label, initial, showCost, onSubmit }: {
  label: string; initial: VariantEditValues; showCost: boolean; onSubmit: (values: VariantEditValues) => Promise<void>;
}) {
  const { register, handleSubmit, formState } = useForm<VariantEditValues>({ resolver: zodResolver(variantEditSchema), defaultValues: initial });
  const errors = formState.errors;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label={`Variant ${label}`}>
      <HStack gap="2" align="flex-start" wrap="wrap">
        <FormField label="SKU" error={errors.sku?.message}><Input size="sm" fontFamily="mono" maxW="48" {...register('sku')} /></FormField>
        <FormField label="Price" error={errors.price?.message}><Input size="sm" inputMode="decimal" maxW="28" {...register('price')} /></FormField>
        {showCost && (
          <FormField label="Cost" error={errors.cost?.message}><Input size="sm" inputMode="decimal" maxW="28" {...register('cost')} /></FormField>
        )}
        <Button size="sm" mt="6" type="submit" variant="outline" loading={formState.isSubmitting} aria-label={`Save ${label}`}>Save</Button>
      </HStack>
    </form>
  );
}

/** A typed or scanned barcode, its check digit checked before it is sent. */
export function BarcodeAdder({ label, onAdd }: { label: string; onAdd: (code: string, kind: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async () => {
    const checked = checkBarcode(text);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setBusy(true);
    try {
      await onAdd(checked.code, checked.kind);
      setText('');
      setError(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="1">
      <HStack gap="2">
        <Input size="sm" maxW="44" inputMode="numeric" placeholder="EAN / UPC" aria-label={`New barcode for ${label}`} value={text}
          aria-invalid={Boolean(error)} onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void add();
            }
          }} />
        <Button size="sm" variant="outline" loading={busy} onClick={() => void add()} aria-label={`Add barcode to ${label}`}>Add</Button>
      </HStack>
      {error && <Text fontSize="xs" color="fg.error">{error}</Text>}
    </Stack>
  );
}

/** A store's own price for one of the product's variants. */
export function StorePriceForm({ stores, variants, onSubmit }: {
  stores: { id: string; name: string; currency?: string }[]; variants: { id: string; label: string }[]; onSubmit: (values: StorePriceValues) => Promise<void>;
}) {
  const { register, handleSubmit, formState, reset } = useForm<StorePriceValues>({
    // The price is checked against the chosen store's currency (JPY has no decimals, KWD three).
    resolver: (values, context, options) =>
      zodResolver(storePriceSchemaFor(stores.find((s) => s.id === values.storeId)?.currency ?? null))(values, context, options),
    defaultValues: { storeId: stores[0]?.id ?? '', variantId: variants.length === 1 ? variants[0]?.id ?? '' : '', price: '' },
  });
  const errors = formState.errors;
  return (
    <form aria-label="Store price" noValidate onSubmit={handleSubmit(async (v) => {
      await onSubmit(v);
      reset({ ...v, price: '' });
    })}>
      <HStack gap="2" align="flex-start" wrap="wrap">
        <FormField label="Store" error={errors.storeId?.message}>
          <NativeSelect.Root size="sm" maxW="48">
            <NativeSelect.Field {...register('storeId')}>
              {stores.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label="Variant" error={errors.variantId?.message}>
          <NativeSelect.Root size="sm" maxW="56">
            <NativeSelect.Field {...register('variantId')}>
              <option value="">Choose…</option>
              {variants.map((v) => <option key={v.id} value={v.id}>{v.label}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label="Store price" error={errors.price?.message}><Input size="sm" inputMode="decimal" maxW="28" {...register('price')} /></FormField>
        <Button size="sm" mt="6" type="submit" variant="outline" loading={formState.isSubmitting}>Set price</Button>
      </HStack>
    </form>
  );
}
