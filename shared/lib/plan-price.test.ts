import { describe, expect, it } from 'vitest';
import { planPriceLine } from './plan-price';

describe('planPriceLine', () => {
  it('shows Free at 0.00 per month without a plan', () => {
    expect(planPriceLine(null)).toBe('$0.00 per month');
  });

  it('names the annual billing', () => {
    expect(planPriceLine({ price: 29.99, billing_cycle: 'annual' })).toBe('$29.99 per month, billed annually');
  });

  it('reads numeric strings and monthly plans', () => {
    expect(planPriceLine({ price: '9.9', billing_cycle: 'monthly' })).toBe('$9.90 per month');
  });
});
