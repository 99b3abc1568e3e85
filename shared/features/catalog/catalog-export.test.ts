import { describe, expect, it } from 'vitest';
import { parseCatalogCsv, toDatabaseRows } from './catalog-csv';
import { catalogCsv, type ExportRow } from './catalog-export';

const tee: ExportRow = {
  product_name: 'Linen Shirt', unit: 'each', category: 'Tops', brand: 'Acme', option_name: 'Size', option_value: 'M',
  sku: 'LINENS-M', price: 2500, cost: 1100, barcode: '4006381333931', image_url: '',
};

describe('catalog export', () => {
  it('writes the import columns with money in the currency, so an export parses back to the same minor units', () => {
    const csv = catalogCsv([tee, { ...tee, option_value: 'L', sku: 'LINENS-L', cost: '', barcode: '' }], true, 'USD');
    const parsed = parseCatalogCsv(new TextEncoder().encode(csv).buffer);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows[0]).toEqual({ product_name: 'Linen Shirt', unit: 'each', category: 'Tops', brand: 'Acme', option_name: 'Size',
      option_value: 'M', sku: 'LINENS-M', price: '25.00', cost: '11.00', barcode: '4006381333931', image_url: '' });
    expect(parsed.rows[1]?.cost).toBe('');
    expect(toDatabaseRows(parsed.rows, 'USD')).toMatchObject({ problems: [], rows: [{ price: '2500', cost: '1100' }, { price: '2500', cost: '' }] });
  });

  it('writes 0- and 3-decimal currencies as they are written, and they come back unchanged', () => {
    for (const [currency, text] of [['JPY', '2500'], ['KWD', '2.500']] as const) {
      const csv = catalogCsv([{ ...tee, cost: '' }], true, currency);
      const parsed = parseCatalogCsv(new TextEncoder().encode(csv).buffer);
      expect(parsed.rows[0]?.price).toBe(text);
      expect(toDatabaseRows(parsed.rows, currency).rows[0]?.price).toBe('2500');
    }
  });

  it('leaves the cost column out without cost access and escapes formula cells', () => {
    const csv = catalogCsv([{ ...tee, product_name: '@SUM(A1)' }], false, 'USD');
    expect(csv.split('\r\n')[0]).toBe('product_name,unit,category,brand,option_name,option_value,sku,price,barcode,image_url');
    expect(csv).toContain(`'@SUM(A1)`);
    // The import undoes the escape, so the name comes back as it was.
    expect(parseCatalogCsv(new TextEncoder().encode(csv).buffer).rows[0]?.product_name).toBe('@SUM(A1)');
    expect(csv).not.toContain('11.00');
  });
});
