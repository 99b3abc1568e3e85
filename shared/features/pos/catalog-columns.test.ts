import { describe, expect, it } from 'vitest';
import type { CatalogItem } from './cart';
import { columnBlock, columnIndex, packIds, textColumn, type ColumnBlock } from './catalog-columns';
import { indexCatalog, lookupCode, searchCatalog } from './catalog-search';

const idOf = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** Column blocks of the items, `per` to a block, as parseBlock makes them (prices the variants' own, tax NaN = none). */
function blocksOf(items: (CatalogItem & { ownTax: number | null })[], per: number): ColumnBlock[] {
  const blocks: ColumnBlock[] = [];
  for (let n = 0; n * per < items.length; n += 1) {
    const part = items.slice(n * per, (n + 1) * per);
    blocks.push(columnBlock({ n, bodyRev: 1, priceRev: 1 }, { ids: part.map((i) => i.variantId), names: part.map((i) => i.name),
      skus: part.map((i) => i.sku), codes: part.map((i) => [...i.barcodes].sort().join(' ')), prices: Float64Array.from(part, (i) => i.price),
      tax: part.map((i) => i.ownTax), kg: part.map((i) => i.unit === 'kg') }));
  }
  return blocks;
}

const words = ['Yogurt', 'Frozen', 'Bread', 'İstanbul', 'Apple', 'Cheddar', 'Brd', 'Kefir', 'ÉCLAIR', 'Oat'];
/** A catalog with repeated words, SKUs sharing beginnings, 0 to 3 barcodes, kg items, some without their own tax. */
const catalog = (count: number) => Array.from({ length: count }, (_, i) => ({
  variantId: idOf(i * 7919), name: `${words[i % 10]} ${words[(i * 3) % 10]} ${i}`, sku: `SK-${i % 50}-${i}`,
  barcodes: Array.from({ length: i % 4 }, (_, k) => `${400 + k}${String(i).padStart(10, '0')}`), price: 100 + i,
  taxRate: i % 3 === 0 ? 8 : 5, ownTax: i % 3 === 0 ? null : 5, unit: (i % 11 === 0 ? 'kg' : 'each') as CatalogItem['unit'] }));

describe('the column index answers as the list index does', () => {
  const items = catalog(600);
  const plain = items.map(({ ownTax: _, ...item }) => item);
  const list = indexCatalog(plain);
  const columns = columnIndex(blocksOf(items, 64), new Map(), 8);

  it('counts the items and finds each by every barcode, by its SKU, and by variant', () => {
    expect(columns.size).toBe(600);
    for (const item of plain) {
      for (const code of [...item.barcodes, item.sku]) expect(lookupCode(columns, code), code).toEqual(item);
      expect(columns.variant(item.variantId)).toEqual(item);
    }
    expect(lookupCode(columns, ' sk-3-3 ')).toEqual(plain[3]);
    expect(lookupCode(columns, '4000000000000')).toBeUndefined();
    expect(lookupCode(columns, '')).toBeUndefined();
    expect(columns.variant(idOf(5))).toBeUndefined();
  });

  it('searches names inside, SKUs from their beginning, barcodes exactly, in catalog order, to the limit', () => {
    for (const q of ['yog', 'Frozen Bread', 'istan', 'i̇stan', 'éclair', 'sk-1', 'SK-12-', 'brd', 'r 1', '4010000000005', 'zzz', 'y', '12']) {
      for (const limit of [1, 8, 1000]) expect(searchCatalog(columns, q, limit), `${q} / ${limit}`).toEqual(searchCatalog(list, q, limit));
    }
    expect(searchCatalog(columns, 'sk-1', 1000).length).toBeGreaterThan(100);
  });

  it('sells at the store\'s own price where it has one, at its default tax where the product has none', () => {
    const priced = columnIndex(blocksOf(items, 64), new Map([[idOf(7919 * 4), 5]]), 10);
    expect(priced.variant(idOf(7919 * 4))?.price).toBe(5);
    expect(priced.variant(idOf(7919 * 3))).toMatchObject({ price: 103, taxRate: 10 });
    expect(priced.variant(idOf(7919 * 4))?.taxRate).toBe(5);
  });

  it('gives the same object for an item asked twice (the cart\'s memoised rows compare them)', () => {
    expect(lookupCode(columns, plain[9]?.sku ?? '')).toBe(columns.variant(plain[9]?.variantId ?? ''));
  });

  it('keeps a text column\'s entries apart even when one holds a line break', () => {
    const { text, starts } = textColumn(['a\nb', '', 'c']);
    expect(text).toBe('a b\n\nc\n');
    expect([...starts]).toEqual([0, 4, 5, 7]);
    expect(() => packIds(['short'])).toThrow(/uuid/);
  });

  it('refuses a block whose ids are not in order (a variant is found by halving the block)', () => {
    const columns = { names: ['a', 'b'], skus: ['A', 'B'], codes: ['', ''], prices: Float64Array.from([1, 2]), tax: [null, null], kg: [false, false] };
    expect(() => columnBlock({ n: 0, bodyRev: 1, priceRev: 1 }, { ...columns, ids: [idOf(2), idOf(1)] })).toThrow(/order/);
    const block = columnBlock({ n: 0, bodyRev: 1, priceRev: 1 }, { ...columns, ids: [idOf(1), idOf(2)] });
    expect(block.ids).toHaveLength(32);
    expect(columnIndex([block], new Map(), 0).variant(idOf(2).toUpperCase())?.name).toBe('b');
    expect(columnIndex([block], new Map(), 0).variant('not-a-uuid')).toBeUndefined();
  });
});
