import { describe, expect, it } from 'vitest';
import { billingOverviewSchema, byPlanAndStatus } from './billing-schema';

const group = (plan_name: string, status: string, billing_cycle: string, subscriptions: number, monthly_value: number) => ({
  plan_name,
  status,
  billing_cycle,
  subscriptions,
  monthly_value,
});

describe('billingOverviewSchema', () => {
  it('accepts the function answer and rejects a negative MRR', () => {
    const answer = {
      as_of: '2026-11-22T22:00:00+00:00',
      days: 7,
      mrr: 29.99,
      at_risk_mrr: 0,
      trial_mrr: 9.99,
      paying_subscriptions: 1,
      total_subscriptions: 2,
      groups: [group('Growth', 'active', 'annual', 1, 29.99)],
      trials_ending_count: 1,
      trials_ending: [
        { user_id: '33333333-3333-4333-8333-333333333333', owner_name: null, plan_name: 'Starter', price: 9.99, trial_ends_at: '2026-11-27T10:00:00+00:00' },
      ],
    };
    expect(billingOverviewSchema.parse(answer)).toEqual(answer);
    expect(() => billingOverviewSchema.parse({ ...answer, mrr: -1 })).toThrow();
  });
});

describe('byPlanAndStatus', () => {
  it('adds both cycles per plan, orders plans by tier and counts MRR from active and past due only', () => {
    const { rows } = byPlanAndStatus([
      group('Pro', 'active', 'monthly', 2, 199.98),
      group('Starter', 'trialing', 'annual', 3, 29.97),
      group('Pro', 'past_due', 'annual', 1, 99.99),
      group('Pro', 'active', 'annual', 1, 99.99),
      group('Pro', 'canceled', 'annual', 4, 399.96),
    ]);
    expect(rows.map((r) => r.plan)).toEqual(['Starter', 'Pro']);
    expect(rows[1]).toMatchObject({ total: 8, counts: { active: 3, past_due: 1, canceled: 4, trialing: 0 } });
    expect(rows[1]!.mrr).toBeCloseTo(399.96, 9);
    expect(rows[0]!.mrr).toBe(0);
  });
});
