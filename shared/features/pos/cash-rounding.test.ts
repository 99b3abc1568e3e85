import { describe, expect, it } from 'vitest';
import { addTender, tenderState, type Tender } from './cart';
import { refundCashRounding, roundToStep, saleCashRounding } from './cash-rounding';

describe('rounding to a step', () => {
  it.each([
    // amount, step -> rounded (minor units; CHF 0.05 = 5, SEK 1 = 100, JPY 10 = 10, KWD 0.005 = 5)
    [492, 5, 490], [493, 5, 495], [497, 5, 495], [498, 5, 500], [495, 5, 495], [0, 5, 0],
    [1050, 100, 1100], [1049, 100, 1000], [505, 10, 510], [504, 10, 500], [12_343, 5, 12_345],
    [-492, 5, -490], [-493, 5, -495], [492, 0, 492], [492, 1, 492],
  ])('%i to %i is %i', (amount, step, rounded) => {
    expect(roundToStep(amount, step)).toBe(rounded);
  });
});

describe('a sale\'s cash rounding', () => {
  it.each([
    // total, tenders, step -> rounding
    [492, [{ kind: 'cash', amount: 490 }], 5, -2],
    [493, [{ kind: 'cash', amount: 495 }], 5, 2],
    [492, [{ kind: 'card', amount: 492 }], 5, 0],
    [492, [{ kind: 'card', amount: 200 }, { kind: 'cash', amount: 290 }], 5, -2],
    [492, [{ kind: 'card', amount: 492 }, { kind: 'cash', amount: 0 }], 5, 0],
    [492, [{ kind: 'cash', amount: 492 }], 0, 0],
    [1234, [{ kind: 'cash', amount: 1230 }], 10, -4], // JPY, 0 decimals: 1,234 yen pays 1,230
    [12_347, [{ kind: 'cash', amount: 12_345 }], 5, -2], // KWD, 3 decimals: 12.347 pays 12.345
  ] as const)('%i paid by %j with step %i', (total, tenders, step, rounding) => {
    expect(saleCashRounding(total, tenders, step)).toBe(rounding);
  });
});

describe('refunds', () => {
  it('parts refunded one by one pay back together the rounded whole', () => {
    const step = 5;
    const parts = [151, 151];
    let before = 0;
    let paid = 0;
    for (const part of parts) {
      paid += part + refundCashRounding(before, part, step, 'cash');
      before += part;
    }
    expect(paid).toBe(roundToStep(302, step));
    expect(paid).toBe(300);
  });

  it.each([
    // before, total, step, tender -> rounding
    [0, 302, 5, 'cash', -2], [0, 151, 5, 'cash', -1], [151, 151, 5, 'cash', -1], [0, 302, 5, 'card', 0],
    [100, 33, 5, 'cash', 2], [0, 1234, 10, 'cash', -4], [0, 302, 0, 'cash', 0],
  ] as const)('before %i, refund %i, step %i, %s -> %i', (before, total, step, tender, rounding) => {
    expect(refundCashRounding(before, total, step, tender)).toBe(rounding);
  });
});

describe('the register\'s tenders with a step', () => {
  it('cash pays the rounded rest, card exact; the sale is paid when the tenders pay total + rounding', () => {
    const cash = addTender(492, [], 'cash', null, 5) as Tender[];
    expect(cash).toEqual([{ kind: 'cash', amount: 490, tendered: 490 }]);
    expect(tenderState(492, cash, 5)).toMatchObject({ paid: 490, remaining: 0, rounding: -2, complete: true });
    const handed = addTender(493, [], 'cash', 1000, 5) as Tender[];
    expect(handed).toEqual([{ kind: 'cash', amount: 495, tendered: 1000 }]);
    expect(tenderState(493, handed, 5)).toMatchObject({ change: 505, complete: true });
    const card = addTender(492, [], 'card', null, 5) as Tender[];
    expect(tenderState(492, card, 5)).toMatchObject({ paid: 492, rounding: 0, complete: true });
    const split = addTender(492, [{ kind: 'card', amount: 200, tendered: 200 }], 'cash', null, 5) as Tender[];
    expect(split.at(-1)).toEqual({ kind: 'cash', amount: 290, tendered: 290 });
    expect(tenderState(492, split, 5).complete).toBe(true);
  });

  it('two cents left after a card rounds to nothing in cash', () => {
    const tenders = addTender(492, [{ kind: 'card', amount: 490, tendered: 490 }], 'cash', null, 5) as Tender[];
    expect(tenders.at(-1)).toEqual({ kind: 'cash', amount: 0, tendered: 0 });
    expect(tenderState(492, tenders, 5)).toMatchObject({ rounding: -2, complete: true });
  });

  it('a 0-decimal currency (JPY, step 10) and a 3-decimal one (KWD, step 5)', () => {
    expect(addTender(1234, [], 'cash', null, 10)).toEqual([{ kind: 'cash', amount: 1230, tendered: 1230 }]);
    expect(addTender(12_347, [], 'cash', 20_000, 5)).toEqual([{ kind: 'cash', amount: 12_345, tendered: 20_000 }]);
  });

  it('no step: exactly as before', () => {
    expect(addTender(492, [], 'cash', null)).toEqual([{ kind: 'cash', amount: 492, tendered: 492 }]);
  });
});
