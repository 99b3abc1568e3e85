import type { PlanName } from './provider.ts';

/**
 * The self-service plans as sold (specification, point 9): a per-month price billed annually, the same numbers
 * as private.plan_price in the database. Prices at the provider are found by lookup key; the setup script
 * (scripts/billing-setup.ts) creates them from this list.
 */
export const sellablePlans: { plan: PlanName; monthly_cents: number; lookup_key: string }[] = [
  { plan: 'Starter', monthly_cents: 999, lookup_key: 'storewise_starter_annual' },
  { plan: 'Growth', monthly_cents: 2999, lookup_key: 'storewise_growth_annual' },
  { plan: 'Pro', monthly_cents: 9999, lookup_key: 'storewise_pro_annual' },
];

export const TRIAL_DAYS = 7;

export function planOfLookupKey(key: string | null | undefined): PlanName | null {
  return sellablePlans.find((p) => p.lookup_key === key)?.plan ?? null;
}

export function planRank(plan: string): number {
  return sellablePlans.findIndex((p) => p.plan === plan);
}
