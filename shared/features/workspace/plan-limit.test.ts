import { describe, expect, it } from 'vitest';
import { atStoreLimit, storeLimitText, storeUsage } from './plan-limit';

describe('store usage', () => {
  it('reads "2 of 3 stores" and knows the limit', () => {
    expect(storeUsage({ stores_used: 2, max_stores: 3 })).toBe('2 of 3 stores');
    expect(storeUsage({ stores_used: 0, max_stores: 1 })).toBe('0 of 1 store');
    expect(storeUsage({ stores_used: 12, max_stores: null })).toBe('12 stores (unlimited on your plan)');
    expect(atStoreLimit({ stores_used: 3, max_stores: 3 })).toBe(true);
    expect(atStoreLimit({ stores_used: 2, max_stores: 3 })).toBe(false);
    expect(atStoreLimit({ stores_used: 50, max_stores: null })).toBe(false);
  });

  it('says what to do at and over the limit (after a downgrade)', () => {
    expect(storeLimitText({ plan: 'Growth', stores_used: 3, max_stores: 3 }))
      .toBe('Your Growth plan allows 3 stores. Upgrade your plan or archive a store to add another.');
    expect(storeLimitText({ plan: 'Starter', stores_used: 3, max_stores: 1 }))
      .toBe('Your Starter plan allows 1 store and you have 3: archive 2 or upgrade to add one.');
  });
});
