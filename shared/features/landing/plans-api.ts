import { formatDate } from '../../lib/format';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { SelfServicePlanName } from '../../lib/remembered-plan';

export interface ChosenPlan {
  plan_name: string;
  status: string;
  next_billing_date: string | null;
}

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

/** What the owner is told after choosing: a trial only when the plan really is on trial. */
export function planChoiceMessage(plan: ChosenPlan): { title: string; description: string } {
  if (plan.status === 'trialing') {
    return {
      title: 'Trial started',
      description: `Your 7-day free trial of the ${plan.plan_name} plan runs until ${formatDate(plan.next_billing_date)}.`,
    };
  }
  return { title: 'Plan changed', description: `You are now on the ${plan.plan_name} plan.` };
}
