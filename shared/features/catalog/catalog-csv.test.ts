import { describe, expect, it } from 'vitest';
import { CATALOG_CSV_COLUMNS } from '../../../supabase/functions/_shared/export/csv-formats';
import { CATALOG_COLUMNS } from './catalog-columns';
import { catalogTemplateCsv, parseCatalogCsv, toDatabaseRows } from './catalog-csv';

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

describe('catalog CSV', () => {
  it('reads exactly the columns the business export writes in products.csv, in the same order', () => {
    expect(CATALOG_COLUMNS.map((c) => c.key)).toEqual([...CATALOG_CSV_COLUMNS]);
  });

  it('reads rows by header name, trimmed, with a BOM and blank lines', () => {
    const parsed = parseCatalogCsv(bytes('\uFEFFProduct_Name, price ,sku\n"Tee, cotton",12.00, TEE-1 \n\nMilk,1.99,\n'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toEqual([{ product_name: 'Tee, cotton', price: '12.00', sku: 'TEE-1' }, { product_name: 'Milk', price: '1.99', sku: '' }]);
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
      'Unknown columns: name, colour. Use: product_name, unit, category, brand, option_name, option_value, sku, price, cost, barcode, image_url, opening_qty.',
      'The column "product_name" is missing.',
      'The column "price" is missing.',
    ]);
  });
});

describe('image_url in a catalog file', () => {
  const context = { supabaseUrl: 'https://abc.supabase.co', businessId: '11111111-2222-4333-8444-555555555555' };
  it('becomes the picture\'s name in product-images, or the row\'s message (ADR 0371)', () => {
    const rows = [
      { product_name: 'A', price: '1', image_url: `https://abc.supabase.co/storage/v1/object/public/product-images/${context.businessId}/p/a.png` },
      { product_name: 'B', price: '1', image_url: 'https://elsewhere.test/a.png' },
      { product_name: 'C', price: '1', image_url: '' },
    ];
    const converted = toDatabaseRows(rows, 'USD', context);
    expect(converted.rows.map((r) => r.image_url)).toEqual([`${context.businessId}/p/a.png`, undefined, '']);
    expect(converted.problems).toEqual([{ row_index: 2, message: expect.stringMatching(/^the image_url is on another site \(elsewhere\.test\)/) }]);
    // Without the client's address (no picture can be checked) a picture is refused, not passed on as written.
    expect(toDatabaseRows(rows.slice(0, 1), 'USD').problems).toEqual([{ row_index: 1, message: 'the image_url cannot be read here' }]);
  });
});

describe('money in a catalog file', () => {
  it('turns prices and costs into minor units of the currency: 2.50 USD is 250, 250 JPY is 250, 2.5 KWD is 2500', () => {
    const rows = [{ product_name: 'A', price: '2.50', cost: '1' }, { product_name: 'B', price: '0.5', cost: '' }];
    expect(toDatabaseRows(rows, 'USD')).toEqual({ problems: [], rows: [
      { product_name: 'A', price: '250', cost: '100' }, { product_name: 'B', price: '50', cost: '' }] });
    expect(toDatabaseRows([{ price: '250' }], 'JPY').rows).toEqual([{ price: '250' }]);
    expect(toDatabaseRows([{ price: '2.5' }, { price: '0.125' }], 'KWD').rows).toEqual([{ price: '2500' }, { price: '125' }]);
    // No currency recorded (stores in several currencies): two decimals, as the catalog shows them.
    expect(toDatabaseRows([{ price: '3.10' }], null).rows).toEqual([{ price: '310' }]);
  });

  it('names a cell that is not an amount of the currency with its row, instead of rounding or guessing', () => {
    const { problems } = toDatabaseRows([
      { price: '2.505' }, { price: '$2.50' }, { price: '1,250.00' }, { price: '-1' }, { price: '2.5' }, { price: '1234567890123' },
    ], 'USD');
    expect(problems).toEqual([
      { row_index: 1, message: 'the price "2.505": USD amounts have at most 2 decimals' },
      { row_index: 2, message: 'the price "$2.50": enter an amount such as 12.50' },
      { row_index: 3, message: 'the price "1,250.00": enter an amount such as 12.50' },
      { row_index: 4, message: 'the price "-1": enter an amount that is not negative' },
      { row_index: 6, message: 'the price "1234567890123": this amount is too large' },
    ]);
    expect(toDatabaseRows([{ price: '2.5' }], 'JPY').problems).toEqual([{ row_index: 1, message: 'the price "2.5": JPY amounts have no decimals' }]);
  });

  it('offers a template with every column and an example row in the currency\'s form', () => {
    const [header, example] = catalogTemplateCsv('USD').split('\r\n');
    expect(header).toBe(CATALOG_COLUMNS.map((c) => c.key).join(','));
    expect(example).toBe('Linen Shirt,each,Tops,Acme,Size,M,LINEN-M,25.00,11.00,4006381333931,,4');
    expect(catalogTemplateCsv('JPY').split('\r\n')[1]).toContain(',25,11,');
    expect(catalogTemplateCsv('KWD').split('\r\n')[1]).toContain(',25.000,11.000,');
    // The template parses back with no file errors, and its money converts.
    const parsed = parseCatalogCsv(bytes(catalogTemplateCsv('USD')));
    expect(parsed.errors).toEqual([]);
    expect(toDatabaseRows(parsed.rows, 'USD').rows[0]).toMatchObject({ price: '2500', cost: '1100' });
  });
});
