import { useEffect, useState } from 'react';
import { Button, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { format } from 'date-fns';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { normaliseRate } from '../../lib/exchange-rate';
import { WorkspaceCard } from './workspace-card';
import { exchangeRateSchema, type ExchangeRateValues } from './exchange-rate-schema';

interface RateRow { id: string; currency: string; base_currency: string; rate: string; effective_from: string; created_at: string }
type Status = 'In effect' | 'Scheduled' | 'Replaced';

/** Each row's status when the list was read: per pair, the newest row in effect is in effect (rows come newest first). */
export function rateStatuses(rows: readonly RateRow[], now: number): Status[] {
  const seen = new Set<string>();
  return rows.map((r) => {
    if (Date.parse(r.effective_from) > now) return 'Scheduled';
    const pair = `${r.currency}>${r.base_currency}`;
    if (seen.has(pair)) return 'Replaced';
    seen.add(pair);
    return 'In effect';
  });
}

/** How many versions the card lists (newest first); older ones stay in the database and the activity trail. */
const LISTED = 50;

/**
 * Foreign cash rates (issue 29, ADR 0395) for owners and managers: every version, newest first, the one in effect
 * marked; a new rate is a new row through set_exchange_rate (the old ones stay: sales name the rate they used).
 */
export function ExchangeRatesCard({ businessId, storeCurrencies }: { businessId: string; storeCurrencies: string[] }) {
  const supabase = useSupabase();
  const [rows, setRows] = useState<(RateRow & { status: Status })[] | null>(null);
  const [version, setVersion] = useState(0);
  const { register, handleSubmit, reset, formState: { errors, isSubmitting } } = useForm<ExchangeRateValues>({
    resolver: zodResolver(exchangeRateSchema),
    values: { currency: '', base_currency: storeCurrencies[0] ?? '', rate: '', effective_from: '' },
  });

  useEffect(() => {
    let live = true;
    void supabase.from('exchange_rates').select('id, currency, base_currency, rate, effective_from, created_at')
      .eq('business_id', businessId).order('effective_from', { ascending: false }).order('created_at', { ascending: false })
      .limit(LISTED)
      .then(({ data, error }) => {
        if (!live) return;
        if (error) notify.error('Rates not loaded', error.message);
        const read = (data ?? []).map((r) => ({ ...r, rate: normaliseRate(String(r.rate)) }));
        const statuses = rateStatuses(read, Date.now());
        setRows(read.map((r, i) => ({ ...r, status: statuses[i] ?? 'Replaced' })));
      });
    return () => { live = false; };
  }, [supabase, businessId, version]);

  const onSubmit = handleSubmit(async (values) => {
    const { error } = await supabase.rpc('set_exchange_rate', { _business_id: businessId, _currency: values.currency,
      _base_currency: values.base_currency, _rate: values.rate as unknown as number,
      ...(values.effective_from ? { _effective_from: new Date(values.effective_from).toISOString() } : {}) });
    if (error) {
      notify.error('Rate not saved', error.message);
      return;
    }
    notify.success('Rate saved', `1 ${values.currency} = ${values.rate} ${values.base_currency}`);
    reset({ ...values, rate: '', effective_from: '' });
    setVersion((v) => v + 1);
  });

  return (
    <WorkspaceCard title="Foreign cash" description="Cash in other currencies is taken at the register at these rates; change is given in the store's currency.">
      <Stack gap="4">
        <form onSubmit={onSubmit} noValidate aria-label="New exchange rate">
          <HStack align="end" wrap="wrap" gap="3">
            <FormField label="Currency" required error={errors.currency?.message}>
              <Input maxW="28" placeholder="EUR" {...register('currency')} />
            </FormField>
            <FormField label="Store currency" required error={errors.base_currency?.message}>
              <NativeSelect.Root maxW="32">
                <NativeSelect.Field {...register('base_currency')}>
                  {storeCurrencies.map((c) => <option key={c} value={c}>{c}</option>)}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <FormField label="Rate (store currency for 1 unit)" required error={errors.rate?.message}>
              <Input maxW="40" inputMode="decimal" placeholder="1.0825" {...register('rate')} />
            </FormField>
            <FormField label="From (empty: now)" error={errors.effective_from?.message}>
              <Input type="datetime-local" maxW="56" {...register('effective_from')} />
            </FormField>
            <Button type="submit" loading={isSubmitting}>Set rate</Button>
          </HStack>
        </form>
        {rows && rows.length === 0 && <Text color="fg.muted">No rates yet: the register takes only the store's currency.</Text>}
        {rows && rows.length > 0 && (
          <Table.Root size="sm" aria-label="Exchange rates">
            <Table.Header><Table.Row>
              <Table.ColumnHeader>Currency</Table.ColumnHeader><Table.ColumnHeader>Rate</Table.ColumnHeader>
              <Table.ColumnHeader>From</Table.ColumnHeader><Table.ColumnHeader>Status</Table.ColumnHeader>
            </Table.Row></Table.Header>
            <Table.Body>
              {rows.map((r) => (
                <Table.Row key={r.id} data-testid="exchange-rate-row">
                  <Table.Cell>{r.currency} → {r.base_currency}</Table.Cell>
                  <Table.Cell>1 {r.currency} = {r.rate} {r.base_currency}</Table.Cell>
                  <Table.Cell>{format(new Date(r.effective_from), 'yyyy-MM-dd HH:mm')}</Table.Cell>
                  <Table.Cell>{r.status}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Stack>
    </WorkspaceCard>
  );
}
