// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/billing.sql: choose_plan()
import type { StorewiseClient } from '../../lib/supabase-client';
import type { SelfServicePlanName } from '../../lib/remembered-plan';
import type { ChosenPlan } from './plan-choice-message';

/**
 * Chooses a self-service plan for the signed-in owner. The database function sets the price and dates:
 * the first choice starts a 7-day trial of the annual plan, a later one switches plan but keeps the status.
 */
export async function choosePlan(
  supabase: StorewiseClient,
  planName: SelfServicePlanName,
): Promise<{ plan: ChosenPlan | null; error: string | null }> {
  const { data, error } = await supabase.rpc('choose_plan', { _plan_name: planName });
  return error ? { plan: null, error: error.message } : { plan: data, error: null };
}
