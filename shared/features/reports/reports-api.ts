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
  const workspaces = check(await supabase.rpc('my_workspaces')) ?? [];
  const businesses = workspaces.filter((w) => w.role === 'owner' || w.role === 'manager').map((w) => ({ id: w.id, name: w.name }));
  const stores = check(await supabase.from('stores').select('id, name, business_id, currency').is('archived_at', null).order('name')) ?? [];
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
