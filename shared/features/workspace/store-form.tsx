import { Button, Checkbox, HStack, Input, NativeSelect, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { FormField } from '../../components/form-field';
import { currencyDigits, parseMinor } from '../../lib/money';
import type { Store, StoreValues } from './workspace-api';
import { storeSchema, TIME_ZONES, type StoreFormValues } from './workspace-schemas';

const empty: StoreFormValues = { name: '', address: '', phone: '', time_zone: 'UTC', currency: 'USD', tax_inclusive: false,
  default_tax_rate: 0, receipt_header: '', receipt_footer: '', offline_refund_limit: '50.00',
  cash_rounding_step: '0' };

/** Minor units as the amount a person types, in the currency's decimals ("5000" USD -> "50.00"). */
const asTyped = (minor: number, currency: string) => {
  const digits = currencyDigits(currency);
  return digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits);
};

function fromStore(store: Store | undefined): StoreFormValues {
  if (!store) return empty;
  return { name: store.name, address: store.address ?? '', phone: store.phone ?? '', time_zone: store.time_zone,
    currency: store.currency, tax_inclusive: store.tax_inclusive, default_tax_rate: store.default_tax_rate,
    receipt_header: store.receipt_header ?? '', receipt_footer: store.receipt_footer ?? '',
    offline_refund_limit: asTyped(store.offline_refund_limit, store.currency),
    cash_rounding_step: asTyped(store.cash_rounding_step, store.currency) };
}

/** Empty strings go to the database as null ("not set"). */
export function toStoreValues(v: StoreFormValues): StoreValues {
  return { name: v.name, address: v.address || null, phone: v.phone || null, time_zone: v.time_zone,
    currency: v.currency, tax_inclusive: v.tax_inclusive, default_tax_rate: v.default_tax_rate,
    receipt_header: v.receipt_header || null, receipt_footer: v.receipt_footer || null,
    offline_refund_limit: parseMinor(v.offline_refund_limit, v.currency) ?? 0,
    cash_rounding_step: parseMinor(v.cash_rounding_step.trim() || '0', v.currency) ?? 0 };
}

export function StoreForm({ store, submitLabel, onSubmit, onCancel }: {
  store?: Store; submitLabel: string; onSubmit: (values: StoreValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, control, formState } = useForm<StoreFormValues>({
    resolver: zodResolver(storeSchema), defaultValues: fromStore(store),
  });
  const { errors, isSubmitting } = formState;
  return (
    <form onSubmit={handleSubmit((v) => onSubmit(toStoreValues(v)))} noValidate aria-label={submitLabel}>
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <FormField label="Store name" required error={errors.name?.message}><Input {...register('name')} /></FormField>
          <FormField label="Phone" error={errors.phone?.message}><Input type="tel" {...register('phone')} /></FormField>
          <FormField label="Address" error={errors.address?.message}><Input {...register('address')} /></FormField>
          <FormField label="Time zone" required error={errors.time_zone?.message}>
            <NativeSelect.Root>
              <NativeSelect.Field {...register('time_zone')}>
                {(TIME_ZONES.includes('UTC') ? TIME_ZONES : ['UTC', ...TIME_ZONES]).map((tz) => (
                  <option key={tz} value={tz}>{tz}</option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label="Currency (ISO 4217)" required error={errors.currency?.message}>
            <Input maxLength={3} textTransform="uppercase" {...register('currency', {
              setValueAs: (v: string) => v.toUpperCase().trim() })} />
          </FormField>
          <FormField label="Default tax rate (%)" required error={errors.default_tax_rate?.message}>
            <Input type="number" step="0.001" min="0" max="100" {...register('default_tax_rate', { valueAsNumber: true })} />
          </FormField>
          <FormField label="Offline refunds without a manager, up to" required error={errors.offline_refund_limit?.message}
            helperText="A cashier whose register is offline may refund up to this much to the original payment; each is flagged for review. Owners set it.">
            <Input inputMode="decimal" {...register('offline_refund_limit')} />
          </FormField>
          <FormField label="Round cash payments to" error={errors.cash_rounding_step?.message}
            helperText="Where the smallest coins are gone (0.05 in Switzerland): cash is rounded to this, cards pay exact. 0: exact.">
            <Input inputMode="decimal" {...register('cash_rounding_step')} />
          </FormField>
        </SimpleGrid>
        <Controller control={control} name="tax_inclusive" render={({ field }) => (
          <Checkbox.Root checked={field.value} onCheckedChange={(e) => field.onChange(e.checked === true)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Prices include tax</Checkbox.Label>
          </Checkbox.Root>
        )} />
        <FormField label="Receipt header" error={errors.receipt_header?.message}>
          <Textarea rows={2} {...register('receipt_header')} />
        </FormField>
        <FormField label="Receipt footer" error={errors.receipt_footer?.message}>
          <Textarea rows={2} {...register('receipt_footer')} />
        </FormField>
        <HStack>
          <Button type="submit" loading={isSubmitting}>{submitLabel}</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
