import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { StockRow } from './inventory-api';
import { stockCsv } from './stock-csv';

const row = (over: Record<string, unknown>): StockRow => ({
  variant_id: 'v1', product_name: 'Milk', sku: 'MILK', option1: null, option2: null, option3: null, unit: 'each',
  has_lots: false, on_hand: 12, reorder_point: null, target_level: null, total_count: 1, ...over,
} as unknown as StockRow);

describe('stock CSV', () => {
  it('writes one row per item with its quantities, readable back by papaparse', () => {
    const csv = stockCsv([row({}), row({ sku: 'TEE-M', product_name: 'Tee, cotton', option1: 'M', option2: 'Blue', unit: 'each', on_hand: -2, reorder_point: 5, target_level: 20 })]);
    const parsed = Papa.parse<string[]>(csv.trim());
    expect(parsed.data).toEqual([
      ['sku', 'product_name', 'variant', 'unit', 'on_hand', 'reorder_point', 'target_level'],
      ['MILK', 'Milk', '', 'each', '12', '', ''],
      ['TEE-M', 'Tee, cotton', 'M / Blue', 'each', '-2', '5', '20'],
    ]);
  });

  it('escapes names a spreadsheet would run as a formula', () => {
    const csv = stockCsv([row({ product_name: '=HYPERLINK("http://x")' })]);
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
  });
});
