import { describe, expect, it } from 'vitest';
import { foreignChange, foreignDue, foreignValue, parseRate } from './exchange-rate';
import { formatMinor, parseMinor } from './money';

describe('a rate as typed', () => {
  it.each([
    ['1.0825', { numerator: 10825n, scale: 4 }], ['150', { numerator: 150n, scale: 0 }],
    ['0.0000000001', { numerator: 1n, scale: 10 }], [' 0.30 ', { numerator: 30n, scale: 2 }],
  ] as const)('%s is exact', (text, parsed) => {
    expect(parseRate(text)).toEqual(parsed);
  });
  it.each(['0', '0.000', '-1', '1e3', '1,5', '1.00000000001', '1234567890', ''])('%s is refused', (text) => {
    expect(parseRate(text)).toBeNull();
  });
});

describe('converting foreign cash (value rounded down, due rounded up to the foreign minor unit)', () => {
  it.each([
    // foreign minor, rate, foreign, store -> value in store minor units
    [500, '1.0825', 'EUR', 'USD', 541], // EUR 5.00 = USD 5.4125 -> 5.41
    [10000, '0.0067', 'JPY', 'USD', 6700], // JPY 10,000 (0 decimals) = USD 67.00
    [1000, '3.2525', 'KWD', 'USD', 325], // KWD 1.000 (3 decimals) = USD 3.2525 -> 3.25
    [2000, '162.37', 'USD', 'JPY', 3247], // USD 20.00 = JPY 3,247.4 -> 3,247
    [2000, '0.3075', 'USD', 'KWD', 6150], // USD 20.00 = KWD 6.150
    [5000, '0.33', 'EUR', 'KWD', 16500], // EUR 50.00 = KWD 16.500
    [7, '1454.3', 'KWD', 'KRW', 10], // KWD 0.007 = KRW 10.18 -> 10
    [0, '1.0825', 'EUR', 'USD', 0],
  ] as const)('%i %s at %s into %s is %i', (foreign, rate, currency, base, value) => {
    expect(foreignValue(foreign, rate, currency, base)).toBe(value);
  });

  it.each([
    // store minor due, rate, foreign, store -> least foreign minor units that pay it
    [400, '1.0825', 'EUR', 'USD', 370], // USD 4.00 / 1.0825 = 3.6951 -> EUR 3.70
    [6700, '0.0067', 'JPY', 'USD', 10000], // exact: JPY 10,000
    [6701, '0.0067', 'JPY', 'USD', 10002], // JPY has no cents: 10,001.49 -> 10,002
    [325, '3.2525', 'KWD', 'USD', 1000], // USD 3.25 / 3.2525 = 0.99923 -> KWD 1.000 (3 decimals)
    [3247, '162.37', 'USD', 'JPY', 2000], // JPY 3,247 / 162.37 = 19.9975 -> USD 20.00
    [6150, '0.3075', 'USD', 'KWD', 2000],
    [0, '1.0825', 'EUR', 'USD', 0],
  ] as const)('%i due at %s for %s in %s asks %i', (due, rate, currency, base, asked) => {
    const given = foreignDue(due, rate, currency, base);
    expect(given).toBe(asked);
    // What is asked always pays, and one minor unit less never does.
    expect(foreignValue(given, rate, currency, base)).toBeGreaterThanOrEqual(due);
    if (given > 0) expect(foreignValue(given - 1, rate, currency, base)).toBeLessThan(due);
  });

  it.each([
    // value, amount, store cash step -> change
    [541, 400, 0, 141], [541, 400, 5, 140], [3247, 3000, 10, 240], [6150, 6000, 5, 150], [6153, 6000, 5, 150],
    [400, 400, 5, 0], [399, 400, 0, 0],
  ] as const)('worth %i paying %i with step %i gives %i change', (value, amount, step, change) => {
    expect(foreignChange(value, amount, step)).toBe(change);
  });
});

describe('0 and 3 decimal currencies from the one table of minor digits', () => {
  it.each([
    ['JPY', '1250', 1250, '1,250'], ['KRW', '5000', 5000, '5,000'], ['ISK', '990', 990, '990'],
    ['KWD', '1.250', 1250, '1.250'], ['BHD', '0.005', 5, '0.005'], ['JOD', '12.5', 12_500, '12.500'],
    ['OMR', '3', 3000, '3.000'], ['TND', '0.1', 100, '0.100'], ['USD', '12.5', 1250, '12.50'],
  ] as const)('%s "%s" is %i minor units and formats as %s', (currency, typed, minor, shown) => {
    expect(parseMinor(typed, currency)).toBe(minor);
    expect(formatMinor(minor, currency, 'en-US')).toContain(shown);
  });

  it.each([['JPY', '12.5'], ['KWD', '1.2345'], ['USD', '1.005']] as const)('%s refuses "%s" (too many decimals)', (c, t) => {
    expect(parseMinor(t, c)).toBeNull();
  });
});
