import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Field, Heading, HStack, Input, NativeSelect, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { LuDownload, LuPrinter } from 'react-icons/lu';
import { LoadingText } from '../../components/loading-text';
import { downloadText } from '../../lib/download-file';
import { commonCurrency } from '../../lib/money';
import { useSupabase } from '../../lib/platform-context';
import { useBusinessPacks } from '../../lib/use-business-packs';
import { fetchReportScope, fetchSalesAndProfit, reportRequestSchema, type Grain, type ProfitRow, type ReportScope, type SalesRow } from './reports-api';
import { minorToDecimal, toCsv } from './reports-csv';
import { ReportCurrency } from './report-table';
import { reportsFor, type ReportName } from './report-list';
import { BreakdownTab, CollectionsTab, InventoryTab, SellersTab, ShiftsTab, TaxesTab } from './report-tabs';
import { FlaggedSalesTab } from './flagged-sales';
import { InsightsTab } from './insights';

// recharts only on this screen (ADR 0144), fetched and evaluated while the figures are asked for, not after
// they arrive (docs/adr/0418).
const loadSalesChart = () => import('./sales-chart');
const SalesChart = lazy(loadSalesChart);

type Tab = ReportName;

/** The print layout: filters, tabs, buttons and the dashboard frame hidden; the chosen report and its filters shown. */
const printCss = `@media print {
  .no-print, [data-part="list"], nav, header, aside { display: none !important; }
  .print-only { display: block !important; }
  .report-section { break-inside: avoid-page; }
  table { font-size: 9pt; }
}
.print-only { display: none; }`;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (n: number) => isoDay(new Date(Date.now() - n * 86_400_000));

type Loaded = { key: string; sales: SalesRow[]; profit: ProfitRow[]; error: string | null };

/**
 * The Reports area (/dashboard/reports): sales and profit per day, week or month and store for a date range,
 * with CSV export and a print layout. Owners and managers only: the database refuses everyone else (42501) and
 * row level security limits a manager to their stores.
 */
export function ReportsApp() {
  const supabase = useSupabase();
  const [scope, setScope] = useState<ReportScope | null>(null);
  const [scopeError, setScopeError] = useState<string | null>(null);
  const [businessId, setBusinessId] = useState('');
  const [storeId, setStoreId] = useState('');
  const [from, setFrom] = useState(daysAgo(29));
  const [to, setTo] = useState(daysAgo(0));
  const [grain, setGrain] = useState<Grain>('day');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [chosenTab, setTab] = useState<Tab>('sales');
  const packs = useBusinessPacks(businessId || undefined);
  const tabs = reportsFor(packs);
  // A business without the pack (or another business chosen) falls back to Sales rather than an empty tab.
  const tab: Tab = tabs.some(([value]) => value === chosenTab) ? chosenTab : 'sales';

  useEffect(() => {
    void loadSalesChart().catch(() => undefined); // a failure shows where the chart is drawn
  }, []);

  useEffect(() => {
    fetchReportScope(supabase).then(
      (s) => {
        setScope(s);
        setBusinessId((current) => current || s.businesses[0]?.id || '');
      },
      (error: unknown) => setScopeError(error instanceof Error ? error.message : String(error)),
    );
  }, [supabase]);

  const request = { businessId, from, to, grain, storeId };
  const valid = reportRequestSchema.safeParse(request);
  const key = JSON.stringify(request);
  useEffect(() => {
    if (!valid.success || tab !== 'sales') return;
    let cancelled = false;
    fetchSalesAndProfit(supabase, valid.data).then(
      (r) => !cancelled && setLoaded({ key, ...r, error: null }),
      (error: unknown) => !cancelled && setLoaded({ key, sales: [], profit: [], error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
    // The key holds every input of the request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [supabase, key, valid.success, tab]);

  const stores = useMemo(() => scope?.stores.filter((s) => s.business_id === businessId) ?? [], [scope, businessId]);
  const storeName = (id: string) => stores.find((s) => s.id === id)?.name ?? 'Unknown store';
  const currencyOf = (id: string) => stores.find((s) => s.id === id)?.currency ?? null;
  // Totals and the chart add rows up: the chosen store's currency, or the one every store of the business uses.
  const totalsCurrency = storeId ? currencyOf(storeId) : commonCurrency(stores.map((s) => s.currency));
  const profitOf = (row: SalesRow) => loaded?.profit.find((p) => p.period === row.period && p.store_id === row.store_id);
  const rows = useMemo(() => (loaded?.key === key ? loaded.sales : []), [loaded, key]);
  const storeLabel = storeId ? storeName(storeId) : 'All stores';
  const chartPoints = useMemo(() => {
    const byPeriod = new Map<string, number>();
    for (const r of rows) byPeriod.set(r.period, (byPeriod.get(r.period) ?? 0) + r.gross - r.refunds);
    return [...byPeriod].map(([label, value]) => ({ label, value }));
  }, [rows]);
  const totals = rows.reduce(
    (t, r) => ({ receipts: t.receipts + r.receipts, gross: t.gross + r.gross, refunds: t.refunds + r.refunds }),
    { receipts: 0, gross: 0, refunds: 0 },
  );
  const profitRows = loaded?.key === key ? loaded.profit : [];
  // One definition on every screen (ADR 0172): net sales = gross less refunds; revenue ex tax = net sales less tax;
  // gross profit = revenue ex tax less cost (restocked returns given back).
  const profitTotal = profitRows.reduce((a, p) => a + p.profit, 0);
  const revenueTotal = profitRows.reduce((a, p) => a + p.revenue, 0);

  function exportCsv() {
    const csv = toCsv(
      ['Period', 'Store', 'Receipts', 'Units', 'Gross', 'Discounts', 'Tax on sales', 'Sales ex tax before refunds', 'Refunds',
        'Net sales', 'Revenue ex tax', 'Cost', 'Gross profit', 'Margin'],
      rows.map((r) => {
        const p = profitOf(r);
        const c = currencyOf(r.store_id);
        return [r.period, storeName(r.store_id), r.receipts, r.units, minorToDecimal(r.gross, c), minorToDecimal(r.discounts, c),
          minorToDecimal(r.tax, c), minorToDecimal(r.net, c), minorToDecimal(r.refunds, c), minorToDecimal(r.gross - r.refunds, c),
          p ? minorToDecimal(p.revenue, c) : '',
          p ? minorToDecimal(p.cost, c) : '',
          p ? minorToDecimal(p.profit, c) : '', p?.margin ?? ''];
      }),
    );
    downloadText(`sales-${from}-to-${to}.csv`, csv);
  }

  if (scopeError) return <Alert.Root status="error"><Alert.Title>{scopeError}</Alert.Title></Alert.Root>;
  const title = tab === 'sales' ? 'Sales report' : `Reports: ${tabs.find((t) => t[0] === tab)?.[1]}`;
  // The page's frame at once, the figures as they come (issue 25: the first load showed only a spinner).
  if (!scope) {
    return (
      <Stack gap="5">
        <Heading as="h1" size="2xl">{title}</Heading>
        <LoadingText label="Loading reports..." />
      </Stack>
    );
  }
  if (scope.businesses.length === 0) {
    return <Text color="fg.muted" data-testid="reports-none">Reports are for owners and managers.</Text>;
  }

  return (
    <Stack gap="5">
      <HStack justify="space-between" wrap="wrap">
        <style>{printCss}</style>
        <Heading as="h1" size="2xl">{title}</Heading>
        <HStack className="no-print">
          {tab === 'sales' && (
            <Button variant="outline" size="sm" onClick={exportCsv} disabled={rows.length === 0} data-testid="reports-export">
              <LuDownload aria-hidden /> Export CSV
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={() => window.print()}>
            <LuPrinter aria-hidden /> Print
          </Button>
        </HStack>
      </HStack>
      <HStack gap="3" wrap="wrap" align="flex-end" className="no-print">
        {scope.businesses.length > 1 && (
          <Field.Root w="auto">
            <Field.Label>Business</Field.Label>
            <NativeSelect.Root size="sm"><NativeSelect.Field value={businessId} onChange={(e) => { setBusinessId(e.target.value); setStoreId(''); }}>
              {scope.businesses.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
            </NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
          </Field.Root>
        )}
        <Field.Root w="auto">
          <Field.Label>Store</Field.Label>
          <NativeSelect.Root size="sm"><NativeSelect.Field value={storeId} onChange={(e) => setStoreId(e.target.value)} data-testid="reports-store">
            <option value="">All stores</option>
            {stores.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
        </Field.Root>
        <Field.Root w="auto">
          <Field.Label>From</Field.Label>
          <Input size="sm" type="date" value={from} onChange={(e) => setFrom(e.target.value)} data-testid="reports-from" />
        </Field.Root>
        <Field.Root w="auto">
          <Field.Label>To</Field.Label>
          <Input size="sm" type="date" value={to} onChange={(e) => setTo(e.target.value)} data-testid="reports-to" />
        </Field.Root>
        <Field.Root w="auto">
          <Field.Label>Group by</Field.Label>
          <NativeSelect.Root size="sm"><NativeSelect.Field value={grain} onChange={(e) => setGrain(e.target.value as Grain)}>
            <option value="day">Day</option><option value="week">Week</option><option value="month">Month</option>
          </NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
        </Field.Root>
      </HStack>
      <Text className="print-only" fontSize="sm">{scope.businesses.find((b) => b.id === businessId)?.name} · {storeLabel} · {from} to {to}</Text>
      {!valid.success && <Text color="fg.error">{valid.error.issues[0]?.message ?? 'Check the filters.'}</Text>}
      <ReportCurrency.Provider value={totalsCurrency}><Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as Tab)} variant="line" lazyMount unmountOnExit>
        <Tabs.List className="no-print" overflowX="auto">
          {tabs.map(([value, label]) => <Tabs.Trigger key={value} value={value} data-testid={`reports-tab-${value}`}>{label}</Tabs.Trigger>)}
        </Tabs.List>
        {valid.success && tabs.slice(1).map(([value]) => (
          <Tabs.Content key={value} value={value}>
            {value === 'breakdown' && <BreakdownTab request={valid.data} storeName={storeName} />}
            {value === 'sellers' && <SellersTab request={valid.data} storeName={storeName} />}
            {value === 'collections' && <CollectionsTab request={valid.data} storeName={storeName} />}
            {value === 'inventory' && <InventoryTab request={valid.data} storeName={storeName} />}
            {value === 'shifts' && <ShiftsTab request={valid.data} storeName={storeName} />}
            {value === 'taxes' && <TaxesTab request={valid.data} storeName={storeName} />}
            {value === 'insights' && <InsightsTab request={valid.data} storeName={storeName} />}
            {value === 'flagged' && <FlaggedSalesTab request={valid.data} storeName={storeName} />}
          </Tabs.Content>
        ))}
        <Tabs.Content value="sales">
      <Stack gap="4">
      {valid.success && loaded?.key !== key && <LoadingText label="Loading figures..." />}
      {loaded?.key === key && !loaded.error && rows.length > 0 && (
        <Suspense fallback={<LoadingText label="Loading chart..." />}>
          <SalesChart data={chartPoints} name="Sales net of refunds" testId="reports-sales-chart" currency={totalsCurrency} />
        </Suspense>
      )}
      {loaded?.key === key && loaded.error && <Alert.Root status="error"><Alert.Title>{loaded.error}</Alert.Title></Alert.Root>}
      {loaded?.key === key && !loaded.error && (
        <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Sales table">
          <Table.Root size="sm" data-testid="reports-table">
            <Table.Header>
              <Table.Row>
                {['Period', 'Store', 'Receipts', 'Gross', 'Refunds', 'Net sales', 'Revenue ex tax', 'Gross profit', 'Margin'].map((h, i) => (
                  <Table.ColumnHeader key={h} textAlign={i > 1 ? 'end' : 'start'}>{h}</Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((r) => {
                const p = profitOf(r);
                return (
                  <Table.Row key={`${r.period}|${r.store_id}`} data-testid="reports-row">
                    <Table.Cell>{r.period}</Table.Cell>
                    <Table.Cell>{storeName(r.store_id)}</Table.Cell>
                    <Table.Cell textAlign="end">{r.receipts}</Table.Cell>
                    <Table.Cell textAlign="end">{minorToDecimal(r.gross, currencyOf(r.store_id))}</Table.Cell>
                    <Table.Cell textAlign="end">{minorToDecimal(r.refunds, currencyOf(r.store_id))}</Table.Cell>
                    <Table.Cell textAlign="end">{minorToDecimal(r.gross - r.refunds, currencyOf(r.store_id))}</Table.Cell>
                    <Table.Cell textAlign="end">{p ? minorToDecimal(p.revenue, currencyOf(r.store_id)) : '—'}</Table.Cell>
                    <Table.Cell textAlign="end">{p ? minorToDecimal(p.profit, currencyOf(r.store_id)) : '—'}</Table.Cell>
                    <Table.Cell textAlign="end">{p?.margin == null ? '—' : `${(p.margin * 100).toFixed(1)} %`}</Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
            <Table.Footer>
              <Table.Row fontWeight="semibold" data-testid="reports-totals">
                <Table.Cell colSpan={2}>Total</Table.Cell>
                <Table.Cell textAlign="end">{totals.receipts}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="reports-total-gross">{minorToDecimal(totals.gross, totalsCurrency)}</Table.Cell>
                <Table.Cell textAlign="end">{minorToDecimal(totals.refunds, totalsCurrency)}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="reports-total-net-sales">{minorToDecimal(totals.gross - totals.refunds, totalsCurrency)}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="reports-total-revenue">{minorToDecimal(revenueTotal, totalsCurrency)}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="reports-total-profit">{minorToDecimal(profitTotal, totalsCurrency)}</Table.Cell>
                <Table.Cell textAlign="end">{revenueTotal ? `${((profitTotal / revenueTotal) * 100).toFixed(1)} %` : '—'}</Table.Cell>
              </Table.Row>
            </Table.Footer>
          </Table.Root>
        </Table.ScrollArea>
      )}
      <Text color="fg.muted" fontSize="sm">
        Amounts in the store currency. Gross is what customers paid after discounts, tax included; refunds count on the
        day they happened. Net sales is gross less refunds; revenue ex tax is net sales less tax; gross profit is revenue
        ex tax less the cost recorded on each sale line, with restocked returns given back. The same figures as the
        Overview, Breakdown and Products.
      </Text>
      </Stack>
        </Tabs.Content>
      </Tabs.Root></ReportCurrency.Provider>
    </Stack>
  );
}
