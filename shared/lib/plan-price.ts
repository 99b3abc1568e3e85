import { formatMoney } from './format';

export interface PlanPrice {
  price: number | string;
  billing_cycle: string;
}

/**
 * The plan's price as customers read it. Prices are per month; annual plans are billed once a year
 * (pricing section of spec section 9). Without a plan: the spec's default, Free at 0.00 per month.
 */
export function planPriceLine(plan: PlanPrice | null): string {
  if (!plan) return `${formatMoney(0)} per month`;
  const perMonth = `${formatMoney(plan.price)} per month`;
  return plan.billing_cycle === 'annual' ? `${perMonth}, billed annually` : perMonth;
}
