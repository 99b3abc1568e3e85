import { describe, expect, it } from 'vitest';
import { parseCatalogCsv } from './catalog-csv';

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

describe('catalog CSV', () => {
  it('reads rows by header name, trimmed, with a BOM and blank lines', () => {
    const parsed = parseCatalogCsv(bytes('\uFEFFProduct_Name, price ,sku\n"Tee, cotton",1200, TEE-1 \n\nMilk,199,\n'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toEqual([{ product_name: 'Tee, cotton', price: '1200', sku: 'TEE-1' }, { product_name: 'Milk', price: '199', sku: '' }]);
  });

  it('refuses a broken encoding instead of importing garbled names', () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('product_name,price\nCr'), 0xe8, ...new TextEncoder().encode('me,100\n')]);
    const parsed = parseCatalogCsv(latin1.buffer);
    expect(parsed.rows).toEqual([]);
    expect(parsed.errors[0]).toMatch(/not UTF-8/);
  });

  it('names unknown and missing columns', () => {
    const parsed = parseCatalogCsv(bytes('name,colour\nTee,blue\n'));
    expect(parsed.errors).toEqual([
      'Unknown columns: name, colour. Use: product_name, unit, category, brand, option_name, option_value, sku, price, cost, barcode, opening_qty.',
      'The column "product_name" is missing.',
      'The column "price" is missing.',
    ]);
  });
});
