import type { CatalogItem } from './cart';

/**
 * Lookups over the register's catalog in memory (ADR 0161), built once per catalog rather than per keystroke or
 * per render: a map from every barcode and SKU to its item (a scan is one map read), and the names and SKUs
 * already lower-cased for search, so a keystroke compares strings instead of lower-casing 100,000 names again.
 */
/**
 * What the till asks of its catalog. Two shapes answer it: the list of items below (tests, the row-by-row copy of
 * ADR 0161) and the packed copy's columns (catalog-columns.ts, ADR 0445: no object per item, for 1,000,000 items).
 */
export interface CatalogIndex {
  readonly size: number;
  /** The item a code names exactly (a barcode or a SKU, as given). */
  code(code: string): CatalogItem | undefined;
  /** Items whose lower-cased name contains `q` or whose lower-cased SKU starts with it, in catalog order, at most `limit`, without `skip`. */
  scan(q: string, limit: number, skip?: string): CatalogItem[];
  variant(id: string): CatalogItem | undefined;
}

export interface ListIndex extends CatalogIndex {
  items: CatalogItem[];
  byCode: Map<string, CatalogItem>;
  names: string[];
  skus: string[];
}

const built = new WeakMap<CatalogItem[], ListIndex>();

function listIndex(items: CatalogItem[], byCode: Map<string, CatalogItem>, names: string[], skus: string[]): ListIndex {
  let byVariant: Map<string, CatalogItem> | null = null;
  return {
    items, byCode, names, skus, size: items.length,
    code: (code) => byCode.get(code),
    scan(q, limit, skip) {
      const found: CatalogItem[] = [];
      for (let i = 0; i < items.length && found.length < limit; i += 1) {
        const item = items[i] as CatalogItem;
        if (((names[i] as string).includes(q) || (skus[i] as string).startsWith(q)) && item.variantId !== skip) found.push(item);
      }
      return found;
    },
    variant(id) {
      byVariant ??= new Map(items.map((item) => [item.variantId, item]));
      return byVariant.get(id);
    },
  };
}

/** The index of a catalog list, built on first use and kept with the list (the same list gives the same index). */
export function indexCatalog(items: CatalogItem[]): ListIndex {
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
  const index = listIndex(items, byCode, names, skus);
  built.set(items, index);
  return index;
}

/** The item a scanned or typed code names (barcode or SKU, as typed or upper-cased). */
export function lookupCode(index: CatalogIndex, code: string): CatalogItem | undefined {
  const trimmed = code.trim();
  return index.code(trimmed) ?? index.code(trimmed.toUpperCase());
}

/**
 * Items whose name contains the query, whose SKU starts with it or that have it as a barcode, in catalog order,
 * at most `limit`: a barcode is one map read, then one pass that stops at the limit.
 */
export function searchCatalog(index: CatalogIndex, query: string, limit = 8): CatalogItem[] {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const exact = index.code(query.trim());
  const first = exact && exact.barcodes.includes(query.trim()) ? [exact] : [];
  return [...first, ...index.scan(q, limit - first.length, first[0]?.variantId)];
}
