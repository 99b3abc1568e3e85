import type { CATALOG_CSV_COLUMNS } from '../../../supabase/functions/_shared/export/csv-formats';

/**
 * The catalog file's columns, in one place: the import reads these headers, the export and the template write them
 * in this order, and the import panel lists them. A new column (a product image's address, say) is one entry here
 * plus its handling in the database's import.
 */
export interface CatalogColumn {
  /** One of the business export's products.csv columns (csv-formats.ts), so an export imports unchanged. */
  key: (typeof CATALOG_CSV_COLUMNS)[number];
  /** For the import panel's help and the template's example row. */
  help: string;
  /** For money columns: whole units, written with the currency's decimals ("25.00", JPY "25", KWD "25.000"). */
  example: string;
  required?: boolean;
  /** An amount of money in the catalog's currency ("2.50"), sent to the database in minor units. */
  money?: boolean;
  /** Written by the export only with cost access (owners and managers). */
  costAccess?: boolean;
  /** Not written by the export (a file that sets up new items only). */
  importOnly?: boolean;
}

export const CATALOG_COLUMNS = [
  { key: 'product_name', help: 'the product\'s name', example: 'Linen Shirt', required: true },
  { key: 'unit', help: '"each" or "kg"', example: 'each' },
  { key: 'category', help: 'created when new', example: 'Tops' },
  { key: 'brand', help: 'optional', example: 'Acme' },
  { key: 'option_name', help: 'such as Size', example: 'Size' },
  { key: 'option_value', help: 'such as M', example: 'M' },
  { key: 'sku', help: 'an existing SKU updates that item', example: 'LINEN-M' },
  { key: 'price', help: 'money, such as 2.50', example: '25', required: true, money: true },
  { key: 'cost', help: 'money, optional', example: '11', money: true, costAccess: true },
  { key: 'barcode', help: '8, 12 or 13 digits', example: '4006381333931' },
  // A picture already in this business's product images (ADR 0371): it becomes the product's main picture.
  { key: 'image_url', help: 'the address of a picture in your product images, made the main one', example: '' },
  { key: 'opening_qty', help: 'new items only, into the chosen store', example: '4', importOnly: true },
] as const satisfies readonly CatalogColumn[];

export type CatalogColumnKey = (typeof CATALOG_COLUMNS)[number]['key'];
export type CsvRow = Partial<Record<CatalogColumnKey, string>>;

export const COLUMN_KEYS: readonly string[] = CATALOG_COLUMNS.map((c) => c.key);

const columnInfo = (c: CatalogColumn) => c;

/** The columns an export writes (the cost only with cost access). */
export function exportColumns(withCost: boolean): CatalogColumnKey[] {
  return CATALOG_COLUMNS.filter((c) => !columnInfo(c).importOnly && (withCost || !columnInfo(c).costAccess)).map((c) => c.key);
}

/** The columns holding money. */
export const MONEY_COLUMNS: CatalogColumnKey[] = CATALOG_COLUMNS.filter((c) => columnInfo(c).money).map((c) => c.key);
