import { describe, expect, it } from 'vitest';
import { suggestReorder } from './reorder';

describe('suggestReorder', () => {
  it('covers the lead-time demand minus stock on hand and on order', () => {
    const s = suggestReorder({ forecast: Array(10).fill(2), leadTimeDays: 5, sigma: 0, onHand: 3, onOrder: 2 });
    expect(s).toEqual({ demandOverLeadTime: 10, safetyStock: 0, quantity: 5 });
  });

  it('adds z * sigma * sqrt(lead time) of safety stock and rounds up', () => {
    const s = suggestReorder({ forecast: Array(4).fill(2), leadTimeDays: 4, sigma: 2, onHand: 0, onOrder: 0 });
    expect(s.safetyStock).toBeCloseTo(6.6, 12); // 1.65 * 2 * sqrt(4)
    expect(s.quantity).toBe(15); // ceil(8 + 6.6)
    expect(suggestReorder({ forecast: [1.1, 1.1], leadTimeDays: 2, sigma: 0, onHand: 0, onOrder: 0, z: 0 }).quantity).toBe(3);
  });

  it('does not round an exact need up by floating-point dust', () => {
    expect(suggestReorder({ forecast: [0.1, 0.2], leadTimeDays: 2, sigma: 0, onHand: 0, onOrder: 0 }).quantity).toBe(1);
    expect(suggestReorder({ forecast: Array(10).fill(1.2), leadTimeDays: 10, sigma: 0, onHand: 0, onOrder: 0 }).quantity).toBe(12);
  });

  it('suggests nothing when stock covers the need, and whole packs otherwise', () => {
    expect(suggestReorder({ forecast: [5, 5], leadTimeDays: 2, sigma: 1, onHand: 20, onOrder: 0 }).quantity).toBe(0);
    expect(suggestReorder({ forecast: Array(3).fill(5), leadTimeDays: 3, sigma: 0, onHand: 0, onOrder: 0, packSize: 6 }).quantity).toBe(18);
  });

  it('refuses a forecast shorter than the lead time and bad numbers', () => {
    expect(() => suggestReorder({ forecast: [1], leadTimeDays: 3, sigma: 0, onHand: 0, onOrder: 0 })).toThrow(RangeError);
    expect(() => suggestReorder({ forecast: [1], leadTimeDays: 1, sigma: -1, onHand: 0, onOrder: 0 })).toThrow(RangeError);
    expect(() => suggestReorder({ forecast: [1], leadTimeDays: 1, sigma: 0, onHand: Number.NaN, onOrder: 0 })).toThrow(RangeError);
  });
});
