import { currencyDigits } from '../../lib/money';

/**
 * Notes and coins in minor units for counting the drawer at the close (close_shift takes {"minor units": count}).
 * Currencies without a list count in whole units of the currency and its common fractions, scaled by the
 * currency's minor digits (100 units is 10000 minor units in EUR, 100 in ISK, 100000 in KWD).
 */
const DENOMINATIONS: Record<string, number[]> = {
  USD: [10000, 5000, 2000, 1000, 500, 100, 25, 10, 5, 1],
  CAD: [10000, 5000, 2000, 1000, 500, 200, 100, 25, 10, 5],
  EUR: [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
  GBP: [5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
  AUD: [10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5],
  JPY: [10000, 5000, 1000, 500, 100, 50, 10, 5, 1],
};

export function denominationsFor(currency: string): number[] {
  const known = DENOMINATIONS[currency.toUpperCase()];
  if (known) return known;
  const unit = 10 ** currencyDigits(currency);
  const fractions = [50, 20, 10, 5, 1].map((hundredths) => (hundredths * unit) / 100).filter(Number.isInteger);
  return [...[100, 50, 20, 10, 5, 1].map((units) => units * unit), ...fractions];
}

/** What close_shift takes: counts per denomination of the store's currency, and `foreign` amounts per currency (ADR 0395). */
export type DrawerCount = Record<string, number | Record<string, number>>;

/** Counts typed per denomination ("" or not a whole number counts as none) into close_shift's object. */
export function countedObject(counts: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [denomination, text] of Object.entries(counts)) {
    const n = /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : 0;
    if (n > 0) out[denomination] = n;
  }
  return out;
}

export function countedTotal(counted: Record<string, number>): number {
  return Object.entries(counted).reduce((sum, [d, n]) => sum + Number(d) * n, 0);
}
