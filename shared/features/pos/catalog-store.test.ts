import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CatalogRow } from './catalog-sync';
import { CATALOG_PAGE, DELTA_OVERLAP_MS } from './catalog-sync';
import { indexCatalog, lookupCode, patchIndex, searchCatalog } from './catalog-search';
import { catalogItems, decodeChunk, DELTA_PAGES_MAX, deltaLoad, encodeChunk, fullLoad, loadStoreCatalog, openCatalogDb, progressTracker, readCatalog, streamBounds,
  type LoadProgress, type PageFetcher } from './catalog-store';

/** A uuid-shaped id whose order is the number's (the server's keyset order). */
const idOf = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
const row = (n: number, extra: Partial<CatalogRow> = {}): CatalogRow => ({
  variant_id: idOf(n), name: `Item ${n}`, sku: `SKU${n}`, barcodes: [`40${String(n).padStart(11, '0')}`], price: 100 + n,
  tax_rate: 0, unit: 'each', archived: false, changed_at: '2026-11-20T10:00:00.000Z', ...extra });

/** pos_catalog over a fixed list: keyset on the id for a full load, the rows changed after `since` for a delta. */
function server(rows: () => CatalogRow[]) {
  const asked: { after: string | null; since: string | null }[] = [];
  const fetchPage: PageFetcher = async ({ after, since }) => {
    asked.push({ after, since });
    const all = rows().filter((r) => (since ? (r.changed_at ?? '') > since : !r.archived)).sort((a, b) => a.variant_id.localeCompare(b.variant_id));
    return all.filter((r) => !after || r.variant_id > after).slice(0, CATALOG_PAGE);
  };
  return { fetchPage, asked };
}

let dbCount = 0;
const freshDb = () => openCatalogDb(`catalog-test-${(dbCount += 1)}`);
// Ids spread over the whole uuid space, so every parallel stream has pages to read.
const spread = (count: number) => Array.from({ length: count }, (_, i) => row(Math.floor((i * 0xffff_ffff) / count)));

describe('the register catalog on the device (chunks)', () => {
  it('cuts the id space into equal stream ranges', () => {
    expect(streamBounds(1)).toEqual([null]);
    expect(streamBounds(4)).toEqual([null, '40000000-0000-0000-0000-000000000000', '80000000-0000-0000-0000-000000000000',
      'c0000000-0000-0000-0000-000000000000']);
  });

  it('loads the whole catalog in parallel streams, each item once and in id order, and reads it back', async () => {
    const rows = spread(2 * CATALOG_PAGE + 500);
    const db = await freshDb();
    const { fetchPage, asked } = server(() => rows);
    const { copy, rows: read } = await fullLoad(db, 'store-1', fetchPage, 3);
    const items = catalogItems(copy);
    expect(read).toBe(rows.length);
    expect(items.map((i) => i.variantId)).toEqual(rows.map((r) => r.variant_id));
    // Three streams started together (after nothing and after the two bounds), then each went on by keyset.
    expect(asked.slice(0, 3).map((a) => a.after)).toEqual(streamBounds(3));
    const back = await readCatalog(db, 'store-1');
    expect(back && catalogItems(back).map((i) => i.variantId)).toEqual(rows.map((r) => r.variant_id));
    expect(await readCatalog(db, 'store-2')).toBeNull();
  });

  it('a delta rewrites only the chunks that hold changed items, drops archived ones and adds new ones', async () => {
    // The newest change the full load sees is one row's; the delta re-reads that one (the overlap) and the changes.
    let rows: CatalogRow[] = spread(2 * CATALOG_PAGE).map((r, i) => ({ ...r, changed_at: i === 5 ? '2026-11-20T10:00:00.000Z' : '2026-11-19T10:00:00.000Z' }));
    const db = await freshDb();
    const first = await fullLoad(db, 's', server(() => rows).fetchPage, 1);
    const before = new Map(first.copy.chunks);
    const [a, b] = [rows[10] as CatalogRow, rows[20] as CatalogRow];
    rows = [...rows.map((r) => (r === a ? { ...r, price: 999, changed_at: '2026-11-21T09:00:00.000Z' }
      : r === b ? { ...r, archived: true, changed_at: '2026-11-21T09:00:00.000Z' } : r)),
    row(0xffff_fff0, { changed_at: '2026-11-21T09:30:00.000Z' })];
    const { fetchPage, asked } = server(() => rows);
    const next = await deltaLoad(db, first.copy, fetchPage);
    if (!next) throw new Error('a delta of four rows is loaded as a delta');
    expect(asked).toEqual([{ after: null, since: new Date(Date.parse('2026-11-20T10:00:00.000Z') - DELTA_OVERLAP_MS).toISOString() }]);
    expect(next.rows).toBe(4);
    expect(next.copy.since).toBe('2026-11-21T09:30:00.000Z');
    const items = catalogItems(next.copy);
    expect(items).toHaveLength(2 * CATALOG_PAGE);
    expect(items.find((i) => i.variantId === a.variant_id)?.price).toBe(999);
    expect(items.some((i) => i.variantId === b.variant_id)).toBe(false);
    expect(items[items.length - 1]?.variantId).toBe(idOf(0xffff_fff0));
    // The second page's chunk was not touched (the same array), the first was replaced.
    const [firstChunk, secondChunk] = [...before.keys()];
    expect(next.copy.chunks.get(secondChunk as number)).toBe(before.get(secondChunk as number));
    expect(next.copy.chunks.get(firstChunk as number)).not.toBe(before.get(firstChunk as number));
    const back = await readCatalog(db, 's');
    expect(back && catalogItems(back).find((i) => i.variantId === a.variant_id)?.price).toBe(999);
    expect(back && catalogItems(back)).toEqual(items);
    // The in-memory index patched with the delta is the index of the new list.
    const patched = patchIndex(indexCatalog(catalogItems(first.copy)), next.replaced, next.added);
    expect(patched.items).toEqual(items);
    expect(patched.names).toEqual(items.map((i) => i.name.toLowerCase()));
    expect(lookupCode(patched, a.barcodes?.[0] ?? '')?.price).toBe(999);
    expect(lookupCode(patched, b.barcodes?.[0] ?? '')).toBeUndefined();
    expect(lookupCode(patched, `SKU${0xffff_fff0}`)?.variantId).toBe(idOf(0xffff_fff0));
  });

  it('stores a chunk by column and reads back the same items', () => {
    const items = [{ variantId: 'a', name: 'Apples', sku: 'APL', barcodes: [], price: 399, taxRate: 8.875, unit: 'kg' as const },
      { variantId: 'b', name: 'Tee', sku: 'TEE', barcodes: ['4006381333931', '2900000000017'], price: 1400, taxRate: 0, unit: 'each' as const }];
    expect(decodeChunk(encodeChunk('s', 0, items))).toEqual(items);
  });

  it('shows the stored copy first, then the delta; offline it keeps the stored copy', async () => {
    const rows = spread(50);
    const db = await freshDb();
    await fullLoad(db, 's', server(() => rows).fetchPage, 2);
    const shown: number[] = [];
    await loadStoreCatalog({ storeId: 's', db, isStale: () => false, onItems: (items) => shown.push(items.length),
      fetchPage: async () => { throw new Error('Failed to fetch'); } });
    expect(shown).toEqual([50]);
  });

  it('a delta of more pages than DELTA_PAGES_MAX is given up for a full load, which still drops archived items', async () => {
    // A bulk change stamped every row: the delta would re-read the whole catalog page by page.
    let rows = spread((DELTA_PAGES_MAX + 2) * CATALOG_PAGE);
    const db = await freshDb();
    await fullLoad(db, 's', server(() => rows).fetchPage, 2);
    rows = rows.map((r, i) => ({ ...r, price: 7, archived: i === 3, changed_at: '2026-11-21T09:00:00.000Z' }));
    const { fetchPage, asked } = server(() => rows);
    const shown: number[] = [];
    await loadStoreCatalog({ storeId: 's', db, isStale: () => false, onItems: (items) => shown.push(items.length), fetchPage });
    const deltaPages = asked.filter((a) => a.since !== null).length;
    expect(deltaPages).toBe(DELTA_PAGES_MAX);
    expect(asked.some((a) => a.since === null)).toBe(true);
    expect(shown).toEqual([rows.length, rows.length - 1]);
    const back = await readCatalog(db, 's');
    expect(back && catalogItems(back).every((i) => i.price === 7)).toBe(true);
    expect(back && catalogItems(back)).toHaveLength(rows.length - 1);
  });
});

describe('the copy\'s since from the server\'s clock (ADR 0169)', () => {
  it('a bulk change is read once; the next load starts from the server\'s now, not from the bulk change', async () => {
    let rows = spread(3 * CATALOG_PAGE).map((r) => ({ ...r, changed_at: '2026-11-19T10:00:00.000Z' }));
    const db = await freshDb();
    let clock = '2026-11-21T08:00:00.000Z';
    await fullLoad(db, 's', server(() => rows).fetchPage, 2, Promise.resolve(clock));
    // A bulk change at 09:00 stamped every row; the register loads at 09:10, then at 12:00 and again.
    rows = rows.map((r) => ({ ...r, price: 5, changed_at: '2026-11-21T09:00:00.000Z' }));
    const load = async () => {
      const { fetchPage, asked } = server(() => rows);
      const shown: number[] = [];
      await loadStoreCatalog({ storeId: 's', db, isStale: () => false, onItems: (items) => shown.push(items.length), fetchPage,
        fetchClock: async () => clock });
      return { asked, shown };
    };
    clock = '2026-11-21T09:10:00.000Z';
    const first = await load();
    expect(first.asked[0]?.since).toBe(new Date(Date.parse('2026-11-21T08:00:00.000Z') - DELTA_OVERLAP_MS).toISOString());
    // Three pages and the empty one that ends the delta.
    expect(first.asked.filter((a) => a.since !== null)).toHaveLength(4);
    clock = '2026-11-21T12:00:00.000Z';
    const second = await load();
    // From 09:10 less the overlap: after the bulk change, so one empty page. From the newest change seen (09:00) less
    // the overlap, this load and every later one re-read the whole catalog.
    expect(second.asked).toEqual([{ after: null, since: new Date(Date.parse('2026-11-21T09:10:00.000Z') - DELTA_OVERLAP_MS).toISOString() }]);
    const third = await load();
    expect(third.asked[0]?.since).toBe(new Date(Date.parse('2026-11-21T12:00:00.000Z') - DELTA_OVERLAP_MS).toISOString());
    const back = await readCatalog(db, 's');
    expect(back && catalogItems(back).every((i) => i.price === 5)).toBe(true);
  });

  it('without an answer from the clock, since stays the newest change seen', async () => {
    const rows = spread(10).map((r) => ({ ...r, changed_at: '2026-11-19T10:00:00.000Z' }));
    const db = await freshDb();
    const { copy } = await fullLoad(db, 's', server(() => rows).fetchPage, 1, Promise.reject(new Error('offline')));
    expect(copy.since).toBe('2026-11-19T10:00:00.000Z');
  });
});

describe('catalog lookups in memory', () => {
  const items = indexCatalog([
    { variantId: 'a', name: 'Organic Yogurt 500 g', sku: 'YOG-500', barcodes: ['4006381333931'], price: 250, taxRate: 0, unit: 'each' },
    { variantId: 'b', name: 'Greek yogurt', sku: 'GRK-1', barcodes: [], price: 300, taxRate: 0, unit: 'each' },
    { variantId: 'c', name: 'Bread', sku: 'BRD', barcodes: ['5901234123457'], price: 200, taxRate: 0, unit: 'each' },
  ]);

  it('finds a scanned barcode or a SKU typed in lower case', () => {
    expect(lookupCode(items, '5901234123457')?.variantId).toBe('c');
    expect(lookupCode(items, ' grk-1 ')?.variantId).toBe('b');
    expect(lookupCode(items, '123')).toBeUndefined();
  });

  it('searches names (any case, anywhere), SKU beginnings and barcodes, up to the limit', () => {
    expect(searchCatalog(items, 'YOGURT').map((i) => i.variantId)).toEqual(['a', 'b']);
    expect(searchCatalog(items, 'yogurt', 1).map((i) => i.variantId)).toEqual(['a']);
    expect(searchCatalog(items, 'brd').map((i) => i.variantId)).toEqual(['c']);
    expect(searchCatalog(items, '4006381333931').map((i) => i.variantId)).toEqual(['a']);
    expect(searchCatalog(items, 'y')).toEqual([]);
  });

  it('builds the index once per list', () => {
    expect(indexCatalog(items.items)).toBe(items);
  });
});

describe('the cold load\'s progress (issue 32)', () => {
  it('reports the share of the id space read, rising to the end, with the items counted and a total estimated', async () => {
    const rows = spread(20 * CATALOG_PAGE);
    const seen: LoadProgress[] = [];
    const shown: number[] = [];
    await loadStoreCatalog({ storeId: 's', db: await freshDb(), isStale: () => false, onItems: (items) => shown.push(items.length),
      fetchPage: server(() => rows).fetchPage, onProgress: (p) => seen.push(p) });
    expect(shown).toEqual([rows.length]);
    expect(seen.length).toBeGreaterThan(5);
    // Never backwards; the last report is the end, after the items were handed to the till.
    for (let i = 1; i < seen.length; i += 1) {
      expect(seen[i]!.fraction).toBeGreaterThanOrEqual(seen[i - 1]!.fraction);
      expect(seen[i]!.loaded).toBeGreaterThanOrEqual(seen[i - 1]!.loaded);
    }
    expect(seen.filter((p) => p.done)).toEqual([{ loaded: rows.length, fraction: 1, total: rows.length, done: true }]);
    expect(seen[seen.length - 1]!.done).toBe(true);
    // Half way (uniform ids), the estimate is close to the real count.
    const middle = seen.find((p) => p.fraction >= 0.5 && !p.done);
    expect(middle?.total).toBeGreaterThan(rows.length * 0.9);
    expect(middle?.total).toBeLessThan(rows.length * 1.1);
  });

  it('counts a stream\'s range as read once it ends, and reports at most every half percent', () => {
    const seen: LoadProgress[] = [];
    const tracker = progressTracker(streamBounds(2), (p) => seen.push(p));
    tracker.page(0, 1000, '40000000-0000-0000-0000-000000000000', false);
    expect(seen.at(-1)).toMatchObject({ loaded: 1000, fraction: 0.25, total: 4000, done: false });
    tracker.page(0, 1, '40000001-0000-0000-0000-000000000000', false);
    expect(seen).toHaveLength(1);
    tracker.page(0, 10, null, true);
    expect(seen.at(-1)).toMatchObject({ loaded: 1011, fraction: 0.5, total: 2022 });
    tracker.done();
    expect(seen.at(-1)).toEqual({ loaded: 1011, fraction: 1, total: 1011, done: true });
  });

  it('a delta reports no progress', async () => {
    const rows = spread(50);
    const db = await freshDb();
    await fullLoad(db, 's', server(() => rows).fetchPage, 2);
    const seen: LoadProgress[] = [];
    await loadStoreCatalog({ storeId: 's', db, isStale: () => false, onItems: () => undefined, fetchPage: server(() => rows).fetchPage,
      onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([]);
  });
});
