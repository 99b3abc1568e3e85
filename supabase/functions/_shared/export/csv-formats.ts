/**
 * The CSV files Storewise reads and writes, one list of columns each: the catalog import reads CATALOG_CSV_COLUMNS
 * (shared/features/catalog/catalog-columns.ts keys its columns by it), the stock page writes STOCK_CSV_FIELDS, and the business
 * export (docs/adr/0290) writes all four with these same lists, so an export's products.csv imports unchanged.
 * No imports here: the web app, the tests and the Deno Edge Function all read this one file.
 */

/** The catalog import's columns (the header row names them; order is free, unknown columns are refused). */
export const CATALOG_CSV_COLUMNS = ['product_name', 'unit', 'category', 'brand', 'option_name', 'option_value', 'sku', 'price',
  'cost', 'barcode', 'image_url', 'opening_qty'] as const;

/** A store's stock as the stock page exports it. */
export const STOCK_CSV_FIELDS = ['sku', 'product_name', 'variant', 'unit', 'on_hand', 'reorder_point', 'target_level'] as const;

/** The business export's files: the stock file names the store of each row, the others are one row per record. */
export const EXPORT_CSV_COLUMNS = {
  products: CATALOG_CSV_COLUMNS,
  stock: ['store', ...STOCK_CSV_FIELDS],
  sales: ['receipt_number', 'occurred_at', 'store', 'customer', 'currency', 'subtotal', 'discount_total', 'tax_total',
    'cash_rounding', 'total', 'tendered_total', 'change_total'],
  customers: ['name', 'email', 'phone'],
} as const satisfies Record<string, readonly string[]>;

export type ExportCsvFile = keyof typeof EXPORT_CSV_COLUMNS;
