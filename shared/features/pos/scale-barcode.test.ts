import { describe, expect, it } from 'vitest';
import { gtinCheckDigit } from '../../lib/gtin';
import {
  labelPriceMinor, labelQuantity, labelWeight, matchScaleLabel, parseScaleLabel, parseScalePattern, pluBaseCode,
  quantityForPrice, type ScaleRule,
} from '../../lib/scale-barcode';

const weight: ScaleRule = { pattern: '21.....{NNDDD}', kind: 'weight' };
const price: ScaleRule = { pattern: '22.....{NNNDD}', kind: 'price' };
const withCheck = (body: string) => body + String(gtinCheckDigit(body));

describe('EAN-13 check digits', () => {
  it.each([
    ['400638133393', 1], ['590123412345', 7], ['978030640615', 7], ['210004201234', 9], ['000000000000', 0],
  ])('%s -> %i', (body, digit) => {
    expect(gtinCheckDigit(body)).toBe(digit);
  });
});

describe('scale patterns', () => {
  it.each([
    ['21.....{NNDDD}', { prefix: '21', codeLength: 5, intDigits: 2, decimals: 3 }],
    ['22.....{NNNDD}', { prefix: '22', codeLength: 5, intDigits: 3, decimals: 2 }],
    ['2......{NNNNN}', { prefix: '2', codeLength: 6, intDigits: 5, decimals: 0 }],
    ['2302....{NNDD}', { prefix: '2302', codeLength: 4, intDigits: 2, decimals: 2 }],
  ])('%s reads', (pattern, parts) => {
    expect(parseScalePattern(pattern)).toEqual(parts);
  });

  it.each(['21....{NNDDD}', '21......{NNDDD}', '21.....NNDDD', '21.....{DDNNN}', 'AB.....{NNDDD}', '21.....{NNDDDD}', ''])(
    '%s is refused (not 12 positions, or not prefix, code, value)', (pattern) => {
      expect(parseScalePattern(pattern)).toBeNull();
    });
});

describe('scale labels', () => {
  it.each([
    // label, rule, item code, value digits, base code
    [withCheck('210004201234'), weight, '00042', '01234', withCheck('210004200000')],
    [withCheck('219999999999'), weight, '99999', '99999', withCheck('219999900000')],
    [withCheck('220004200499'), price, '00042', '00499', withCheck('220004200000')],
  ])('%s reads its item and value', (code, rule, itemCode, valueDigits, baseCode) => {
    expect(parseScaleLabel(code, rule)).toMatchObject({ itemCode, valueDigits, baseCode });
  });

  it('a wrong check digit, another prefix, or not 13 digits reads nothing', () => {
    const good = withCheck('210004201234');
    const bad = good.slice(0, 12) + String((Number(good[12]) + 1) % 10);
    expect(parseScaleLabel(bad, weight)).toBeNull();
    expect(parseScaleLabel(withCheck('230004201234'), weight)).toBeNull();
    expect(parseScaleLabel(good.slice(1), weight)).toBeNull();
    expect(parseScaleLabel(`${good.slice(0, 12)}X`, weight)).toBeNull();
  });

  it('the longest prefix wins, as in the database', () => {
    const general: ScaleRule = { pattern: '2......{NNNNN}', kind: 'price' };
    expect(matchScaleLabel(withCheck('210004201234'), [general, weight])?.rule).toBe(weight);
    expect(matchScaleLabel(withCheck('250004201234'), [general, weight])?.rule).toBe(general);
    expect(matchScaleLabel(withCheck('260004201234'), [weight])).toBeNull();
  });

  it.each([
    // weight layouts: digits and decimals -> kg
    [withCheck('210004201234'), weight, 1.234],
    [withCheck('210004200005'), weight, 0.005],
    [withCheck('210004299999'), weight, 99.999],
  ])('weight %s is %s kg', (code, rule, kg) => {
    const label = parseScaleLabel(code, rule);
    expect(label && labelWeight(label)).toBe(kg);
    expect(label && labelQuantity(label, 399, 2)).toBe(kg);
  });

  it.each([
    // price layouts: the amount in the currency's minor units, by its digits
    [withCheck('220004200499'), 2, 499],
    [withCheck('220004200499'), 3, 4990],
    [withCheck('220004200499'), 0, null],
  ])('price %s with %i currency digits is %s minor units', (code, digits, minor) => {
    const label = parseScaleLabel(code, price);
    expect(label && labelPriceMinor(label, digits)).toBe(minor);
  });

  it.each([
    // amount, unit price -> quantity (3 decimals, half away from zero)
    [499, 399, 1.251], [399, 399, 1], [1, 399, 0.003], [200, 300, 0.667], [1000, 0, null], [150, 120000, 0.001],
  ])('%i at %i is %s', (amount, unitPrice, qty) => {
    expect(quantityForPrice(amount, unitPrice)).toBe(qty);
  });

  it.each([
    ['42', weight, withCheck('210004200000')], ['99999', weight, withCheck('219999900000')], ['123456', weight, null],
    ['4a', weight, null], ['7', price, withCheck('220000700000')],
  ])('PLU %s under %o builds %s', (plu, rule, code) => {
    expect(pluBaseCode(plu, rule)).toBe(code);
  });
});
