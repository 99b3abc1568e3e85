import { describe, expect, it } from 'vitest';
import { countedObject, countedTotal, denominationsFor } from './denominations';

describe('denominationsFor', () => {
  it('keeps the listed currencies', () => {
    expect(denominationsFor('usd')).toEqual([10000, 5000, 2000, 1000, 500, 100, 25, 10, 5, 1]);
    expect(denominationsFor('JPY')).toEqual([10000, 5000, 1000, 500, 100, 50, 10, 5, 1]);
  });

  it('scales the generic list by the currency digits', () => {
    // Two digits: the list as it always was.
    expect(denominationsFor('CHF')).toEqual([10000, 5000, 2000, 1000, 500, 100, 50, 20, 10, 5, 1]);
    // No minor unit: 100 krónur is 100, and there are no fractions to count.
    expect(denominationsFor('ISK')).toEqual([100, 50, 20, 10, 5, 1]);
    // Three digits: 100 dinars is 100000 fils; half a dinar 500.
    expect(denominationsFor('KWD')).toEqual([100000, 50000, 20000, 10000, 5000, 1000, 500, 200, 100, 50, 10]);
  });

  it('totals a KWD count in fils', () => {
    expect(countedTotal(countedObject({ 1000: '3', 500: '1', 10: '2' }))).toBe(3520);
  });
});
