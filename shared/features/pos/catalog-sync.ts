import type { CatalogItem } from './cart';

/**
 * The register's copy of the store catalog, refreshed by delta (issue 13): the first load reads every sellable
 * item page by page; later loads ask pos_catalog(_since) for the rows changed since the last load (archived ones
 * included, so they leave the copy) and merge them. `since` is the newest changed_at the server returned, never
 * the device clock (a till's clock may be wrong), minus a small overlap: a row changed in a transaction that
 * committed after the last read but stamped before it is read again rather than missed.
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

export interface CatalogCopy {
  items: CatalogItem[];
  /** The newest changed_at seen (ISO), the next delta's starting point; null before the first full load. */
  since: string | null;
  /** The catalog version the copy was built with (another shape later means a full reload). */
  version: number;
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

/** Applies changed rows to the copy: upserts by variant, drops archived ones; keeps the order of the copy. */
export function mergeCatalog(items: CatalogItem[], rows: CatalogRow[]): CatalogItem[] {
  if (rows.length === 0) return items;
  const changed = new Map(rows.map((row) => [row.variant_id, row]));
  const merged: CatalogItem[] = [];
  for (const item of items) {
    const row = changed.get(item.variantId);
    if (!row) merged.push(item);
    else {
      changed.delete(item.variantId);
      if (!row.archived) merged.push(toItem(row));
    }
  }
  for (const row of changed.values()) if (!row.archived) merged.push(toItem(row));
  return merged;
}

/** The newest changed_at among rows (ISO text compares in time order when the server sends one format). */
export function newestChange(rows: CatalogRow[], since: string | null): string | null {
  let latest = since;
  for (const row of rows) latest = newest(latest, row.changed_at ? new Date(row.changed_at).toISOString() : null);
  return latest;
}

export type CatalogPageFetcher = (args: { after: string | null; since: string | null }) => Promise<CatalogRow[]>;

/**
 * Brings a copy up to date: a full load when there is none (or it is of another version), else a delta from
 * `since - overlap`. Reads pages of CATALOG_PAGE by keyset until a short page.
 */
export async function refreshCatalog(copy: CatalogCopy | null | undefined, fetchPage: CatalogPageFetcher)
  : Promise<{ copy: CatalogCopy; mode: 'full' | 'delta'; rows: number }> {
  const delta = copy && copy.version === CATALOG_COPY_VERSION && copy.since;
  const since = delta ? new Date(new Date(copy.since as string).getTime() - DELTA_OVERLAP_MS).toISOString() : null;
  const rows: CatalogRow[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await fetchPage({ after, since });
    rows.push(...page);
    if (page.length < CATALOG_PAGE) break;
    after = page[page.length - 1]?.variant_id ?? null;
  }
  if (delta) {
    return { copy: { items: mergeCatalog(copy.items, rows), since: newestChange(rows, copy.since), version: CATALOG_COPY_VERSION },
      mode: 'delta', rows: rows.length };
  }
  return { copy: { items: rows.filter((r) => !r.archived).map(toItem), since: newestChange(rows, null), version: CATALOG_COPY_VERSION },
    mode: 'full', rows: rows.length };
}
