import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { z } from 'zod';
import { useSupabase } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import { dailySeries, formatWape, HISTORY_DAYS, planVariant, type VariantPlan } from './insights-logic';
import { ReportTable, type Column } from './report-table';
import { ReportState, useReport, type TabProps } from './report-tabs';
import { fetchSlowMovers, type ReportRequest, type SlowMoverRow } from './reports-api';

const n = z.coerce.number();
const historyRow = z.object({ variant_id: z.guid(), sku: z.string(), product_name: z.string(), day: z.string(), units: n });
const inputRow = z.object({
  variant_id: z.guid(), on_hand: n, on_order: n, supplier_id: z.guid().nullable(), supplier_name: z.string().nullable(),
  lead_time_days: n, lead_time_measured: z.boolean(), unit_cost: n,
});

interface Suggestion {
  variantId: string;
  sku: string;
  name: string;
  plan: VariantPlan;
  input: z.infer<typeof inputRow>;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function check<T>(result: { data: T | null; error: { message: string } | null }): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}

/** Daily sales of the store's best sellers, their forecasts, and what to reorder from whom. */
async function loadSuggestions(supabase: StorewiseClient, businessId: string, storeId: string): Promise<Suggestion[]> {
  const yesterday = new Date(Date.now() - 86_400_000);
  const from = isoDay(new Date(yesterday.getTime() - (HISTORY_DAYS - 1) * 86_400_000));
  const history = historyRow.array().parse(check(await supabase.rpc('demand_history', {
    _business_id: businessId, _store_id: storeId, _from: from, _to: isoDay(yesterday), _limit: 60,
  })) ?? []);
  const series = dailySeries(history, from, HISTORY_DAYS);
  const ids = [...series.keys()];
  if (ids.length === 0) return [];
  const inputs = inputRow.array().parse(check(await supabase.rpc('reorder_inputs', {
    _business_id: businessId, _store_id: storeId, _variant_ids: ids,
  })) ?? []);
  const names = new Map(history.map((h) => [h.variant_id, h]));
  // A store's history starts with its first sale: leading days before it are not zero demand.
  const firstDay = history.reduce((a, h) => (h.day < a ? h.day : a), isoDay(yesterday));
  const skip = Math.max(0, Math.round((Date.parse(firstDay) - Date.parse(from)) / 86_400_000));
  return inputs.map((input) => ({
    variantId: input.variant_id,
    sku: names.get(input.variant_id)?.sku ?? '',
    name: names.get(input.variant_id)?.product_name ?? '',
    input,
    plan: planVariant(series.get(input.variant_id)!.slice(skip), {
      leadTimeDays: input.lead_time_days, onHand: input.on_hand, onOrder: input.on_order,
    }),
  })).sort((a, b) => b.plan.suggestion.quantity - a.plan.suggestion.quantity || a.name.localeCompare(b.name));
}

const sum7 = (xs: number[]) => xs.slice(0, 7).reduce((a, b) => a + b, 0);

function SuggestionsTable({ request, rows }: { request: ReportRequest; rows: Suggestion[] }) {
  const supabase = useSupabase();
  const [created, setCreated] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState('');
  const toOrder = rows.filter((r) => r.plan.suggestion.quantity > 0 && r.input.supplier_id);
  const suppliers = [...new Map(toOrder.map((r) => [r.input.supplier_id!, r.input.supplier_name ?? 'Supplier'])).entries()];

  async function createDraft(supplierId: string) {
    setBusy(supplierId);
    setError(null);
    const lines = toOrder.filter((r) => r.input.supplier_id === supplierId).map((r) => ({ variant_id: r.variantId, qty: r.plan.suggestion.quantity }));
    const { data, error: e } = await supabase.rpc('create_reorder_purchase_order', { _store_id: request.storeId, _supplier_id: supplierId, _lines: lines });
    setBusy('');
    if (e) setError(e.message);
    else setCreated((c) => ({ ...c, [supplierId]: String(data) }));
  }

  const columns: Column<Suggestion>[] = [
    { header: 'Product', kind: 'text', value: (r) => r.name },
    { header: 'SKU', kind: 'text', value: (r) => r.sku },
    { header: 'Forecast next 7 days', kind: 'text', value: (r) => (r.plan.forecast.show ? sum7(r.plan.forecast.forecast).toFixed(1) : 'not shown') },
    { header: 'Forecast error (WAPE)', kind: 'text', value: (r) => formatWape(r.plan.forecast.wape) },
    { header: 'Last week error', kind: 'text', value: (r) => formatWape(r.plan.forecast.baselineWape) },
    { header: 'Planned on', kind: 'text', value: (r) => ({ forecast: 'forecast', 'last-week': 'last week', average: 'average' })[r.plan.basis] },
    { header: 'On hand', kind: 'number', value: (r) => r.input.on_hand },
    { header: 'On order', kind: 'number', value: (r) => r.input.on_order },
    { header: 'Lead time (days)', kind: 'text', value: (r) => `${r.input.lead_time_days}${r.input.lead_time_measured ? '' : ' (assumed)'}` },
    { header: 'Supplier', kind: 'text', value: (r) => r.input.supplier_name ?? '—' },
    { header: 'Suggested order', kind: 'number', value: (r) => r.plan.suggestion.quantity, total: true },
  ];
  const shown = rows.filter((r) => r.plan.forecast.show).length;
  return (
    <Stack gap="3">
      <ReportTable id="reorder" title="Demand forecast and reorder suggestions" rows={rows} columns={columns}
        fileName={`reorder-suggestions-${request.to}.csv`} empty="No sales in this store over the last 12 weeks."
        note={`A forecast is shown only when its error on the last two weeks held out is lower than repeating the same weekday of last week (${shown} of ${rows.length} here); otherwise the suggestion plans on last week. Order = demand over the lead time + safety stock (95 %) - on hand - on order.`} />
      {error && <Alert.Root status="error"><Alert.Title>{error}</Alert.Title></Alert.Root>}
      <HStack wrap="wrap" gap="2" className="no-print">
        {suppliers.map(([id, name]) => created[id] ? (
          <Badge key={id} colorPalette="green" data-testid="reorder-created">Draft purchase order created for {name}</Badge>
        ) : (
          <Button key={id} size="sm" onClick={() => void createDraft(id)} loading={busy === id} data-testid="reorder-create">
            Create a draft order for {name} ({toOrder.filter((r) => r.input.supplier_id === id).length} lines)
          </Button>
        ))}
        {Object.keys(created).length > 0 && <RouterLink to="/dashboard/inventory">Open purchase orders</RouterLink>}
      </HStack>
    </Stack>
  );
}

export function InsightsTab({ request, storeName }: TabProps) {
  const [days, setDays] = useState(30);
  const suggestions = useReport(`${request.businessId}|${request.storeId}`,
    (s) => loadSuggestions(s, request.businessId, request.storeId), Boolean(request.storeId));
  const slow = useReport(`${request.businessId}|${request.storeId}|${days}`, (s) => fetchSlowMovers(s, request, days), days >= 1 && days <= 365);
  const slowColumns = useMemo<Column<SlowMoverRow>[]>(() => [
    { header: 'Product', kind: 'text', value: (r) => r.product_name },
    { header: 'SKU', kind: 'text', value: (r) => r.sku },
    { header: 'Store', kind: 'text', value: (r) => storeName(r.store_id) },
    { header: 'On hand', kind: 'number', value: (r) => r.on_hand, total: true },
    { header: `Sold in ${days} days`, kind: 'number', value: (r) => r.units_sold, total: true },
    { header: 'Sell-through', kind: 'percent', value: (r) => r.sell_through },
    { header: 'Last sold', kind: 'text', value: (r) => r.last_sold_on ?? 'never' },
    { header: 'Stock at cost', kind: 'money', value: (r) => r.cost_value, total: true },
  ], [days, storeName]);
  return (
    <Stack gap="6">
      {request.storeId ? (
        <ReportState loaded={suggestions}>{(rows) => <SuggestionsTable request={request} rows={rows} />}</ReportState>
      ) : (
        <Text color="fg.muted" data-testid="insights-choose-store">Choose a store above to see its demand forecast and reorder suggestions.</Text>
      )}
      <Stack gap="2">
        <Field.Root w="auto" className="no-print">
          <Field.Label>Slow movers: no or little sale in the last</Field.Label>
          <HStack><Input size="sm" type="number" min={1} max={365} w="6rem" value={days} data-testid="slow-days"
            onChange={(e) => setDays(Math.trunc(Number(e.target.value)))} /><Text>days</Text></HStack>
        </Field.Root>
        <ReportState loaded={slow}>
          {(rows) => <ReportTable id="slow" title="Slow movers" rows={rows} columns={slowColumns} fileName={`slow-movers-${days}-days.csv`}
            note="On hand today with a sell-through of 10 % or less over the period; never sold first, then the longest without a sale." />}
        </ReportState>
      </Stack>
    </Stack>
  );
}
