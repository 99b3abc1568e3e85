import { describe, expect, it } from 'vitest';
import { tenderState } from './cart';
import { currentRates, type ExchangeRate } from './exchange-rates-cache';
import { normaliseRate } from '../../lib/exchange-rate';
import { refundCashRounding, saleCashRounding } from './cash-rounding';
import { addForeignTender, foreignCashDue, foreignChangeDue, tenderPayload } from './foreign-tender';
import { foreignCounted } from './foreign-count';
import { foreignRows } from './foreign-drawer';

const eur: ExchangeRate = { id: '00000000-0000-4000-8000-0000000000e1', currency: 'EUR', rate: '1.0825', effectiveFrom: '2026-12-01T00:00:00Z' };
const jpy: ExchangeRate = { id: '00000000-0000-4000-8000-0000000000a1', currency: 'JPY', rate: '0.0067', effectiveFrom: '2026-12-01T00:00:00Z' };
const usdInKwd: ExchangeRate = { id: '00000000-0000-4000-8000-0000000000b1', currency: 'USD', rate: '0.3075', effectiveFrom: '2026-12-01T00:00:00Z' };

describe('foreign cash at the register', () => {
  it.each([
    // store, step, total, rate, given (foreign minor; null = exactly due) -> amount, tendered (store), foreign given, paid
    ['USD', 0, 1400, eur, 2000, 1400, 2165, 2000, true], // EUR 20.00 for USD 14.00: change USD 7.65
    ['USD', 0, 1400, eur, null, 1400, 1400, 1294, true], // exactly due: EUR 12.94 is worth USD 14.007 -> 14.00, no change
    ['USD', 0, 6701, jpy, null, 6701, 6701, 10002, true], // JPY 0 decimals: 10,002 yen asked
    ['USD', 0, 1400, eur, 1000, 1082, 1082, 1000, false], // EUR 10.00 pays USD 10.82 of it; the rest is still due
    ['KWD', 5, 6152, usdInKwd, 2500, 6150, 7685, 2500, true], // KWD 3 decimals, step 0.005: due 6.150; USD 25 = 7.6875 -> change 1.535
  ] as const)('%s step %i: %i paid in %s', (store, step, total, rate, given, amount, tendered, foreignGiven, paid) => {
    const next = addForeignTender(total, [], given, rate, store, step);
    if (typeof next === 'string') throw new Error(next);
    expect(next).toEqual([{ kind: 'cash', amount, tendered, foreign: { currency: rate.currency, rateId: rate.id, rate: rate.rate, tendered: foreignGiven } }]);
    expect(tenderState(total, next, step).complete).toBe(paid);
  });

  it('asks the amount due in the foreign currency, rounded up, after the other tenders', () => {
    expect(foreignCashDue(1400, [], eur, 'USD')).toBe(1294);
    expect(foreignCashDue(1400, [{ kind: 'card', amount: 400, tendered: 400 }], eur, 'USD')).toBe(924); // USD 10.00 / 1.0825
    expect(foreignChangeDue(1400, [], 2000, eur, 'USD')).toBe(765);
    expect(foreignChangeDue(1400, [], null, eur, 'USD')).toBe(0);
  });

  it('refuses nothing handed over, and a sale already paid', () => {
    expect(addForeignTender(1400, [], 0, eur, 'USD')).toBe('Enter an amount above zero');
    expect(addForeignTender(1400, [{ kind: 'card', amount: 1400, tendered: 1400 }], 100, eur, 'USD')).toBe('The sale is already paid');
  });

  it('sends the currency, the rate it names and the foreign amount with the tender', () => {
    const [t] = addForeignTender(1400, [], 2000, eur, 'USD') as ReturnType<typeof addForeignTender> & object[];
    expect(t && tenderPayload(t)).toEqual({ kind: 'cash', amount: 1400, tendered: 2165, currency: 'EUR', rate_id: eur.id, rate: '1.0825', foreign_tendered: 2000 });
    expect(tenderPayload({ kind: 'card', amount: 5, tendered: 5 })).toEqual({ kind: 'card', amount: 5, tendered: 5 });
  });
});

describe('the rates copy', () => {
  const rows: ExchangeRate[] = [
    { id: 'c', currency: 'EUR', rate: '1.2', effectiveFrom: '2026-12-10T00:00:00Z' }, // scheduled
    { id: 'b', currency: 'EUR', rate: '1.1', effectiveFrom: '2026-12-02T00:00:00Z' },
    { id: 'a', currency: 'EUR', rate: '1.0825', effectiveFrom: '2026-12-01T00:00:00Z' },
    { id: 'g', currency: 'GBP', rate: '1.27', effectiveFrom: '2026-12-01T00:00:00Z' },
  ];
  it.each([
    ['2026-12-01T12:00:00Z', ['a', 'g']], ['2026-12-05T00:00:00Z', ['b', 'g']], ['2026-12-10T00:00:00Z', ['c', 'g']], ['2026-11-30T00:00:00Z', []],
  ] as const)('at %s the rates in effect are %j', (at, ids) => {
    expect(currentRates(rows, new Date(at)).map((r) => r.id)).toEqual(ids);
  });
  it.each([['1.0825000000', '1.0825'], ['150.0000000000', '150'], ['0.0067000000', '0.0067'], ['3', '3']])('%s reads as %s', (raw, rate) => {
    expect(normaliseRate(raw)).toBe(rate);
  });
});

describe('the drawer per currency', () => {
  it('takes counts typed in each currency\'s own decimals and leaves out what is not an amount', () => {
    expect(foreignCounted({ EUR: '62.50', JPY: '12000', KWD: '1.250', GBP: '', CHF: 'abc', USD: '1.005' })).toEqual({ EUR: 6250, JPY: 12000, KWD: 1250 });
  });
  it('lists expected, counted and difference per currency on the Z report, expected only on the X report', () => {
    const figures = { foreign_cash: [{ currency: 'EUR', tenders: 2, expected: 6300, paid: 5600, change: 800, counted: 6250, difference: -50 }] };
    expect(foreignRows(figures, 'X').map(([l]) => l)).toEqual(['EUR expected']);
    const z = foreignRows(figures, 'Z');
    expect(z.map(([l]) => l)).toEqual(['EUR expected', 'EUR counted', 'EUR difference']);
    expect(z[2]?.[1]).toMatch(/-€0\.50|-0\.50|€-0\.50/);
  });
});

describe('a foreign-cash sale with the store\'s cash rounding, and its refund in the store currency', () => {
  it.each([
    // store currency, step, total -> cash due after rounding (the foreign cash is a cash tender)
    ['CHF', 5, 492, 490], ['JPY', 10, 1234, 1230], ['KWD', 5, 12_347, 12_345], ['USD', 0, 492, 492],
  ] as const)('%s step %i: %i is paid as %i', (_store, step, total, cashDue) => {
    expect(total + saleCashRounding(total, [{ kind: 'cash', amount: cashDue }], step)).toBe(cashDue);
  });

  it('a refund of a foreign-cash sale pays back store currency, rounded like any cash refund', () => {
    // A CHF 4.92 sale paid in euros (cash, rounded to 4.90): the refund is CHF cash, 4.92 rounded to 4.90.
    const total = 492;
    expect(total + refundCashRounding(0, total, 5, 'cash')).toBe(490);
    // Refunded by card the exact total goes back.
    expect(total + refundCashRounding(0, total, 5, 'card')).toBe(492);
  });
});
