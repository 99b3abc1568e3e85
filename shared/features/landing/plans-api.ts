import type { StorewiseClient } from '../../lib/supabase-client';
import type { SelfServicePlanName } from '../../lib/remembered-plan';

/**
 * Starts a 7-day trial of an annual plan for the signed-in owner. The database function sets the price
 * and dates; owners cannot write user_plans themselves.
 */
export async function choosePlan(supabase: StorewiseClient, planName: SelfServicePlanName): Promise<{ error: string | null }> {
  const { error } = await supabase.rpc('choose_plan', { _plan_name: planName });
  return { error: error ? error.message : null };
}
