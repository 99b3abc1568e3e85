import type { CatalogItem } from './cart';
import type { CatalogIndex } from './catalog-search';

/**
 * The packed catalog in the register's memory and in IndexedDB (ADR 0445), without an object per item. At 1,000,000
 * items an object each (with its barcode array and lower-cased copies of name and SKU) was ~370 MB of JS heap and
 * 750 MB of renderer memory, and reading the copy back from IndexedDB made 4,000,000 strings (2.1 s) before the index
 * (1.6 s more). Here a block's text columns are each one string (entries followed by '\n', with their start offsets),
 * numbers typed arrays: a structured clone of a few large strings and arrays, and one lower-cased copy of the names and
 * SKUs per block for search. Items are made when a scan or a search asks.
 *
 * ADR 0446 made a reload at 1,000,000 lighter: ids are 16 bytes each (not 36 characters: 20 MB less to read and to
 * hold), tax rates a palette (a byte an item), and the codes' hash table is built once, when the block arrives, and
 * stored with it (rebuilding it on every reload was ~0.25 s of the main thread).
 */
export interface ColumnBlock {
  n: number;
  bodyRev: number;
  priceRev: number;
  count: number;
  /** The ids as their 16 bytes, back to back, in the server's (id) order. */
  ids: Uint8Array;
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
  /** The block's distinct tax rates (NaN: the product has none, the store's default then), and each item's among them. */
  taxRates: Float64Array;
  taxOf: Uint8Array | Uint16Array;
  /** 1 for items sold by weight (kg). */
  kg: Uint8Array;
  /** Every SKU and barcode: open addressing, item number + 1 per slot (0: empty), a power of two over 4/3 of the keys. */
  codeTable: Int32Array;
}

const ID_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

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

/** A uuid's 16 bytes written at `at`; false when it is not a uuid. */
function writeId(out: Uint8Array, at: number, id: string): boolean {
  if (!UUID.test(id)) return false;
  const hex = id.replaceAll('-', '');
  for (let k = 0; k < ID_BYTES; k += 1) out[at + k] = Number.parseInt(hex.slice(2 * k, 2 * k + 2), 16);
  return true;
}

export function packIds(ids: string[]): Uint8Array {
  const out = new Uint8Array(ids.length * ID_BYTES);
  ids.forEach((id, i) => {
    if (!writeId(out, i * ID_BYTES, id)) throw new Error('catalog block: an id is not a uuid');
  });
  return out;
}

export function idAt(b: ColumnBlock, i: number): string {
  const at = i * ID_BYTES;
  let hex = '';
  for (let k = 0; k < ID_BYTES; k += 1) {
    if (k === 4 || k === 6 || k === 8 || k === 10) hex += '-';
    hex += HEX[b.ids[at + k] ?? 0];
  }
  return hex;
}

/** Item i's place in `b.ids` compared with the id bytes `key` (the ids are in order: a binary search finds one). */
function compareId(ids: Uint8Array, i: number, key: Uint8Array): number {
  const at = i * ID_BYTES;
  for (let k = 0; k < ID_BYTES; k += 1) {
    const d = (ids[at + k] ?? 0) - (key[k] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The palette of a tax column (null: none) and each entry's place in it. */
function taxPalette(tax: (number | null)[]): { taxRates: Float64Array; taxOf: Uint8Array | Uint16Array } {
  const rates: number[] = [];
  const place = new Map<number, number>();
  const of = tax.map((t) => {
    const rate = t === null || Number.isNaN(t) ? Number.NaN : t;
    let k = place.get(rate);
    if (k === undefined) {
      k = rates.push(rate) - 1;
      place.set(rate, k);
    }
    return k;
  });
  return { taxRates: Float64Array.from(rates), taxOf: rates.length <= 256 ? Uint8Array.from(of) : Uint16Array.from(of) };
}

const entry = (text: string, starts: Int32Array, i: number) => text.slice(starts[i] ?? 0, (starts[i + 1] ?? 1) - 1);

/** FNV-1a over a string's characters from `from` to `to` (exclusive). */
function hashOf(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k += 1) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/** The hash table of a block's SKUs and barcodes (ColumnBlock.codeTable). */
function codeTableOf(count: number, skus: { text: string; starts: Int32Array }, codes: { text: string; starts: Int32Array }, keys: number): Int32Array {
  let slots = 16;
  while (slots * 3 < keys * 4) slots *= 2;
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
  for (let i = 0; i < count; i += 1) {
    put(skus.text, skus.starts[i] ?? 0, (skus.starts[i + 1] ?? 1) - 1, i);
    const end = (codes.starts[i + 1] ?? 1) - 1;
    for (let from = codes.starts[i] ?? 0; from < end;) {
      let to = codes.text.indexOf(' ', from);
      if (to < 0 || to > end) to = end;
      put(codes.text, from, to, i);
      from = to + 1;
    }
  }
  return table;
}

/** What a block is made of, one entry an item in id order (parseBlock's columns, or a test's items). */
export interface BlockColumns {
  ids: string[];
  names: string[];
  skus: string[];
  /** Each item's barcodes, joined by a space ('' for none), as the server sends them. */
  codes: string[];
  prices: Float64Array;
  /** null: the product has no tax rate of its own. */
  tax: (number | null)[];
  kg: boolean[];
}

/** A block from its columns: texts joined, ids packed, the tax palette and the code table made once. */
export function columnBlock(head: { n: number; bodyRev: number; priceRev: number }, c: BlockColumns): ColumnBlock {
  const count = c.ids.length;
  const ids = packIds(c.ids);
  // The variant lookup searches a block by halves: the server sends it in id order.
  for (let i = 1; i < count; i += 1) {
    if (compareId(ids, i - 1, ids.subarray(i * ID_BYTES, (i + 1) * ID_BYTES)) >= 0) throw new Error('catalog block: ids out of order');
  }
  const names = textColumn(c.names);
  const skus = textColumn(c.skus);
  const codes = textColumn(c.codes);
  // At most one key per SKU, per item's first code and per space between codes (counted in the joined text, where a
  // line break inside a code became a space): the table must never fill.
  let keys = 2 * count;
  for (let at = codes.text.indexOf(' '); at >= 0; at = codes.text.indexOf(' ', at + 1)) keys += 1;
  return { ...head, count, ids, names: names.text, nameStarts: names.starts, skus: skus.text, skuStarts: skus.starts,
    codes: codes.text, codeStarts: codes.starts, prices: c.prices, ...taxPalette(c.tax), kg: Uint8Array.from(c.kg, (k) => (k ? 1 : 0)),
    codeTable: codeTableOf(count, skus, codes, keys) };
}

/** Item i of a block as the till sells it: the store's price where it has one, its default tax where the product has none. */
export function itemAt(b: ColumnBlock, i: number, storePrices: Map<string, number>, defaultTaxRate: number): CatalogItem {
  const variantId = idAt(b, i);
  const codes = entry(b.codes, b.codeStarts, i);
  const tax = b.taxRates[b.taxOf[i] ?? 0] ?? Number.NaN;
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

/** What a block's text gives search: lower-cased names and SKUs. */
interface BlockLookups {
  names: string;
  nameStarts: Int32Array;
  /** '\n' first, so a SKU's beginning is always found as '\n' + query. */
  skus: string;
  skuStarts: Int32Array;
}

/**
 * Kept per block text (its name offsets, which a prices-only update shares with the block it replaces): after a
 * delta only the blocks whose text changed are lower-cased again, not all 128.
 */
const lookupsOf = new WeakMap<Int32Array, BlockLookups>();

function lookups(b: ColumnBlock): BlockLookups {
  const known = lookupsOf.get(b.nameStarts);
  if (known) return known;
  const names = b.names.toLowerCase();
  const skus = `\n${b.skus.toLowerCase()}`;
  const found = { names, nameStarts: lowerStarts(names, b.names, b.nameStarts, b.count), skus,
    skuStarts: lowerStarts(skus.slice(1), b.skus, b.skuStarts, b.count) };
  lookupsOf.set(b.nameStarts, found);
  return found;
}

/**
 * Derives a block's lookups now (kept for its text): the copy's reader does it batch by batch while IndexedDB reads the
 * next batch, so the index over every block finds them ready.
 */
export function prepareLookups(b: ColumnBlock): void {
  lookups(b);
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
        const table = (ordered[k] as ColumnBlock).codeTable;
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
          // An empty query is found at the text's very end too, which is no entry.
          return at < 0 || at >= names.length ? b.count : entryOf(nameStarts, b.count, at);
        };
        const nextSku = (after: number) => {
          // In `skus` (with its leading '\n') entry i starts at skuStarts[i] + 1, so '\n' + q at skuStarts[i] is entry i.
          const at = skus.indexOf(prefix, after < 0 ? 0 : (skuStarts[after + 1] ?? skus.length));
          // The text's last '\n' ends the last entry and starts none.
          return at < 0 || at >= skus.length - 1 ? b.count : entryOf(skuStarts, b.count, at);
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
      const key = new Uint8Array(ID_BYTES);
      if (!writeId(key, 0, id)) return undefined;
      for (let k = 0; k < ordered.length; k += 1) {
        const b = ordered[k] as ColumnBlock;
        let lo = 0;
        let hi = b.count - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const d = compareId(b.ids, mid, key);
          if (d === 0) return item(k, mid);
          if (d < 0) lo = mid + 1;
          else hi = mid - 1;
        }
      }
      return undefined;
    },
  };
}
