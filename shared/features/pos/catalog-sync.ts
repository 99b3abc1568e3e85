import type { CatalogItem } from './cart';

/**
 * The rows pos_catalog returns and how they become the register's items (issue 13). The copy on the device,
 * its full load and its deltas live in catalog-store.ts. A delta starts from the newest changed_at the server
 * returned, never the device clock (a till's clock may be wrong), minus a small overlap: a row changed in a
 * transaction that committed after the last read but stamped before it is read again rather than missed.
 */
export interface CatalogRow {
  variant_id: string;
  name: string;
  sku: string;
  barcodes: string[] | null;
  price: number | string;
  tax_rate: number | string;
  unit: string;
  archived?: boolean | null;
  changed_at?: string | null;
}

export const CATALOG_COPY_VERSION = 1;
/** How far back a delta reads before the newest change it saw (see above). */
export const DELTA_OVERLAP_MS = 5 * 60 * 1000;
export const CATALOG_PAGE = 1000;

export function toItem(row: CatalogRow): CatalogItem {
  return { variantId: row.variant_id, name: row.name, sku: row.sku, barcodes: row.barcodes ?? [], price: Number(row.price),
    taxRate: Number(row.tax_rate), unit: row.unit === 'kg' ? 'kg' : 'each' };
}

const newest = (a: string | null, b: string | null | undefined) => (!b ? a : !a || b > a ? b : a);

/** The newest changed_at among rows (ISO text compares in time order when the server sends one format). */
export function newestChange(rows: CatalogRow[], since: string | null): string | null {
  let latest = since;
  for (const row of rows) latest = newest(latest, row.changed_at ? new Date(row.changed_at).toISOString() : null);
  return latest;
}
