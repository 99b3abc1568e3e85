import { z } from 'zod';

/**
 * The answer of admin_billing_overview() (supabase/migrations/20261122160000_billing_overview.sql), checked
 * at the edge. Money arrives as JSON numbers from jsonb; counts as numbers.
 */
const count = z.coerce.number().int().nonnegative();
const money = z.coerce.number().nonnegative();

export const billingGroupSchema = z.object({
  plan_name: z.string(),
  status: z.string(),
  billing_cycle: z.string(),
  subscriptions: count,
  monthly_value: money,
});

export const endingTrialSchema = z.object({
  user_id: z.guid(),
  owner_name: z.string().nullable(),
  plan_name: z.string(),
  price: money,
  trial_ends_at: z.string().min(1),
});

export const billingOverviewSchema = z.object({
  as_of: z.string().min(1),
  days: count,
  mrr: money,
  at_risk_mrr: money,
  trial_mrr: money,
  paying_subscriptions: count,
  total_subscriptions: count,
  groups: z.array(billingGroupSchema),
  trials_ending_count: count,
  trials_ending: z.array(endingTrialSchema),
});

export type BillingGroup = z.infer<typeof billingGroupSchema>;
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

/** Subscriptions per plan and status (both cycles together), for the table: plans in price order. */
export function byPlanAndStatus(groups: readonly BillingGroup[]) {
  const planOrder = ['Free', 'Starter', 'Growth', 'Pro', 'Enterprise'];
  const statuses = ['active', 'trialing', 'past_due', 'canceled', 'expired'];
  const plans = [...new Set(groups.map((g) => g.plan_name))].sort(
    (a, b) => (planOrder.indexOf(a) + 1 || 99) - (planOrder.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  return {
    statuses,
    rows: plans.map((plan) => {
      const mine = groups.filter((g) => g.plan_name === plan);
      const counts = Object.fromEntries(
        statuses.map((s) => [s, mine.filter((g) => g.status === s).reduce((a, g) => a + g.subscriptions, 0)]),
      );
      const mrr = mine
        .filter((g) => g.status === 'active' || g.status === 'past_due')
        .reduce((a, g) => a + g.monthly_value, 0);
      return { plan, counts, mrr, total: mine.reduce((a, g) => a + g.subscriptions, 0) };
    }),
  };
}
