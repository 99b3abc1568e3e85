import { describe, expect, it } from 'vitest';
import { parseCatalogCsv } from './catalog-csv';
import { catalogCsv, type ExportRow } from './catalog-export';

const tee: ExportRow = {
  product_name: 'Linen Shirt', unit: 'each', category: 'Tops', brand: 'Acme', option_name: 'Size', option_value: 'M',
  sku: 'LINENS-M', price: 2500, cost: 1100, barcode: '4006381333931',
};

describe('catalog export', () => {
  it('writes the import columns, so an export parses back as an import file', () => {
    const csv = catalogCsv([tee, { ...tee, option_value: 'L', sku: 'LINENS-L', cost: '', barcode: '' }], true);
    const parsed = parseCatalogCsv(new TextEncoder().encode(csv).buffer);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows[0]).toEqual({ product_name: 'Linen Shirt', unit: 'each', category: 'Tops', brand: 'Acme', option_name: 'Size',
      option_value: 'M', sku: 'LINENS-M', price: '2500', cost: '1100', barcode: '4006381333931' });
    expect(parsed.rows[1]?.cost).toBe('');
  });

  it('leaves the cost column out without cost access and escapes formula cells', () => {
    const csv = catalogCsv([{ ...tee, product_name: '@SUM(A1)' }], false);
    expect(csv.split('\r\n')[0]).toBe('product_name,unit,category,brand,option_name,option_value,sku,price,barcode');
    expect(csv).toContain(`'@SUM(A1)`);
    expect(csv).not.toContain('1100');
  });
});
