import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { amountExample, commonCurrency, currencyDigits, formatMinor, minorToMajor, minorToPlain, moneyIssue, parseMinor, parseMinorAmount } from './money';

// Intl separates the symbol with a no-break space in some locales; compare with plain spaces.
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('currencyDigits', () => {
  it('reads the minor digits of each currency from Intl', () => {
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('kwd')).toBe(3);
  });

  it('counts two digits without a currency or for a malformed code', () => {
    expect(currencyDigits(null)).toBe(2);
    expect(currencyDigits('')).toBe(2);
    expect(currencyDigits('NOT-A-CODE')).toBe(2);
  });
});

describe('minorToPlain', () => {
  it('writes exactly the currency digits, no symbol or grouping', () => {
    expect(minorToPlain(123456, 'USD')).toBe('1234.56');
    expect(minorToPlain(1250, 'EUR')).toBe('12.50');
    expect(minorToPlain(1250, 'JPY')).toBe('1250');
    expect(minorToPlain(1250, 'KWD')).toBe('1.250');
    expect(minorToPlain(5, 'KWD')).toBe('0.005');
    expect(minorToPlain(0, 'USD')).toBe('0.00');
    expect(minorToPlain(7, null)).toBe('0.07');
  });

  it('keeps the sign of negative amounts', () => {
    expect(minorToPlain(-5, 'USD')).toBe('-0.05');
    expect(minorToPlain(-1250, 'JPY')).toBe('-1250');
    expect(minorToPlain(-1, 'KWD')).toBe('-0.001');
    expect(minorToPlain(-0, 'USD')).toBe('0.00');
  });

  it('keeps every digit of amounts above 2^31 and 2^53', () => {
    expect(minorToPlain(2 ** 31 + 1, 'USD')).toBe('21474836.49');
    expect(minorToPlain(Number.MAX_SAFE_INTEGER, 'KWD')).toBe('9007199254740.991');
    expect(minorToPlain(2n ** 63n - 1n, 'USD')).toBe('92233720368547758.07');
    expect(minorToPlain('9007199254740993', 'USD')).toBe('90071992547409.93');
  });

  it('reads PostgREST strings and rounds fractions of a minor unit half away from zero', () => {
    expect(minorToPlain('1250', 'USD')).toBe('12.50');
    expect(minorToPlain(' -42 ', 'USD')).toBe('-0.42');
    expect(minorToPlain(12.5, 'USD')).toBe('0.13');
    expect(minorToPlain(-12.5, 'USD')).toBe('-0.13');
  });

  it('is empty for what is not an amount', () => {
    expect(minorToPlain(Number.NaN, 'USD')).toBe('');
    expect(minorToPlain(Number.POSITIVE_INFINITY, 'USD')).toBe('');
    expect(minorToPlain('abc', 'USD')).toBe('');
    expect(minorToPlain('', 'USD')).toBe('');
  });
});

describe('formatMinor', () => {
  it('formats with the symbol and the currency digits in the given locale', () => {
    expect(formatMinor(1250, 'USD', 'en-US')).toBe('$12.50');
    expect(spaced(formatMinor(123450, 'EUR', 'de-DE'))).toBe('1.234,50 €');
    expect(formatMinor(1250, 'JPY', 'en-US')).toBe('¥1,250');
    expect(spaced(formatMinor(1250, 'KWD', 'en-US'))).toBe('KWD 1.250');
  });

  it('formats negative and large amounts exactly', () => {
    expect(formatMinor(-1250, 'USD', 'en-US')).toBe('-$12.50');
    expect(formatMinor(-5, 'USD', 'en-US')).toBe('-$0.05');
    expect(formatMinor(2 ** 31 * 100 + 1, 'USD', 'en-US')).toBe('$2,147,483,648.01');
    expect(formatMinor(Number.MAX_SAFE_INTEGER, 'USD', 'en-US')).toBe('$90,071,992,547,409.91');
    expect(formatMinor('9007199254740993', 'JPY', 'en-US')).toBe('¥9,007,199,254,740,993');
  });

  it('groups a plain figure without a currency, and names a malformed code instead of throwing', () => {
    expect(formatMinor(123456, null, 'en-US')).toBe('1,234.56');
    expect(formatMinor(1250, 'NOT-A-CODE', 'en-US')).toBe('12.50 NOT-A-CODE');
    expect(formatMinor(Number.NaN, 'USD', 'en-US')).toBe('');
  });
});

describe('commonCurrency', () => {
  it('names the currency every store shares, else none', () => {
    expect(commonCurrency(['USD', 'usd'])).toBe('USD');
    expect(commonCurrency(['USD', 'JPY'])).toBeNull();
    expect(commonCurrency(['KWD', null])).toBeNull();
    expect(commonCurrency([])).toBeNull();
  });
});

describe('minorToMajor', () => {
  it('divides by the currency digits (chart axes)', () => {
    expect(minorToMajor(1250, 'USD')).toBe(12.5);
    expect(minorToMajor(1250, 'JPY')).toBe(1250);
    expect(minorToMajor(1250, 'KWD')).toBe(1.25);
  });
});

describe('parseMinorAmount', () => {
  it('reads amounts with up to the currency digits', () => {
    expect(parseMinor('12.50', 'USD')).toBe(1250);
    expect(parseMinor('12.5', 'EUR')).toBe(1250);
    expect(parseMinor(' 12 ', 'USD')).toBe(1200);
    expect(parseMinor('12.', 'USD')).toBe(1200);
    expect(parseMinor('0', 'USD')).toBe(0);
    expect(parseMinor('007.05', 'USD')).toBe(705);
    expect(parseMinor('1250', 'JPY')).toBe(1250);
    expect(parseMinor('1.25', 'KWD')).toBe(1250);
    expect(parseMinor('1.005', 'KWD')).toBe(1005);
    expect(parseMinor('12.50', null)).toBe(1250);
  });

  it('is exact where floats are not (0.29 * 100 is 28.999999999999996)', () => {
    expect(parseMinor('0.29', 'USD')).toBe(29);
    expect(parseMinor('1.15', 'USD')).toBe(115);
    expect(parseMinor('4.35', 'EUR')).toBe(435);
    expect(parseMinor('1.001', 'KWD')).toBe(1001);
  });

  it('reads amounts above 2^31 and refuses those above 2^53 minor units', () => {
    expect(parseMinor('21474836.48', 'USD')).toBe(2 ** 31);
    expect(parseMinor('30000000000.01', 'USD')).toBe(3_000_000_000_001);
    expect(parseMinor('90071992547409.91', 'USD')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseMinorAmount('90071992547409.92', 'USD')).toEqual({ ok: false, message: 'This amount is too large' });
    expect(parseMinorAmount('1000000000', 'USD', { maxWholeDigits: 9 })).toEqual({ ok: false, message: 'This amount is too large' });
    expect(parseMinor('999999999.99', 'USD', { maxWholeDigits: 9 })).toBe(99_999_999_999);
    expect(parseMinor('0000000001', 'USD', { maxWholeDigits: 9 })).toBe(100);
  });

  it('refuses more decimals than the currency has instead of rounding them away', () => {
    expect(parseMinorAmount('1.005', 'USD')).toEqual({ ok: false, message: 'USD amounts have at most 2 decimals' });
    expect(parseMinorAmount('12.5', 'JPY')).toEqual({ ok: false, message: 'JPY amounts have no decimals' });
    expect(parseMinorAmount('1.2345', 'kwd')).toEqual({ ok: false, message: 'KWD amounts have at most 3 decimals' });
    expect(parseMinorAmount('1.005', null)).toEqual({ ok: false, message: 'Amounts have at most 2 decimals' });
  });

  it('takes a minus only when allowed', () => {
    expect(parseMinorAmount('-3.25', 'USD')).toEqual({ ok: false, message: 'Enter an amount that is not negative' });
    expect(parseMinor('-3.25', 'USD', { allowNegative: true })).toBe(-325);
    expect(parseMinor('-500', 'JPY', { allowNegative: true })).toBe(-500);
    expect(Object.is(parseMinor('-0', 'USD', { allowNegative: true }), 0)).toBe(true);
  });

  it('takes a decimal comma only when asked', () => {
    expect(parseMinor('12,50', 'EUR')).toBeNull();
    expect(parseMinor('12,50', 'EUR', { decimalComma: true })).toBe(1250);
  });

  it('refuses what is not a plain amount, with an example in the currency', () => {
    for (const bad of ['', '   ', 'abc', '12a', '1,234.50', '1 234', '1e3', '0x10', '.5', '+5', '--1', '12.5.0', 'Infinity', '١٢']) {
      expect(parseMinor(bad, 'USD', { allowNegative: true }), bad).toBeNull();
    }
    expect(parseMinorAmount('abc', 'USD')).toEqual({ ok: false, message: 'Enter an amount such as 12.50' });
    expect(parseMinorAmount('abc', 'JPY')).toEqual({ ok: false, message: 'Enter an amount such as 1250' });
    expect(parseMinorAmount('abc', 'KWD')).toEqual({ ok: false, message: 'Enter an amount such as 12.500' });
    expect(amountExample(null)).toBe('12.50');
  });

  it('round-trips with minorToPlain', () => {
    for (const [minor, currency] of [[123456, 'USD'], [0, 'EUR'], [98765, 'JPY'], [1, 'KWD'], [Number.MAX_SAFE_INTEGER, 'USD']] as const) {
      expect(parseMinor(minorToPlain(minor, currency), currency)).toBe(minor);
    }
  });
});

describe('moneyIssue', () => {
  it('gives zod the message next to the field', () => {
    const schema = z.object({ price: z.string().superRefine(moneyIssue('JPY')) });
    expect(schema.safeParse({ price: '1250' }).success).toBe(true);
    const result = schema.safeParse({ price: '12.50' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['price'], message: 'JPY amounts have no decimals' });
  });
});
