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
/** How far back a delta reads before the newest change it saw (see above); the customers' copy reads the same way. */
export const DELTA_OVERLAP_MS = 5 * 60 * 1000;

/** Where a delta starts reading: `since` (the newest change seen, in server time) less DELTA_OVERLAP_MS. */
export const deltaStart = (since: string): string => new Date(Date.parse(since) - DELTA_OVERLAP_MS).toISOString();
export const CATALOG_PAGE = 1000;

export function toItem(row: CatalogRow): CatalogItem {
  return { variantId: row.variant_id, name: row.name, sku: row.sku, barcodes: row.barcodes ?? [], price: Number(row.price),
    taxRate: Number(row.tax_rate), unit: row.unit === 'kg' ? 'kg' : 'each' };
}

/** The newest of `since` and the stamps, as ISO text (which compares in time order once in one format). */
export function newestStamp(stamps: (string | null | undefined)[], since: string | null): string | null {
  let latest = since;
  for (const stamp of stamps) {
    const at = stamp ? new Date(stamp).toISOString() : null;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

/** The newest changed_at among rows. */
export const newestChange = (rows: CatalogRow[], since: string | null): string | null =>
  newestStamp(rows.map((row) => row.changed_at), since);
