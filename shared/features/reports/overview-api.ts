// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/reports.sql: business_overview()
//   supabase/schemas/workspace.sql: my_workspaces() stores
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/** What business_overview answers (supabase/migrations/20261123150000_reports_more.sql), checked at the edge. */
const n = z.coerce.number();
const dayFigures = z.object({ sales: n, refunds: n, transactions: n, average_basket: n, gross_profit: n });
export type DayFigures = z.infer<typeof dayFigures>;

export const managerOverviewSchema = z.object({
  role: z.enum(['owner', 'manager']),
  today_date: z.string(),
  today: dayFigures,
  last_week: dayFigures,
  daily: z.array(z.object({ day: z.string(), sales: n })),
  top_products: z.array(z.object({ variant_id: z.string(), description: z.string(), units: n, revenue: n })),
  low_stock: z.array(z.object({ store_id: z.string(), variant_id: z.string(), sku: z.string(), product_name: z.string(), on_hand: n, reorder_point: n })),
  low_stock_count: n,
  expiring: z.array(z.object({ store_id: z.string(), lot_id: z.string(), lot_number: z.string(), expires_on: z.string(), product_name: z.string(), qty: n })),
  expiring_count: n,
});
export const cashierOverviewSchema = z.object({
  role: z.literal('cashier'),
  shift: z.object({
    shift_id: z.string(), store_id: z.string(), register_name: z.string(), opened_at: z.string(), closed_at: z.string().nullable(),
    opening_float: n, sales_count: n, sales_total: n, refunds_total: n, cash_sales: n,
  }).nullable(),
});
export const overviewSchema = z.union([managerOverviewSchema, cashierOverviewSchema]);
export type ManagerOverview = z.infer<typeof managerOverviewSchema>;
export type CashierOverview = z.infer<typeof cashierOverviewSchema>;
export type Overview = z.infer<typeof overviewSchema>;

export interface OverviewBusiness {
  id: string;
  name: string;
  role: string;
  currency: string;
}

function check<T>(result: { data: T | null; error: { message: string } | null }): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}

/** The caller's businesses with a role that has an overview, and the currency of their stores. */
export async function fetchOverviewBusinesses(supabase: StorewiseClient): Promise<OverviewBusiness[]> {
  const [workspaces, stores] = await Promise.all([
    supabase.rpc('my_workspaces').then(check),
    supabase.from('stores').select('business_id, currency').is('archived_at', null).then(check),
  ]);
  return (workspaces ?? [])
    .filter((w) => ['owner', 'manager', 'cashier'].includes(w.role))
    .map((w) => ({
      id: w.id, name: w.name, role: w.role,
      currency: String((stores ?? []).find((s) => s.business_id === w.id)?.currency ?? 'USD'),
    }));
}

export async function fetchOverview(supabase: StorewiseClient, businessId: string): Promise<Overview> {
  return overviewSchema.parse(check(await supabase.rpc('business_overview', { _business_id: businessId })));
}

/** Change against last week as a signed percentage, or null when last week had nothing to compare with. */
export function changeAgainst(now: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((now - before) / Math.abs(before)) * 1000) / 10;
}
