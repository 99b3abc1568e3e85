import { describe, expect, it } from 'vitest';
import { countLines, sheetKey } from './count-logic';
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
