import { currencyDigits } from './money';

/**
 * Foreign cash at a manager's rate (issue 29, ADR 0395), the register's copy of the database's
 * private.foreign_cash_value and private.foreign_cash_change (supabase/migrations/20261204110000_foreign_cash.sql).
 * A rate is a decimal string ("1.0825": store-currency units for one foreign unit) kept exact as a BigInt fraction;
 * amounts are integers of each currency's minor units, whose digits come from the one table in money.ts (Intl), so
 * JPY (0), USD (2) and KWD (3) need nothing special.
 */

/** A rate as numerator / 10^scale; null for anything but a positive decimal with at most 10 decimals. */
export function parseRate(text: string): { numerator: bigint; scale: number } | null {
  const match = /^(\d{1,9})(?:\.(\d{1,10}))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  const numerator = BigInt(whole + fraction);
  return numerator > 0n ? { numerator, scale: fraction.length } : null;
}

/** The fraction store minor units per foreign minor unit: rate x 10^(store digits - foreign digits). */
function perMinor(rate: string, currency: string, base: string): { num: bigint; den: bigint } {
  const parsed = parseRate(rate);
  if (!parsed) throw new RangeError(`not an exchange rate: ${rate}`);
  const shift = currencyDigits(base) - currencyDigits(currency);
  let num = parsed.numerator;
  let den = 10n ** BigInt(parsed.scale);
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  return { num, den };
}

/** What `foreign` minor units of `currency` are worth in minor units of `base`, rounded down (as the database). */
export function foreignValue(foreign: number, rate: string, currency: string, base: string): number {
  const { num, den } = perMinor(rate, currency, base);
  return Number((BigInt(foreign) * num) / den);
}

/**
 * The least foreign amount whose value pays `due` store minor units: due / rate rounded up to the foreign
 * currency's minor unit (the customer is never asked for less than the store is owed).
 */
export function foreignDue(due: number, rate: string, currency: string, base: string): number {
  if (due <= 0) return 0;
  const { num, den } = perMinor(rate, currency, base);
  return Number((BigInt(due) * den + num - 1n) / num);
}

/** The change in the store currency: the value over what it pays, rounded down to the cash step (0: exact). */
export function foreignChange(value: number, amount: number, step: number): number {
  if (value <= amount) return 0;
  const excess = value - amount;
  return step > 1 ? excess - (excess % step) : excess;
}

/** numeric(19,10) comes back as "1.0825000000": the same value without trailing zeros (what parseRate takes). */
export function normaliseRate(rate: string): string {
  return rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;
}
