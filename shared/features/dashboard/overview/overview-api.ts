// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/billing.sql: billing_history user_plans
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap, unwrapMaybe } from '../api-result';

/** The plan summary of the Current Plan card, or null when the user has none (shown as Free). */
export async function fetchPlanSummary(supabase: StorewiseClient, userId: string) {
  return unwrapMaybe(
    await supabase.from('user_plans').select('plan_name, price, billing_cycle').eq('user_id', userId).maybeSingle(),
  );
}

/** The latest billing entries for the Recent Billing card (spec: 2). */
export async function fetchRecentBilling(supabase: StorewiseClient, userId: string, limit = 2) {
  return unwrap(
    await supabase
      .from('billing_history')
      .select('id, amount, date, status')
      .eq('user_id', userId)
      .order('date', { ascending: false })
      .limit(limit),
  );
}

export type PlanSummary = Awaited<ReturnType<typeof fetchPlanSummary>>;
export type RecentBillingEntry = Awaited<ReturnType<typeof fetchRecentBilling>>[number];
