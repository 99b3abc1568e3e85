import { describe, expect, it } from 'vitest';
import { countLines, countPayload, foundLotRow, sheetKey } from './count-logic';
import type { SheetRow } from './transfers-api';

const row = (over: Record<string, unknown>): SheetRow => ({
  variant_id: 'v1', lot_id: null, product_name: 'Milk', sku: 'MILK', option1: null, option2: null, option3: null,
  unit: 'each', has_lots: false, lot_number: null, expires_on: null, on_hand: 10, ...over,
} as unknown as SheetRow);

describe('count lines', () => {
  it('keeps counted lines with their variance, skips blanks, and refuses bad quantities per unit', () => {
    const sheet = [row({}), row({ variant_id: 'v2', unit: 'kg', on_hand: 2.5 }), row({ variant_id: 'v3', lot_id: 'l1', on_hand: 4 }),
      row({ variant_id: 'v4' })];
    const { lines, errors } = countLines(sheet, {
      [sheetKey(sheet[0]!)]: '7', [sheetKey(sheet[1]!)]: '2.75', [sheetKey(sheet[2]!)]: '1.5', [sheetKey(sheet[3]!)]: ' ',
    });
    expect(lines.map((l) => [l.key, l.expected, l.counted, l.variance])).toEqual([['v1|', 10, 7, -3], ['v2|', 2.5, 2.75, 0.25]]);
    expect(errors).toEqual({ 'v3|l1': 'Enter a whole number of pieces' });
  });
});

describe('a lot found on the shelf', () => {
  const found = foundLotRow({ variant_id: 'v9', product_name: 'Drops', sku: 'DROPS', option1: '', option2: '', option3: '', unit: 'each' },
    ' LOT-7 ', '2031-01-31');

  it('has its own key per lot number, expects nothing and must be counted above zero', () => {
    expect(sheetKey(found)).toBe('v9|new:LOT-7');
    expect(countLines([found], {}).errors).toEqual({ 'v9|new:LOT-7': 'Enter how many of this lot you found' });
    expect(countLines([found], { 'v9|new:LOT-7': '0' }).errors).toEqual({ 'v9|new:LOT-7': 'Enter how many of this lot you found' });
    const { lines } = countLines([found], { 'v9|new:LOT-7': '4' });
    expect(lines.map((l) => [l.expected, l.counted, l.variance])).toEqual([[0, 4, 4]]);
  });

  it('is posted by lot number and expiry, a lot on record by its id', () => {
    const held = row({ variant_id: 'v3', lot_id: 'l1', has_lots: true, lot_number: 'A', on_hand: 2 });
    const noExpiry = foundLotRow({ ...found, variant_id: 'v8' }, 'LOT-8', '');
    const { lines } = countLines([held, found, noExpiry], { 'v3|l1': '2', 'v9|new:LOT-7': '4', 'v8|new:LOT-8': '1' });
    expect(countPayload(lines)).toEqual([
      { variant_id: 'v3', lot_id: 'l1', counted: 2 },
      { variant_id: 'v9', lot_number: 'LOT-7', expires_on: '2031-01-31', counted: 4 },
      { variant_id: 'v8', lot_number: 'LOT-8', counted: 1 },
    ]);
  });
});
