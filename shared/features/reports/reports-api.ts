// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/reports.sql: report_collection_sell_through() report_inventory_valuation() report_profit()
//     report_sales() report_sales_by() report_sell_through() report_shifts() report_slow_movers()
//     report_stock_movements() report_taxes() report_top_products()
//   supabase/schemas/workspace.sql: my_workspaces() stores
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/** What the report functions answer (supabase/migrations/20261122161000_reports.sql), checked at the edge. */
const n = z.coerce.number();
export const salesRowSchema = z.object({
  period: z.string(),
  store_id: z.guid(),
  receipts: n,
  units: n,
  gross: n,
  discounts: n,
  tax: n,
  net: n,
  refunds: n,
});
export const profitRowSchema = z.object({
  period: z.string(),
  store_id: z.guid(),
  revenue: n,
  cost: n,
  profit: n,
  margin: n.nullable(),
  lines_without_cost: n,
});
export type SalesRow = z.infer<typeof salesRowSchema>;
export type ProfitRow = z.infer<typeof profitRowSchema>;
export type Grain = 'day' | 'week' | 'month';

export const reportRequestSchema = z
  .object({
    businessId: z.guid(),
    from: z.iso.date(),
    to: z.iso.date(),
    grain: z.enum(['day', 'week', 'month']),
    storeId: z.guid().or(z.literal('')),
  })
  .refine((r) => r.from <= r.to, { message: 'The start date must be on or before the end date.' });
export type ReportRequest = z.infer<typeof reportRequestSchema>;

export interface ReportScope {
  businesses: { id: string; name: string }[];
  stores: { id: string; name: string; business_id: string; currency: string }[];
}

function check<T>(result: { data: T | null; error: { message: string } | null }): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}

/** The businesses where the caller may read reports (owner or manager) and the stores they can see there. */
export async function fetchReportScope(supabase: StorewiseClient): Promise<ReportScope> {
  // Side by side: neither needs the other's answer, and the figures wait for both (docs/adr/0418).
  const [workspaceAnswer, storeAnswer] = await Promise.all([
    supabase.rpc('my_workspaces'),
    supabase.from('stores').select('id, name, business_id, currency').is('archived_at', null).order('name'),
  ]);
  const workspaces = check(workspaceAnswer) ?? [];
  const businesses = workspaces.filter((w) => w.role === 'owner' || w.role === 'manager').map((w) => ({ id: w.id, name: w.name }));
  const stores = check(storeAnswer) ?? [];
  return { businesses, stores: stores.map((s) => ({ ...s, currency: String(s.currency) })) };
}

export async function fetchSalesAndProfit(supabase: StorewiseClient, request: ReportRequest) {
  const r = reportRequestSchema.parse(request);
  const args = { _business_id: r.businessId, _from: r.from, _to: r.to, _grain: r.grain, ...(r.storeId ? { _store_id: r.storeId } : {}) };
  const [sales, profit] = await Promise.all([supabase.rpc('report_sales', args), supabase.rpc('report_profit', args)]);
  return {
    sales: salesRowSchema.array().parse(check(sales) ?? []),
    profit: profitRowSchema.array().parse(check(profit) ?? []),
  };
}

// ---------------------------------------------------------------------------------------------------
// The reports of 20261123150000_reports_more.sql. Rows are checked at the edge; numbers come as numbers or
// numeric strings and are coerced.
const nn = n.nullable();
export const breakdownRowSchema = z.object({
  key: z.string().nullable(), label: z.string(), receipts: n, units: nn, gross: n, refunds: n, net_sales: n,
  tax: nn, revenue: nn, cost: nn, profit: nn, margin: nn,
});
export const sellThroughRowSchema = z.object({
  store_id: z.guid(), variant_id: z.guid(), sku: z.string(), product_name: z.string(), units_sold: n, on_hand_end: n,
  sell_through: nn, revenue: n, last_sold_on: z.string().nullable(),
});
export const topProductRowSchema = z.object({ variant_id: z.guid(), description: z.string(), units: n, revenue: n, profit: n });
export const valuationRowSchema = z.object({
  store_id: z.guid(), category: z.string(), variants: n, units: n, cost_value: n, retail_value: n, variants_without_cost: n,
});
export const movementRowSchema = z.object({
  period: z.string(), store_id: z.guid(), kind: z.string(), movements: n, units_in: n, units_out: n, cost_value: n,
});
export const shiftRowSchema = z.object({
  shift_id: z.guid(), store_id: z.guid(), register_id: z.guid(), register_name: z.string(), cashier_id: z.guid().nullable(),
  cashier_name: z.string(), opened_at: z.string(), closed_at: z.string().nullable(), opening_float: n, sales_count: n,
  gross: n, cash: n, card: n, other: n, refunds: n, cash_refunds: n, cash_in: n, cash_out: n, expected_cash: n,
  counted_total: nn, over_short: nn,
});
export const taxRowSchema = z.object({ store_id: z.guid(), tax_rate: n, lines: n, taxable: n, tax: n });
export const slowMoverRowSchema = z.object({
  store_id: z.guid(), variant_id: z.guid(), sku: z.string(), product_name: z.string(), on_hand: n, units_sold: n,
  sell_through: n, last_sold_on: z.string().nullable(), days_since_sale: nn, cost_value: n,
});
export const collectionRowSchema = z.object({
  collection_id: z.guid(), name: z.string(), season_code: z.string().nullable(), starts_on: z.string().nullable(),
  ends_on: z.string().nullable(), products: n, units_sold: n, on_hand_end: n, sell_through: n.nullable(), revenue: n,
});
export type CollectionRow = z.infer<typeof collectionRowSchema>;
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;
export type SellThroughRow = z.infer<typeof sellThroughRowSchema>;
export type ValuationRow = z.infer<typeof valuationRowSchema>;
export type MovementRow = z.infer<typeof movementRowSchema>;
export type ShiftRow = z.infer<typeof shiftRowSchema>;
export type TaxRow = z.infer<typeof taxRowSchema>;
export type SlowMoverRow = z.infer<typeof slowMoverRowSchema>;
export type Dimension = 'store' | 'staff' | 'category' | 'tender';

const range = (r: ReportRequest) => ({
  _business_id: r.businessId, _from: r.from, _to: r.to, ...(r.storeId ? { _store_id: r.storeId } : {}),
});

export async function fetchBreakdown(supabase: StorewiseClient, request: ReportRequest, dimension: Dimension) {
  const r = reportRequestSchema.parse(request);
  return breakdownRowSchema.array().parse(check(await supabase.rpc('report_sales_by', { ...range(r), _dimension: dimension })) ?? []);
}

export async function fetchSellers(supabase: StorewiseClient, request: ReportRequest, worst: boolean) {
  const r = reportRequestSchema.parse(request);
  const [top, through] = await Promise.all([
    supabase.rpc('report_top_products', { ...range(r), _worst: worst, _limit: 20 }),
    supabase.rpc('report_sell_through', { ...range(r), _worst: worst, _limit: 50 }),
  ]);
  return {
    top: topProductRowSchema.array().parse(check(top) ?? []),
    sellThrough: sellThroughRowSchema.array().parse(check(through) ?? []),
  };
}

/** Sell-through per collection (clothing pack): the same figures as report_sell_through, summed per collection. */
export async function fetchCollectionSellThrough(supabase: StorewiseClient, request: ReportRequest) {
  const r = reportRequestSchema.parse(request);
  return collectionRowSchema.array().parse(check(await supabase.rpc('report_collection_sell_through', range(r))) ?? []);
}

export async function fetchValuation(supabase: StorewiseClient, request: ReportRequest) {
  const r = reportRequestSchema.parse(request);
  return valuationRowSchema.array().parse(check(await supabase.rpc('report_inventory_valuation', {
    _business_id: r.businessId, ...(r.storeId ? { _store_id: r.storeId } : {}),
  })) ?? []);
}

export async function fetchMovements(supabase: StorewiseClient, request: ReportRequest) {
  const r = reportRequestSchema.parse(request);
  return movementRowSchema.array().parse(check(await supabase.rpc('report_stock_movements', { ...range(r), _grain: r.grain })) ?? []);
}

export async function fetchShifts(supabase: StorewiseClient, request: ReportRequest) {
  const r = reportRequestSchema.parse(request);
  return shiftRowSchema.array().parse(check(await supabase.rpc('report_shifts', range(r))) ?? []);
}

export async function fetchTaxes(supabase: StorewiseClient, request: ReportRequest) {
  const r = reportRequestSchema.parse(request);
  return taxRowSchema.array().parse(check(await supabase.rpc('report_taxes', range(r))) ?? []);
}

export async function fetchSlowMovers(supabase: StorewiseClient, request: ReportRequest, days: number) {
  const r = reportRequestSchema.parse(request);
  return slowMoverRowSchema.array().parse(check(await supabase.rpc('report_slow_movers', {
    _business_id: r.businessId, _days: days, _limit: 100, ...(r.storeId ? { _store_id: r.storeId } : {}),
  })) ?? []);
}
