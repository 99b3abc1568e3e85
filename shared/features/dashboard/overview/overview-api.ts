// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/billing.sql: my_plan() billing_history
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap, unwrapMaybe } from '../api-result';

/**
 * The plan summary of the Current Plan card, or null when the user has none (shown as Free). Read through
 * my_plan(), as the Billing page is: an ended trial is the Free plan in force (issue 22), named as ended.
 */
export async function fetchPlanSummary(supabase: StorewiseClient) {
  const row = unwrapMaybe(await supabase.rpc('my_plan').maybeSingle());
  if (!row) return null;
  const ended = row.status === 'expired';
  return { plan_name: ended ? row.effective_plan : row.plan_name, price: ended ? 0 : row.price,
    billing_cycle: row.billing_cycle, endedTrial: ended ? row.plan_name : null };
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
