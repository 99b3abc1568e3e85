import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Field, NativeSelect, SimpleGrid, Stack } from '@chakra-ui/react';
import { LoadingText } from '../../components/loading-text';
import { formatDateTime } from '../../lib/format';
import { useSupabase } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import { ReportTable, type Column } from './report-table';
import {
  fetchBreakdown, fetchCollectionSellThrough, fetchMovements, fetchSellers, fetchShifts, fetchTaxes, fetchValuation, type BreakdownRow, type Dimension,
  type CollectionRow, type MovementRow, type ReportRequest, type SellThroughRow, type ShiftRow, type TaxRow, type ValuationRow,
} from './reports-api';

type Loaded<T> = { key: string; data: T | null; error: string | null };

/** Loads a report for the current filters; stale answers (an older key) are dropped. */
export function useReport<T>(key: string, load: (supabase: StorewiseClient) => Promise<T>, enabled = true): Loaded<T> | null {
  const supabase = useSupabase();
  const [state, setState] = useState<Loaded<T> | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    load(supabase).then(
      (data) => !cancelled && setState({ key, data, error: null }),
      (error: unknown) => !cancelled && setState({ key, data: null, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
    // The key holds every input of the request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [supabase, key, enabled]);
  return state?.key === key ? state : null;
}

export function ReportState<T>({ loaded, children }: { loaded: Loaded<T> | null; children: (data: T) => ReactNode }) {
  if (!loaded) return <LoadingText label="Loading figures..." />;
  if (loaded.error || loaded.data === null) {
    return <Alert.Root status="error"><Alert.Title>{loaded.error ?? 'No figures.'}</Alert.Title></Alert.Root>;
  }
  return <>{children(loaded.data)}</>;
}

export interface TabProps {
  request: ReportRequest;
  storeName: (id: string) => string;
}

const file = (name: string, r: ReportRequest) => `${name}-${r.from}-to-${r.to}.csv`;

const dimensionTitle: Record<Dimension, string> = { store: 'Store', staff: 'Staff member', category: 'Category', tender: 'Tender' };

export function BreakdownTab({ request }: TabProps) {
  const [dimension, setDimension] = useState<Dimension>('store');
  const loaded = useReport(`${JSON.stringify(request)}|${dimension}`, (s) => fetchBreakdown(s, request, dimension));
  const columns: Column<BreakdownRow>[] = [
    { header: dimensionTitle[dimension], kind: 'text', value: (r) => r.label },
    { header: 'Receipts', kind: 'number', value: (r) => r.receipts, total: true },
    { header: 'Gross', kind: 'money', value: (r) => r.gross, total: true },
    { header: 'Refunds', kind: 'money', value: (r) => r.refunds, total: true },
    { header: 'Net sales', kind: 'money', value: (r) => r.net_sales, total: true },
    ...(dimension === 'tender' ? [] : [
      { header: 'Units', kind: 'number', value: (r) => r.units, total: true },
      { header: 'Revenue ex tax', kind: 'money', value: (r) => r.revenue, total: true },
      { header: 'Cost', kind: 'money', value: (r) => r.cost, total: true },
      { header: 'Gross profit', kind: 'money', value: (r) => r.profit, total: true },
      { header: 'Margin', kind: 'percent', value: (r) => r.margin },
    ] satisfies Column<BreakdownRow>[]),
  ];
  return (
    <Stack gap="3">
      <Field.Root w="auto" className="no-print">
        <Field.Label>Break down by</Field.Label>
        <NativeSelect.Root size="sm" w="12rem"><NativeSelect.Field value={dimension} data-testid="reports-dimension"
          onChange={(e) => setDimension(e.target.value as Dimension)}>
          {Object.entries(dimensionTitle).map(([k, v]) => <option key={k} value={k}>{v}</option>)}
        </NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
      </Field.Root>
      <ReportState loaded={loaded}>
        {(rows) => (
          <ReportTable id="breakdown" title={`Sales by ${dimensionTitle[dimension].toLowerCase()}`} columns={columns} rows={rows}
            fileName={file(`sales-by-${dimension}`, request)}
            note="Refunds count on the day they happened, against who refunded, the refunded line's category and the tender refunded to. Revenue is net of tax and refunds; cost gives back restocked returns." />
        )}
      </ReportState>
    </Stack>
  );
}

export function SellersTab({ request, storeName }: TabProps) {
  const [worst, setWorst] = useState(false);
  const loaded = useReport(`${JSON.stringify(request)}|${worst}`, (s) => fetchSellers(s, request, worst));
  const through: Column<SellThroughRow>[] = [
    { header: 'Product', kind: 'text', value: (r) => r.product_name },
    { header: 'SKU', kind: 'text', value: (r) => r.sku },
    { header: 'Store', kind: 'text', value: (r) => storeName(r.store_id) },
    { header: 'Sold', kind: 'number', value: (r) => r.units_sold, total: true },
    { header: 'On hand at end', kind: 'number', value: (r) => r.on_hand_end, total: true },
    { header: 'Sell-through', kind: 'percent', value: (r) => r.sell_through },
    { header: 'Revenue ex tax', kind: 'money', value: (r) => r.revenue, total: true },
    { header: 'Last sold', kind: 'text', value: (r) => r.last_sold_on },
  ];
  return (
    <Stack gap="3">
      <Field.Root w="auto" className="no-print">
        <Field.Label>Show</Field.Label>
        <NativeSelect.Root size="sm" w="12rem"><NativeSelect.Field value={worst ? 'worst' : 'best'} data-testid="reports-sellers-order"
          onChange={(e) => setWorst(e.target.value === 'worst')}>
          <option value="best">Best sellers</option><option value="worst">Worst sellers</option>
        </NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
      </Field.Root>
      <ReportState loaded={loaded}>
        {(d) => (
          <SimpleGrid columns={1} gap="5">
            <ReportTable id="top" title={worst ? 'Lowest revenue' : 'Highest revenue'} rows={d.top} fileName={file(worst ? 'worst-sellers' : 'best-sellers', request)}
              columns={[
                { header: 'Product', kind: 'text', value: (r) => r.description },
                { header: 'Units', kind: 'number', value: (r) => r.units, total: true },
                { header: 'Revenue ex tax', kind: 'money', value: (r) => r.revenue, total: true },
                { header: 'Gross profit', kind: 'money', value: (r) => r.profit, total: true },
              ]}
              note={`${worst ? 'Products on sale (in stock in the store, or not stock-tracked) that did not sell at all in the range come first, then the lowest revenue. ' : ''}Units, revenue ex tax and gross profit are net of the range's refunds, as on every report.`} />
            <ReportTable id="sell-through" title="Sell-through" rows={d.sellThrough} columns={through} fileName={file('sell-through', request)}
              note="Sell-through = units sold net of refunds / (sold + on hand at the end of the range, from the stock ledger); products that do not track stock are left out." />
          </SimpleGrid>
        )}
      </ReportState>
    </Stack>
  );
}

/**
 * Sell-through per collection (clothing pack, issue 29): a report of its own beside Products, offered when the
 * business has the size grid pack on (reports-app decides).
 */
export function CollectionsTab({ request }: TabProps) {
  const loaded = useReport(JSON.stringify(request), (s) => fetchCollectionSellThrough(s, request));
  const columns: Column<CollectionRow>[] = [
    { header: 'Collection', kind: 'text', value: (r) => r.name },
    { header: 'Season', kind: 'text', value: (r) => r.season_code },
    { header: 'Products', kind: 'number', value: (r) => r.products, total: true },
    { header: 'Sold', kind: 'number', value: (r) => r.units_sold, total: true },
    { header: 'On hand at end', kind: 'number', value: (r) => r.on_hand_end, total: true },
    { header: 'Sell-through', kind: 'percent', value: (r) => r.sell_through },
    { header: 'Revenue ex tax', kind: 'money', value: (r) => r.revenue, total: true },
  ];
  return (
    <ReportState loaded={loaded}>
      {(rows) => (
        <ReportTable id="collections" title="Sell-through by collection" rows={rows} columns={columns} fileName={file('collections', request)}
          empty="No collections in this business yet: add them under Catalog, Collections."
          note="Per collection: units sold net of refunds / (sold + on hand at the end of the range), over the collection's products." />
      )}
    </ReportState>
  );
}

export function InventoryTab({ request, storeName }: TabProps) {
  const valuation = useReport(`${request.businessId}|${request.storeId}`, (s) => fetchValuation(s, request));
  const movements = useReport(JSON.stringify(request), (s) => fetchMovements(s, request));
  const vColumns: Column<ValuationRow>[] = [
    { header: 'Store', kind: 'text', value: (r) => storeName(r.store_id) },
    { header: 'Category', kind: 'text', value: (r) => r.category },
    { header: 'Products', kind: 'number', value: (r) => r.variants, total: true },
    { header: 'Units', kind: 'number', value: (r) => r.units, total: true },
    { header: 'At cost', kind: 'money', value: (r) => r.cost_value, total: true },
    { header: 'At retail', kind: 'money', value: (r) => r.retail_value, total: true },
    { header: 'Without cost', kind: 'number', value: (r) => r.variants_without_cost, total: true },
  ];
  const mColumns: Column<MovementRow>[] = [
    { header: 'Period', kind: 'text', value: (r) => r.period },
    { header: 'Store', kind: 'text', value: (r) => storeName(r.store_id) },
    { header: 'Kind', kind: 'text', value: (r) => r.kind.replace('_', ' ') },
    { header: 'Movements', kind: 'number', value: (r) => r.movements, total: true },
    { header: 'Units in', kind: 'number', value: (r) => r.units_in, total: true },
    { header: 'Units out', kind: 'number', value: (r) => r.units_out, total: true },
    { header: 'Value at cost', kind: 'money', value: (r) => r.cost_value, total: true },
  ];
  return (
    <Stack gap="6">
      <ReportState loaded={valuation}>
        {(rows) => <ReportTable id="valuation" title="Inventory valuation now" rows={rows} columns={vColumns} fileName={`inventory-valuation-${request.to}.csv`}
          note="Stock on hand today at the moving-average cost and at the store's price (the date range does not apply)." />}
      </ReportState>
      <ReportState loaded={movements}>
        {(rows) => <ReportTable id="movements" title="Stock movement history" rows={rows} columns={mColumns} fileName={file('stock-movements', request)} />}
      </ReportState>
    </Stack>
  );
}

export function ShiftsTab({ request, storeName }: TabProps) {
  const loaded = useReport(JSON.stringify(request), (s) => fetchShifts(s, request));
  const columns: Column<ShiftRow>[] = [
    { header: 'Opened', kind: 'text', value: (r) => formatDateTime(r.opened_at) },
    { header: 'Store', kind: 'text', value: (r) => storeName(r.store_id) },
    { header: 'Register', kind: 'text', value: (r) => r.register_name },
    { header: 'Cashier', kind: 'text', value: (r) => r.cashier_name },
    { header: 'Sales', kind: 'number', value: (r) => r.sales_count, total: true },
    { header: 'Gross', kind: 'money', value: (r) => r.gross, total: true },
    { header: 'Cash', kind: 'money', value: (r) => r.cash, total: true },
    { header: 'Card', kind: 'money', value: (r) => r.card, total: true },
    { header: 'Refunds', kind: 'money', value: (r) => r.refunds, total: true },
    { header: 'Expected cash', kind: 'money', value: (r) => r.expected_cash, total: true },
    { header: 'Counted', kind: 'money', value: (r) => r.counted_total, total: true },
    { header: 'Over/short', kind: 'money', value: (r) => r.over_short, total: true },
  ];
  const group = (rows: ShiftRow[], by: (r: ShiftRow) => string) => {
    const out = new Map<string, { name: string; shifts: number; over: number; short: number; net: number }>();
    for (const r of rows) {
      const g = out.get(by(r)) ?? { name: by(r), shifts: 0, over: 0, short: 0, net: 0 };
      g.shifts += 1;
      const d = r.over_short ?? 0;
      if (d > 0) g.over += d;
      if (d < 0) g.short += d;
      g.net += d;
      out.set(by(r), g);
    }
    return [...out.values()].sort((a, b) => a.net - b.net);
  };
  type G = ReturnType<typeof group>[number];
  const gColumns = (title: string): Column<G>[] => [
    { header: title, kind: 'text', value: (g) => g.name },
    { header: 'Shifts', kind: 'number', value: (g) => g.shifts, total: true },
    { header: 'Over', kind: 'money', value: (g) => g.over, total: true },
    { header: 'Short', kind: 'money', value: (g) => g.short, total: true },
    { header: 'Net', kind: 'money', value: (g) => g.net, total: true },
  ];
  return (
    <ReportState loaded={loaded}>
      {(rows) => (
        <Stack gap="6">
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5">
            <ReportTable id="over-short-register" title="Over and short per register" rows={group(rows, (r) => `${storeName(r.store_id)} · ${r.register_name}`)}
              columns={gColumns('Register')} fileName={file('over-short-by-register', request)} />
            <ReportTable id="over-short-cashier" title="Over and short per cashier" rows={group(rows, (r) => r.cashier_name)}
              columns={gColumns('Cashier')} fileName={file('over-short-by-cashier', request)} />
          </SimpleGrid>
          <ReportTable id="shifts" title="Z reports" rows={rows} columns={columns} fileName={file('z-reports', request)}
            note="Expected cash = float + cash taken - cash refunds + cash in - cash out; over/short = counted - expected, as recorded at close." />
        </Stack>
      )}
    </ReportState>
  );
}

export function TaxesTab({ request, storeName }: TabProps) {
  const loaded = useReport(JSON.stringify(request), (s) => fetchTaxes(s, request));
  const columns: Column<TaxRow>[] = [
    { header: 'Store', kind: 'text', value: (r) => storeName(r.store_id) },
    { header: 'Rate', kind: 'text', value: (r) => `${r.tax_rate} %` },
    { header: 'Lines', kind: 'number', value: (r) => r.lines, total: true },
    { header: 'Taxable', kind: 'money', value: (r) => r.taxable, total: true },
    { header: 'Tax', kind: 'money', value: (r) => r.tax, total: true },
  ];
  return (
    <ReportState loaded={loaded}>
      {(rows) => <ReportTable id="taxes" title="Taxes collected per rate" rows={rows} columns={columns} fileName={file('taxes', request)}
        note="On sales as rung up; refunds' tax appears in the breakdown report's tax column." />}
    </ReportState>
  );
}
