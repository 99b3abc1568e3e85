import { describe, expect, it } from 'vitest';
import { dailySeries, planVariant } from './insights-logic';

describe('dailySeries', () => {
  it('fills the days without a sale with zeros and drops rows outside the window', () => {
    const s = dailySeries([
      { variant_id: 'a', day: '2026-01-01', units: 2 },
      { variant_id: 'a', day: '2026-01-03', units: 1.5 },
      { variant_id: 'b', day: '2026-01-02', units: 4 },
      { variant_id: 'a', day: '2026-01-09', units: 9 },
    ], '2026-01-01', 4);
    expect(s.get('a')).toEqual([2, 0, 1.5, 0]);
    expect(s.get('b')).toEqual([0, 4, 0, 0]);
  });
});

describe('planVariant', () => {
  // Twelve weeks of an exact weekly pattern: Holt-Winters reproduces it and beats last week only by a hair or ties.
  const weekly = [5, 3, 3, 4, 6, 9, 8];
  const noisy = Array.from({ length: 84 }, (_, i) => weekly[i % 7]! + ((i * 7919) % 5) - 2 + 2);

  it('plans on the forecast only when it beat last week on the held-out days, and sizes the order', () => {
    const plan = planVariant(noisy, { leadTimeDays: 7, onHand: 10, onOrder: 5 });
    expect(plan.forecast.show).toBe(plan.forecast.wape < plan.forecast.baselineWape);
    expect(plan.basis).toBe(plan.forecast.show ? 'forecast' : 'last-week');
    const demand = plan.planning.slice(0, 7).reduce((a, b) => a + b, 0);
    expect(plan.suggestion.demandOverLeadTime).toBeCloseTo(demand, 9);
    expect(plan.suggestion.quantity).toBe(Math.max(0, Math.ceil(demand + plan.suggestion.safetyStock - 15 - 1e-9)));
    expect(plan.planning.length).toBeGreaterThanOrEqual(28);
  });

  it('falls back to last week with three weeks of history (too short to measure a forecast)', () => {
    const plan = planVariant(noisy.slice(0, 21), { leadTimeDays: 3, onHand: 0, onOrder: 0 });
    expect(plan.forecast.show).toBe(false);
    expect(plan.basis).toBe('last-week');
    expect(plan.planning.slice(0, 7)).toEqual(noisy.slice(14, 21));
    expect(plan.suggestion.quantity).toBeGreaterThanOrEqual(noisy.slice(14, 17).reduce((a, b) => a + b, 0));
  });

  it('orders nothing when stock on hand and on order cover the lead time', () => {
    expect(planVariant(noisy, { leadTimeDays: 2, onHand: 500, onOrder: 0 }).suggestion.quantity).toBe(0);
  });

  it('uses the average with under a week of history', () => {
    const plan = planVariant([2, 4], { leadTimeDays: 5, onHand: 1, onOrder: 0 });
    expect(plan.basis).toBe('average');
    expect(plan.suggestion.quantity).toBe(14);
  });
});
