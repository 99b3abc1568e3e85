// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/billing.sql: my_billing() my_plan() my_plan_usage() plan_catalog() billing_history
//     payment_methods user_plans
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap, unwrapMaybe } from '../api-result';

/**
 * The plan card's columns, or null without a plan (shown as Free). Read through public.my_plan(), which says
 * 'expired' for a trial past its end (the stored row still says trialing until billing changes it, docs/adr/0175).
 */
export async function fetchPlan(supabase: StorewiseClient) {
  return unwrapMaybe(await supabase.rpc('my_plan').maybeSingle());
}

export async function fetchPaymentMethods(supabase: StorewiseClient, userId: string) {
  return unwrap(
    await supabase
      .from('payment_methods')
      .select('id, type, last_four, expiry, is_default, provider_payment_method_id')
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
  );
}

/** The whole history, newest first (the spec lists it without a limit). */
export async function fetchBillingHistory(supabase: StorewiseClient, userId: string) {
  return unwrap(
    await supabase
      .from('billing_history')
      .select('id, amount, date, status, description, invoice_url')
      .eq('user_id', userId)
      .order('date', { ascending: false }),
  );
}

/**
 * What billing decides for the owner's business now (public.my_billing): the plan whose limits apply, the
 * subscription's status, the end of a past-due grace period, whether the free trial is still on offer and
 * whether the business has a billing account at the provider. Null when the user owns no business.
 */
export async function fetchBillingSummary(supabase: StorewiseClient) {
  const rows = unwrap(await supabase.rpc('my_billing'));
  return rows[0] ?? null;
}
export type BillingSummary = NonNullable<Awaited<ReturnType<typeof fetchBillingSummary>>>;

/** Saves auto-renew on a plan without a provider subscription (chosen before billing); returns the stored value. */
export async function setAutoRenew(supabase: StorewiseClient, userId: string, autoRenew: boolean): Promise<boolean> {
  const row = unwrap(
    await supabase.from('user_plans').update({ auto_renew: autoRenew }).eq('user_id', userId).select('auto_renew').single(),
  );
  return row.auto_renew;
}

export type Plan = NonNullable<Awaited<ReturnType<typeof fetchPlan>>>;
export type PaymentMethod = Awaited<ReturnType<typeof fetchPaymentMethods>>[number];
export type BillingEntry = Awaited<ReturnType<typeof fetchBillingHistory>>[number];

/** Every plan with its price and the limits the database enforces (public.plan_catalog). */
export async function fetchPlanCatalog(supabase: StorewiseClient) {
  return unwrap(await supabase.rpc('plan_catalog'));
}

/** What each business the owner owns uses: the chooser warns about anything over a smaller plan's limits. */
export async function fetchPlanUsage(supabase: StorewiseClient) {
  return unwrap(await supabase.rpc('my_plan_usage'));
}

