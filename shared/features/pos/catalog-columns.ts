import type { CatalogItem } from './cart';
import type { CatalogIndex } from './catalog-search';

/**
 * The packed catalog in the register's memory and in IndexedDB (ADR 0445), without an object per item. At 1,000,000
 * items an object each (with its barcode array and lower-cased copies of name and SKU) was ~370 MB of JS heap and
 * 750 MB of renderer memory, and reading the copy back from IndexedDB made 4,000,000 strings (2.1 s) before the index
 * (1.6 s more). Here a block's text columns are each one string (entries followed by '\n', with their start offsets),
 * ids one string of 36-character ids, numbers typed arrays: a structured clone of a few large strings and arrays, and
 * one lower-cased copy of the names and SKUs per block for search. Items are made when a scan or a search asks.
 */
export interface ColumnBlock {
  n: number;
  bodyRev: number;
  priceRev: number;
  count: number;
  /** The ids, 36 characters each, back to back. */
  ids: string;
  /** Entries each followed by '\n'; `*Starts[i]` is entry i's first character, `*Starts[count]` the text's length. */
  names: string;
  nameStarts: Int32Array;
  skus: string;
  skuStarts: Int32Array;
  /** Each item's barcodes, sorted and joined by a space. */
  codes: string;
  codeStarts: Int32Array;
  /** The variant's own price; a store price wins over it. */
  prices: Float64Array;
  /** The product's tax rate; NaN where it has none (the store's default then). */
  tax: Float64Array;
  /** 1 for items sold by weight (kg). */
  kg: Uint8Array;
}

const ID_LENGTH = 36;

/** A text column from its entries ('\n' inside an entry, which no code or SKU has, becomes a space). */
export function textColumn(entries: string[]): { text: string; starts: Int32Array } {
  const starts = new Int32Array(entries.length + 1);
  let at = 0;
  for (let i = 0; i < entries.length; i += 1) {
    starts[i] = at;
    at += (entries[i] as string).length + 1;
  }
  starts[entries.length] = at;
  const text = entries.length === 0 ? '' : `${entries.map((e) => (e.includes('\n') ? e.replaceAll('\n', ' ') : e)).join('\n')}\n`;
  return { text, starts };
}

export function joinIds(ids: string[]): string {
  if (ids.some((id) => id.length !== ID_LENGTH)) throw new Error('catalog block: an id is not a uuid');
  return ids.join('');
}

const entry = (text: string, starts: Int32Array, i: number) => text.slice(starts[i] ?? 0, (starts[i + 1] ?? 1) - 1);
export const idAt = (b: ColumnBlock, i: number) => b.ids.slice(i * ID_LENGTH, (i + 1) * ID_LENGTH);

/** Item i of a block as the till sells it: the store's price where it has one, its default tax where the product has none. */
export function itemAt(b: ColumnBlock, i: number, storePrices: Map<string, number>, defaultTaxRate: number): CatalogItem {
  const variantId = idAt(b, i);
  const codes = entry(b.codes, b.codeStarts, i);
  const tax = b.tax[i] ?? Number.NaN;
  return { variantId, name: entry(b.names, b.nameStarts, i), sku: entry(b.skus, b.skuStarts, i), barcodes: codes ? codes.split(' ') : [],
    price: storePrices.get(variantId) ?? b.prices[i] ?? 0, taxRate: Number.isNaN(tax) ? defaultTaxRate : tax, unit: b.kg[i] ? 'kg' : 'each' };
}

/** The entry whose text holds position `at` (starts ascending). */
function entryOf(starts: Int32Array, count: number, at: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Starts of the entries of a lower-cased copy: the same as the original's unless lower-casing changed a length. */
function lowerStarts(lower: string, original: string, starts: Int32Array, count: number): Int32Array {
  if (lower.length === original.length) return starts;
  const own = new Int32Array(count + 1);
  for (let i = 0, at = 0; i <= count; i += 1) {
    own[i] = at;
    at = lower.indexOf('\n', at) + 1;
  }
  return own;
}

/** FNV-1a over a string's characters from `from` to `to` (exclusive). */
function hashOf(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k += 1) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/** What a block's text gives the index: lower-cased names and SKUs for search, its codes' hash table for scans. */
interface BlockLookups {
  names: string;
  nameStarts: Int32Array;
  /** '\n' first, so a SKU's beginning is always found as '\n' + query. */
  skus: string;
  skuStarts: Int32Array;
  /** Open addressing: item number + 1 per slot (0: empty), slots a power of two at least twice the keys. */
  table: Int32Array;
}

/**
 * Kept per block text (its name offsets, which a prices-only update shares with the block it replaces): after a
 * delta only the blocks whose text changed are lower-cased and hashed again (~5 ms a block of 8,192), not all 128.
 */
const lookupsOf = new WeakMap<Int32Array, BlockLookups>();

function lookups(b: ColumnBlock): BlockLookups {
  const known = lookupsOf.get(b.nameStarts);
  if (known) return known;
  const names = b.names.toLowerCase();
  const skus = `\n${b.skus.toLowerCase()}`;
  let keys = b.count;
  for (let k = 0; k < b.codes.length; k += 1) if (b.codes.charCodeAt(k) === 32) keys += 1;
  keys += b.count;
  let slots = 16;
  while (slots < keys * 2) slots *= 2;
  const table = new Int32Array(slots);
  const put = (s: string, from: number, to: number, i: number) => {
    if (to <= from) return;
    for (let at = hashOf(s, from, to) & (slots - 1); ; at = (at + 1) & (slots - 1)) {
      if (table[at] === 0) {
        table[at] = i + 1;
        return;
      }
    }
  };
  for (let i = 0; i < b.count; i += 1) {
    put(b.skus, b.skuStarts[i] ?? 0, (b.skuStarts[i + 1] ?? 1) - 1, i);
    const end = (b.codeStarts[i + 1] ?? 1) - 1;
    for (let from = b.codeStarts[i] ?? 0; from < end;) {
      let to = b.codes.indexOf(' ', from);
      if (to < 0 || to > end) to = end;
      put(b.codes, from, to, i);
      from = to + 1;
    }
  }
  const found = { names, nameStarts: lowerStarts(names, b.names, b.nameStarts, b.count), skus,
    skuStarts: lowerStarts(skus.slice(1), b.skus, b.skuStarts, b.count), table };
  lookupsOf.set(b.nameStarts, found);
  return found;
}

/**
 * The till's index over column blocks (CatalogIndex): each block's codes and SKUs in its own open-addressing hash
 * table of item numbers (an Int32Array, not a Map of 2,000,000 strings; a scan hashes once and probes each block's
 * table), names and SKUs as one lower-cased string per block walked by indexOf.
 */
export function columnIndex(blocks: ColumnBlock[], storePrices: Map<string, number>, defaultTaxRate: number): CatalogIndex {
  const ordered = [...blocks].sort((a, b) => a.n - b.n);
  const derived = ordered.map(lookups);
  const size = ordered.reduce((sum, b) => sum + b.count, 0);
  const made = new Map<string, CatalogItem>();
  const item = (k: number, i: number): CatalogItem => {
    const b = ordered[k] as ColumnBlock;
    const key = `${b.n}:${i}`;
    let found = made.get(key);
    if (!found) {
      found = itemAt(b, i, storePrices, defaultTaxRate);
      made.set(key, found);
    }
    return found;
  };
  const has = (b: ColumnBlock, i: number, code: string) => entry(b.skus, b.skuStarts, i) === code
    || entry(b.codes, b.codeStarts, i).split(' ').includes(code);

  return {
    size,
    code(code) {
      if (!code) return undefined;
      const hash = hashOf(code, 0, code.length);
      for (let k = 0; k < ordered.length; k += 1) {
        const { table } = derived[k] as BlockLookups;
        const mask = table.length - 1;
        for (let at = hash & mask; table[at] !== 0; at = (at + 1) & mask) {
          const i = (table[at] as number) - 1;
          if (has(ordered[k] as ColumnBlock, i, code)) return item(k, i);
        }
      }
      return undefined;
    },
    scan(q, limit, skip) {
      const found: CatalogItem[] = [];
      const prefix = `\n${q}`;
      for (let k = 0; k < ordered.length && found.length < limit; k += 1) {
        const b = ordered[k] as ColumnBlock;
        const { names, skus, nameStarts, skuStarts } = derived[k] as BlockLookups;
        // The next item (in block order) whose name holds q, and whose SKU starts with it; the smaller one first.
        const nextName = (after: number) => {
          const at = names.indexOf(q, after < 0 ? 0 : (nameStarts[after + 1] ?? names.length));
          return at < 0 ? b.count : entryOf(nameStarts, b.count, at);
        };
        const nextSku = (after: number) => {
          // In `skus` (with its leading '\n') entry i starts at skuStarts[i] + 1, so '\n' + q at skuStarts[i] is entry i.
          const at = skus.indexOf(prefix, after < 0 ? 0 : (skuStarts[after + 1] ?? skus.length));
          return at < 0 ? b.count : entryOf(skuStarts, b.count, at);
        };
        let byName = nextName(-1);
        let bySku = nextSku(-1);
        while (found.length < limit && (byName < b.count || bySku < b.count)) {
          const i = Math.min(byName, bySku);
          const it = item(k, i);
          if (it.variantId !== skip) found.push(it);
          if (byName === i) byName = nextName(i);
          if (bySku === i) bySku = nextSku(i);
        }
      }
      return found;
    },
    variant(id) {
      for (let k = 0; k < ordered.length; k += 1) {
        const at = (ordered[k] as ColumnBlock).ids.indexOf(id);
        if (at >= 0 && at % ID_LENGTH === 0) return item(k, at / ID_LENGTH);
      }
      return undefined;
    },
  };
}
