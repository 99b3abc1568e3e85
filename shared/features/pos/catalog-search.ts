import type { CatalogItem } from './cart';

/**
 * Lookups over the register's catalog in memory (ADR 0161), built once per catalog rather than per keystroke or
 * per render: a map from every barcode and SKU to its item (a scan is one map read), and the names and SKUs
 * already lower-cased for search, so a keystroke compares strings instead of lower-casing 100,000 names again.
 */
export interface CatalogIndex {
  items: CatalogItem[];
  byCode: Map<string, CatalogItem>;
  names: string[];
  skus: string[];
}

const built = new WeakMap<CatalogItem[], CatalogIndex>();

/** The index of a catalog list, built on first use and kept with the list (the same list gives the same index). */
export function indexCatalog(items: CatalogItem[]): CatalogIndex {
  const cached = built.get(items);
  if (cached) return cached;
  const byCode = new Map<string, CatalogItem>();
  const names = new Array<string>(items.length);
  const skus = new Array<string>(items.length);
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as CatalogItem;
    byCode.set(item.sku, item);
    for (const code of item.barcodes) byCode.set(code, item);
    names[i] = item.name.toLowerCase();
    skus[i] = item.sku.toLowerCase();
  }
  const index = { items, byCode, names, skus };
  built.set(items, index);
  return index;
}

/**
 * The index of the list after a delta: `replaced` maps a variant to its new item (null: archived, removed), `added`
 * come last (as catalog-store.ts keeps them). One pass copies the lower-cased columns of unchanged items; the code
 * map is updated in place (the previous index is not used after this).
 */
export function patchIndex(prev: CatalogIndex, replaced: Map<string, CatalogItem | null>, added: CatalogItem[]): CatalogIndex {
  const { byCode } = prev;
  const unmap = (item: CatalogItem) => {
    for (const code of [item.sku, ...item.barcodes]) if (byCode.get(code) === item) byCode.delete(code);
  };
  const map = (item: CatalogItem) => {
    byCode.set(item.sku, item);
    for (const code of item.barcodes) byCode.set(code, item);
  };
  const items: CatalogItem[] = [];
  const names: string[] = [];
  const skus: string[] = [];
  for (let i = 0; i < prev.items.length; i += 1) {
    const item = prev.items[i] as CatalogItem;
    if (!replaced.has(item.variantId)) {
      items.push(item);
      names.push(prev.names[i] as string);
      skus.push(prev.skus[i] as string);
      continue;
    }
    unmap(item);
    const next = replaced.get(item.variantId);
    if (next) {
      items.push(next);
      names.push(next.name.toLowerCase());
      skus.push(next.sku.toLowerCase());
    }
  }
  // Mapped after every removal, so a code moved from one item to another ends on the new one.
  for (const next of replaced.values()) if (next) map(next);
  for (const item of added) {
    map(item);
    items.push(item);
    names.push(item.name.toLowerCase());
    skus.push(item.sku.toLowerCase());
  }
  const index = { items, byCode, names, skus };
  built.set(items, index);
  return index;
}

/** The item a scanned or typed code names (barcode or SKU, as typed or upper-cased). */
export function lookupCode(index: CatalogIndex, code: string): CatalogItem | undefined {
  const trimmed = code.trim();
  return index.byCode.get(trimmed) ?? index.byCode.get(trimmed.toUpperCase());
}

/**
 * Items whose name contains the query, whose SKU starts with it or that have it as a barcode, in catalog order,
 * at most `limit`: a barcode is one map read, then one pass that stops at the limit.
 */
export function searchCatalog(index: CatalogIndex, query: string, limit = 8): CatalogItem[] {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const found: CatalogItem[] = [];
  const exact = index.byCode.get(query.trim());
  if (exact && exact.barcodes.includes(query.trim())) found.push(exact);
  const { items, names, skus } = index;
  for (let i = 0; i < items.length && found.length < limit; i += 1) {
    if (((names[i] as string).includes(q) || (skus[i] as string).startsWith(q)) && items[i] !== exact) found.push(items[i] as CatalogItem);
  }
  return found;
}
