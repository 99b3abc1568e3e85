import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CatalogItem } from './cart';
import { blockOf, parseBlock, parseList, type BlockAnswer, type BlockList, type BlockSource } from './catalog-blocks';
import { loadPackedCatalog, openBlocksDb, planDelta, priceCallsOf } from './catalog-packed-store';
import type { LoadProgress } from './catalog-packed-store';

/** A uuid-shaped id whose order is the number's. */
const idOf = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;

interface Variant { id: string; name: string; sku: string; codes: string; price: number; tax: number | null; kg: boolean }

/**
 * A server of blocks over a variant list, as the migration answers: revisions from one counter, moved by `change`
 * (body: names, codes, archiving; else prices alone), json values parsed by the register's own parsers.
 */
function server(variants: Variant[], bits = 2) {
  let rev = 1;
  const revs = new Map<number, { body: number; price: number }>();
  for (let n = 0; n < 1 << bits; n += 1) revs.set(n, { body: rev, price: rev });
  let all = [...variants];
  const storePrices = new Map<string, number>();
  let defaultTax = 8;
  const asked: string[] = [];
  const inBlock = (n: number) => all.filter((v) => blockOf(v.id, bits) === n).sort((a, b) => a.id.localeCompare(b.id));
  const source: BlockSource = {
    list: async () => parseList({ bits, default_tax_rate: defaultTax,
      blocks: [...revs].map(([n, r]) => [n, r.body, r.price, inBlock(n).length]) }),
    block: async (n, askedBits, body): Promise<BlockAnswer> => {
      asked.push(`${n}:${body ? 'body' : 'prices'}`);
      const vs = inBlock(n);
      const r = revs.get(n);
      return parseBlock({ bits, n, body_rev: r?.body, price_rev: r?.price, items: vs.length, prices: vs.map((v) => v.price),
        body: body ? { ids: vs.map((v) => v.id), names: vs.map((v) => v.name), skus: vs.map((v) => v.sku),
          codes: vs.map((v) => v.codes), tax: vs.map((v) => v.tax), kg: vs.map((v) => (v.kg ? 1 : 0)), lots: vs.map(() => 0) } : null },
      askedBits);
    },
    prices: async (ns, askedBits) => {
      asked.push(`${ns.join(',')}:prices`);
      if (askedBits !== bits) return [];
      return ns.map((n) => ({ kind: 'prices' as const, n, priceRev: revs.get(n)?.price ?? 0, prices: Float64Array.from(inBlock(n), (v) => v.price) }));
    },
    storePrices: async () => ({ ids: [...storePrices.keys()], prices: [...storePrices.values()] }),
  };
  const touch = (ids: string[], body: boolean) => {
    for (const n of new Set(ids.map((id) => blockOf(id, bits)))) {
      const r = revs.get(n) as { body: number; price: number };
      rev += 1;
      if (body) r.body = rev;
      r.price = rev;
    }
  };
  return {
    source, asked, storePrices,
    setPrice(ids: string[], price: number) {
      all = all.map((v) => (ids.includes(v.id) ? { ...v, price } : v));
      touch(ids, false);
    },
    rename(id: string, name: string) {
      all = all.map((v) => (v.id === id ? { ...v, name } : v));
      touch([id], true);
    },
    remove(id: string) {
      all = all.filter((v) => v.id !== id);
      touch([id], true);
    },
    setDefaultTax: (t: number) => { defaultTax = t; },
  };
}

const spread = (count: number): Variant[] => Array.from({ length: count }, (_, i) => {
  const n = Math.floor((i * 0xffff_ffff) / count);
  return { id: idOf(n), name: `Item ${i}`, sku: `SKU${i}`, codes: i % 3 === 0 ? '' : `40${String(i).padStart(11, '0')}`, price: 100 + i,
    tax: i % 2 === 0 ? null : 5, kg: i % 7 === 0 };
});

let dbCount = 0;
const freshDb = () => openBlocksDb(`blocks-test-${(dbCount += 1)}`);

async function load(s: ReturnType<typeof server>, db: Awaited<ReturnType<typeof freshDb>>, progress?: LoadProgress[]) {
  const shown: CatalogItem[][] = [];
  // Every item in catalog order: an empty query is in every name.
  await loadPackedCatalog({ storeId: 's', source: s.source, db, isStale: () => false, onCatalog: (index) => shown.push(index.scan('', index.size)),
    onProgress: (p) => progress?.push(p) });
  return shown;
}

describe('the packed catalog on the device', () => {
  it('loads every block on a cold load, in id order, with the store\'s default tax and prices, and reports progress', async () => {
    const s = server(spread(400));
    s.storePrices.set(idOf(0), 55);
    const progress: LoadProgress[] = [];
    const shown = await load(s, await freshDb(), progress);
    expect(shown).toHaveLength(1);
    const items = shown[0] ?? [];
    expect(items).toHaveLength(400);
    expect(items.map((i) => i.variantId)).toEqual([...items.map((i) => i.variantId)].sort());
    expect(new Set(items.map((i) => i.variantId)).size).toBe(400);
    expect(items[0]?.price).toBe(55);
    expect(items[1]).toEqual({ variantId: items[1]?.variantId, name: 'Item 1', sku: 'SKU1', barcodes: ['4000000000001'], price: 101,
      taxRate: 5, unit: 'each' });
    expect(items[0]?.taxRate).toBe(8);
    expect(items[0]?.unit).toBe('kg');
    expect(s.asked.sort()).toEqual(['0:body', '1:body', '2:body', '3:body']);
    expect(progress.at(-1)).toMatchObject({ done: true, loaded: 400, fraction: 1 });
    expect(progress.filter((p) => !p.done).map((p) => p.fraction)).toEqual([0.25, 0.5, 0.75, 1]);
  });

  it('a later load shows the copy, then fetches only the prices of the blocks whose prices moved', async () => {
    const s = server(spread(400));
    const db = await freshDb();
    await load(s, db);
    const moved = idOf(Math.floor((5 * 0xffff_ffff) / 400));
    s.setPrice([moved], 999);
    s.asked.length = 0;
    const shown = await load(s, db);
    expect(s.asked).toEqual([`${blockOf(moved, 2)}:prices`]);
    expect(shown).toHaveLength(2);
    expect(shown[0]?.find((i) => i.variantId === moved)?.price).toBe(105);
    expect(shown[1]?.find((i) => i.variantId === moved)?.price).toBe(999);
    // Written: the next load fetches nothing and shows the new price from the copy.
    s.asked.length = 0;
    const again = await load(s, db);
    expect(s.asked).toEqual([]);
    expect(again[0]?.find((i) => i.variantId === moved)?.price).toBe(999);
  });

  it('a bulk price change fetches every block\'s prices and no body', async () => {
    const variants = spread(400);
    const s = server(variants);
    const db = await freshDb();
    await load(s, db);
    s.setPrice(variants.map((v) => v.id), 1234);
    s.asked.length = 0;
    const shown = await load(s, db);
    // One call for the four blocks' prices.
    expect(s.asked).toEqual(['0,1,2,3:prices']);
    expect(shown.at(-1)?.every((i) => i.price === 1234)).toBe(true);
  });

  it('a bulk change over many blocks fetches their prices in four calls, and applies every one', async () => {
    // 128 blocks (bits 7), as at 1,000,000 variants: four calls of 32 blocks, asked together.
    const variants = spread(1280);
    const s = server(variants, 7);
    const db = await freshDb();
    await load(s, db);
    s.setPrice(variants.map((v) => v.id), 4242);
    s.asked.length = 0;
    const shown = await load(s, db);
    expect(s.asked).toHaveLength(4);
    const asked = s.asked.map((call) => call.replace(':prices', '').split(',').map(Number));
    expect(asked.map((ns) => ns.length)).toEqual([32, 32, 32, 32]);
    expect(asked.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 128 }, (_, n) => n));
    expect(shown.at(-1)).toHaveLength(1280);
    expect(shown.at(-1)?.every((i) => i.price === 4242)).toBe(true);
  });

  it('splits price calls: small sets in one call, large ones in four, none past the server\'s 256 a call', () => {
    const blocks = (count: number) => Array.from({ length: count }, (_, n) => n);
    expect(priceCallsOf([])).toEqual([]);
    expect(priceCallsOf(blocks(16))).toEqual([blocks(16)]);
    expect(priceCallsOf(blocks(40)).map((c) => c.length)).toEqual([16, 16, 8]);
    expect(priceCallsOf(blocks(4096)).map((c) => c.length)).toEqual(Array.from({ length: 16 }, () => 256));
    expect(priceCallsOf(blocks(4096)).flat()).toEqual(blocks(4096));
  });

  it('a renamed or removed item re-reads its block, and the index finds the new name', async () => {
    const variants = spread(400);
    const s = server(variants);
    const db = await freshDb();
    await load(s, db);
    s.rename(variants[10]?.id ?? '', 'Renamed Thing');
    s.remove(variants[300]?.id ?? '');
    s.asked.length = 0;
    const shown = await load(s, db);
    expect(s.asked.sort()).toEqual([`${blockOf(variants[10]?.id ?? '', 2)}:body`, `${blockOf(variants[300]?.id ?? '', 2)}:body`].sort());
    const items = shown.at(-1) ?? [];
    expect(items).toHaveLength(399);
    expect(items.find((i) => i.variantId === variants[10]?.id)?.name).toBe('Renamed Thing');
    expect(items.some((i) => i.variantId === variants[300]?.id)).toBe(false);
  });

  it('a store price set or removed elsewhere changes that item only; a new default tax re-reads no block', async () => {
    const variants = spread(400);
    const s = server(variants);
    const db = await freshDb();
    s.storePrices.set(variants[2]?.id ?? '', 77);
    await load(s, db);
    s.storePrices.delete(variants[2]?.id ?? '');
    s.storePrices.set(variants[4]?.id ?? '', 66);
    s.setDefaultTax(10);
    s.asked.length = 0;
    const items = (await load(s, db)).at(-1) ?? [];
    expect(s.asked).toEqual([]);
    expect(items.find((i) => i.variantId === variants[2]?.id)?.price).toBe(102);
    expect(items.find((i) => i.variantId === variants[4]?.id)?.price).toBe(66);
    expect(items.find((i) => i.variantId === variants[0]?.id)?.taxRate).toBe(10);
  });

  it('reads a copy of many blocks in batches, and asks for the moved block before the copy is on screen', async () => {
    // 64 blocks: sixteen batches of 4 read back from IndexedDB.
    const variants = spread(2000);
    const s = server(variants, 6);
    const db = await freshDb();
    await load(s, db);
    const moved = variants[1500]?.id ?? '';
    s.setPrice([moved], 4321);
    const events: string[] = [];
    const priced = s.source.prices;
    const source: BlockSource = { ...s.source, prices: (ns, bits) => {
      events.push(`asked ${ns.join(',')}`);
      return priced(ns, bits);
    } };
    const shown: CatalogItem[][] = [];
    await loadPackedCatalog({ storeId: 's', source, db, isStale: () => false, onCatalog: (index) => {
      events.push('shown');
      shown.push(index.scan('', index.size));
    } });
    // The delta is planned from the copy's revisions alone, so its call goes out while the copy is still being read.
    expect(events).toEqual([`asked ${blockOf(moved, 6)}`, 'shown', 'shown']);
    expect(shown.map((items) => items.length)).toEqual([2000, 2000]);
    expect(shown[0]?.map((i) => i.variantId)).toEqual(variants.map((v) => v.id));
    expect(shown[0]?.find((i) => i.variantId === moved)?.price).toBe(1600);
    expect(shown[1]?.find((i) => i.variantId === moved)?.price).toBe(4321);
    expect(shown[1]?.[1999]).toEqual({ variantId: variants[1999]?.id, name: 'Item 1999', sku: 'SKU1999', barcodes: ['4000000001999'],
      price: 2099, taxRate: 5, unit: 'each' });
  });

  it('offline, the copy is what it sells from', async () => {
    const s = server(spread(100));
    const db = await freshDb();
    await load(s, db);
    const down = { ...s, source: { list: () => Promise.reject(new Error('offline')), block: () => Promise.reject(new Error('offline')),
      prices: () => Promise.reject(new Error('offline')), storePrices: () => Promise.reject(new Error('offline')) } };
    const shown = await load(down, db);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toHaveLength(100);
  });

  it('plans a delta from the revisions', () => {
    const list: BlockList = { bits: 2, defaultTaxRate: 0, blocks: [
      { n: 0, bodyRev: 1, priceRev: 1, items: 1 }, { n: 1, bodyRev: 2, priceRev: 5, items: 1 }, { n: 2, bodyRev: 6, priceRev: 6, items: 1 }] };
    expect(planDelta([[0, 1, 1], [1, 2, 2], [2, 3, 3], [3, 4, 4]], list)).toEqual({ bodies: [2], prices: [1], dropped: [3] });
  });

  it('rejects a block whose columns differ in length, and says when the catalog was cut anew', () => {
    const body = { ids: ['a'], names: ['x'], skus: ['s'], codes: [''], tax: [null], kg: [0], lots: [0] };
    expect(() => parseBlock({ bits: 0, n: 0, body_rev: 1, price_rev: 1, body, prices: [] }, 0)).toThrow(/lengths/);
    expect(parseBlock({ bits: 1 }, 0)).toEqual({ kind: 'recut' });
    expect(() => parseList({ bits: 13, default_tax_rate: 0, blocks: [] })).toThrow();
  });
});
