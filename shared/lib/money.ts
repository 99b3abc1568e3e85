/**
 * Money as the database keeps it: integers of minor units of an ISO 4217 currency (cents for USD, yen for JPY,
 * fils for KWD). A currency's number of minor digits comes from Intl (USD 2, JPY 0, KWD 3), so nothing here
 * assumes hundredths. Amounts go through strings and BigInt, never through a float division, so 0.1 + 0.2
 * troubles and amounts above 2^31 (or 2^53 / 10^digits) cannot round.
 *
 * `currency` may be null for amounts whose currency the data does not record (the catalog's base prices are
 * business-wide while each store has its own currency): those keep two decimals, as before this module.
 */

export type Currency = string | null;
export type MinorAmount = number | string | bigint;

const NO_CURRENCY_DIGITS = 2;
const digitsCache = new Map<string, number>();
const formatCache = new Map<string, Intl.NumberFormat>();

/** Minor digits of a currency: USD 2, JPY 0, KWD 3. An unknown or malformed code counts as 2 (ISO's default). */
export function currencyDigits(currency: Currency): number {
  if (!currency) return NO_CURRENCY_DIGITS;
  const code = currency.toUpperCase();
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits
        ?? NO_CURRENCY_DIGITS;
    } catch {
      digits = NO_CURRENCY_DIGITS; // RangeError for a malformed code; the database only stores valid ones.
    }
    digitsCache.set(code, digits);
  }
  return digits;
}

/** An amount of minor units as a BigInt; null when it is not a finite number (fractions round half away from 0). */
function toBigInt(minor: MinorAmount): bigint | null {
  if (typeof minor === 'bigint') return minor;
  if (typeof minor === 'string') {
    const t = minor.trim();
    if (/^-?\d+$/.test(t)) return BigInt(t);
    return t === '' ? null : toBigInt(Number(t));
  }
  if (!Number.isFinite(minor)) return null;
  const rounded = Math.sign(minor) * Math.round(Math.abs(minor));
  return BigInt(rounded);
}

function plain(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return (negative ? '-' : '') + whole + (digits > 0 ? `.${fraction}` : '');
}

/**
 * The one currency a set of amounts shares (a total over several stores), else null: sums across currencies are
 * not money, and null formats them with two decimals as before.
 */
export function commonCurrency(currencies: readonly Currency[]): Currency {
  const distinct = new Set(currencies.map((c) => c?.toUpperCase() ?? null));
  return distinct.size === 1 ? [...distinct][0] ?? null : null;
}

/**
 * A plain decimal with exactly the currency's digits, no symbol or grouping: for CSV files and for form inputs
 * ("1250" USD -> "12.50", JPY -> "1250", KWD -> "1.250"). Empty for an amount that is not a number.
 */
export function minorToPlain(minor: MinorAmount, currency: Currency): string {
  const value = toBigInt(minor);
  return value === null ? '' : plain(value, currencyDigits(currency));
}

/** Major units as a float, for chart axes only (never for sums or for what is saved). */
export function minorToMajor(minor: number, currency: Currency): number {
  return minor / 10 ** currencyDigits(currency);
}

/** One Intl.NumberFormat per locale and currency (building one costs far more than formatting with it). */
function formatter(currency: string | null, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency ?? ''}`;
  let fmt = formatCache.get(key);
  if (!fmt) {
    fmt = new Intl.NumberFormat(locale, currency ? { style: 'currency', currency }
      : { minimumFractionDigits: NO_CURRENCY_DIGITS, maximumFractionDigits: NO_CURRENCY_DIGITS });
    formatCache.set(key, fmt);
  }
  return fmt;
}

/**
 * For people: locale-aware with the currency's symbol ("$12.50", "¥1,250", "KWD 1.250", "12,50 €" in de-DE).
 * The machine's locale unless one is given. Intl formats the exact decimal string, so large amounts keep every
 * digit. Without a currency: the plain decimal with grouping. Empty for an amount that is not a number.
 */
export function formatMinor(minor: MinorAmount, currency: Currency, locale?: string): string {
  const value = toBigInt(minor);
  if (value === null) return '';
  const code = currency?.toUpperCase();
  const decimal = plain(value, currencyDigits(code ?? null)) as `${number}`;
  if (code) {
    try {
      return formatter(code, locale).format(decimal);
    } catch {
      // A malformed code: fall through to the plain figure with the code after it.
      return `${decimal} ${code}`;
    }
  }
  return formatter(null, locale).format(decimal);
}

export interface ParseMinorOptions {
  /** Accept a leading minus (cash out, corrections). Prices and costs are never negative. */
  allowNegative?: boolean;
  /** Accept a comma as the decimal separator ("12,50" typed at a till set to a European keyboard). */
  decimalComma?: boolean;
  /** At most this many digits before the decimal separator (the forms' old 9-digit bound). */
  maxWholeDigits?: number;
}

export type ParsedMinor = { ok: true; minor: number } | { ok: false; message: string };

/** "12.50", "1250" or "12.500": what the currency's amounts look like, for messages. */
export function amountExample(currency: Currency): string {
  const digits = currencyDigits(currency);
  return digits === 0 ? '1250' : `12.${'5'.padEnd(digits, '0')}`;
}

/**
 * A typed decimal ("12.5", " 1250 ", "-3.25") into integer minor units, exactly (string arithmetic, no float).
 * Refuses more decimals than the currency has instead of rounding them away, grouping separators, exponents,
 * and amounts beyond Number.MAX_SAFE_INTEGER minor units. The message suits a form field (zod refinements).
 */
export function parseMinorAmount(text: string, currency: Currency, options: ParseMinorOptions = {}): ParsedMinor {
  const digits = currencyDigits(currency);
  const separator = options.decimalComma ? '[.,]' : '\\.';
  const match = new RegExp(`^(-?)(\\d+)(?:${separator}(\\d*))?$`).exec(text.trim());
  if (!match) return { ok: false, message: `Enter an amount such as ${amountExample(currency)}` };
  const [, sign = '', whole = '', fraction = ''] = match;
  if (sign && !options.allowNegative) return { ok: false, message: 'Enter an amount that is not negative' };
  if (fraction.length > digits) {
    const code = currency ? `${currency.toUpperCase()} amounts` : 'Amounts';
    return { ok: false, message: digits === 0 ? `${code} have no decimals` : `${code} have at most ${digits} decimals` };
  }
  const significant = whole.replace(/^0+(?=\d)/, '');
  if (options.maxWholeDigits !== undefined && significant.length > options.maxWholeDigits) {
    return { ok: false, message: 'This amount is too large' };
  }
  const magnitude = BigInt(significant + fraction.padEnd(digits, '0'));
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, message: 'This amount is too large' };
  const minor = Number(magnitude);
  return { ok: true, minor: sign && minor !== 0 ? -minor : minor };
}

/** parseMinorAmount's value, or null when the text is not an amount of this currency. */
export function parseMinor(text: string, currency: Currency, options?: ParseMinorOptions): number | null {
  const parsed = parseMinorAmount(text, currency, options);
  return parsed.ok ? parsed.minor : null;
}

/** For zod: `z.string().superRefine(moneyIssue('USD'))` names the problem next to the field. */
export function moneyIssue(currency: Currency, options?: ParseMinorOptions) {
  return (text: string, ctx: { addIssue: (issue: { code: 'custom'; message: string }) => void }) => {
    const parsed = parseMinorAmount(text, currency, options);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
  };
}
