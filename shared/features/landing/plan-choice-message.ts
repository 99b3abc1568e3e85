import { formatDate } from '../../lib/format';

/** The plan row choose_plan returns, as far as the message needs it. */
export interface ChosenPlan {
  plan_name: string;
  status: string;
  next_billing_date: string | null;
}

// Loaded on the first plan pick, not with the landing page: date-fns stays out of the landing budget.
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
