import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { CatalogItem } from './cart';
import { blockItems, blockOf, storePriceMap, type BlockAnswer, type BlockList, type BlockSource, type StoredBlock, type StorePrices } from './catalog-blocks';
import { indexCatalog, patchIndex } from './catalog-search';
import { CATALOG_DB_NAME, type LoadProgress } from './catalog-store';

/**
 * The register's copy of the packed catalog (ADR 0445): one IndexedDB record per server block, as columns, and a
 * state record (the cut, each block's revisions, the store's prices and default tax) written last, so a load cut
 * off half way is started again, never half used. A later load asks for the block list and fetches only the blocks
 * whose revisions moved: after a bulk price change, their prices alone (~10 bytes an item). Its own database: the
 * row-by-row copy of ADR 0161 (catalog-store.ts) is dropped once this one is written.
 */
interface BlocksState {
  storeId: string;
  version: number;
  bits: number;
  defaultTaxRate: number;
  storePrices: StorePrices;
  /** [n, bodyRev, priceRev] of every block held. */
  revs: [number, number, number][];
}

interface BlocksDb extends DBSchema {
  blocks: { key: [string, number]; value: StoredBlock };
  state: { key: string; value: BlocksState };
}

export const BLOCKS_DB_NAME = 'storewise-pos-blocks';
const STATE_VERSION = 1;
/** Blocks fetched at once: PGlite answers one at a time, so more only overlap the HTTP and JSON work. */
const PARALLEL = 4;

export type BlocksDatabase = IDBPDatabase<BlocksDb>;

export function openBlocksDb(name = BLOCKS_DB_NAME): Promise<BlocksDatabase> {
  return openDB<BlocksDb>(name, 1, {
    upgrade(db) {
      db.createObjectStore('blocks', { keyPath: ['storeId', 'n'] });
      db.createObjectStore('state', { keyPath: 'storeId' });
    },
  });
}

const range = (storeId: string) => IDBKeyRange.bound([storeId, -Infinity], [storeId, Infinity]);

async function readCopy(db: BlocksDatabase, state: BlocksState): Promise<Map<number, StoredBlock>> {
  const held = new Set(state.revs.map(([n]) => n));
  // A block the state does not name is from a load that was cut off.
  return new Map((await db.getAll('blocks', range(state.storeId))).filter((b) => held.has(b.n)).map((b) => [b.n, b]));
}

/** Runs `tasks` at most `limit` at a time, in order of start. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    while (next < tasks.length) {
      const i = next;
      next += 1;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  }));
  return results;
}

class Recut extends Error {}

/** The block with a price-only answer applied; its body must be the one those prices were built for. */
function withPrices(block: StoredBlock, answer: Extract<BlockAnswer, { kind: 'prices' }>): StoredBlock | null {
  return answer.prices.length === block.ids.length ? { ...block, priceRev: answer.priceRev, prices: answer.prices } : null;
}

/** Every block fetched and written as it arrives; the state last. */
async function fullLoad(db: BlocksDatabase, storeId: string, source: BlockSource, list: BlockList, storePrices: StorePrices,
  onProgress?: (p: LoadProgress) => void): Promise<Map<number, StoredBlock>> {
  const blocks = new Map<number, StoredBlock>();
  const writes: Promise<unknown>[] = [];
  const expected = list.blocks.reduce((sum, b) => sum + b.items, 0);
  let loaded = 0;
  let shown = -1;
  await pool(list.blocks.map((rev) => async () => {
    const answer = await source.block(rev.n, list.bits, true);
    if (answer.kind !== 'block') throw new Recut();
    const block = { ...answer.block, storeId };
    blocks.set(block.n, block);
    // Not awaited here: the next blocks are fetched while IndexedDB writes this one.
    writes.push(db.put('blocks', block));
    loaded += block.ids.length;
    const fraction = blocks.size / Math.max(1, list.blocks.length);
    // At most one report per half percent: a report re-renders the register.
    if (fraction - shown >= 0.005) {
      shown = fraction;
      onProgress?.({ loaded, fraction, total: expected > 0 ? Math.max(expected, loaded) : null, done: false });
    }
  }), PARALLEL);
  await Promise.all(writes);
  const tx = db.transaction(['state', 'blocks'], 'readwrite');
  const old = await tx.objectStore('blocks').getAllKeys(range(storeId));
  await Promise.all(old.filter(([, n]) => !blocks.has(n)).map((key) => tx.objectStore('blocks').delete(key)));
  await tx.objectStore('state').put(stateOf(storeId, list, storePrices, blocks));
  await tx.done;
  return blocks;
}

const stateOf = (storeId: string, list: BlockList, storePrices: StorePrices, blocks: Map<number, StoredBlock>): BlocksState => ({
  storeId, version: STATE_VERSION, bits: list.bits, defaultTaxRate: list.defaultTaxRate, storePrices,
  revs: [...blocks.values()].map((b) => [b.n, b.bodyRev, b.priceRev]),
});

/** The catalog in block order, as the till's list. */
function itemsOf(blocks: Map<number, StoredBlock>, prices: Map<string, number>, tax: number): CatalogItem[] {
  const items: CatalogItem[] = [];
  for (const n of [...blocks.keys()].sort((a, b) => a - b)) for (const item of blockItems(blocks.get(n) as StoredBlock, prices, tax)) items.push(item);
  return items;
}

export interface DeltaPlan {
  /** Blocks to fetch whole (new, or their body moved) and blocks whose prices alone moved. */
  bodies: number[];
  prices: number[];
  /** Blocks held that the list no longer has. */
  dropped: number[];
}

/** What a later load fetches: the blocks whose revisions differ from the copy's. */
export function planDelta(revs: [number, number, number][], list: BlockList): DeltaPlan {
  const held = new Map(revs.map(([n, body, price]) => [n, { body, price }]));
  const plan: DeltaPlan = { bodies: [], prices: [], dropped: [] };
  for (const b of list.blocks) {
    const mine = held.get(b.n);
    if (!mine || mine.body !== b.bodyRev) plan.bodies.push(b.n);
    else if (mine.price !== b.priceRev) plan.prices.push(b.n);
    held.delete(b.n);
  }
  plan.dropped = [...held.keys()];
  return plan;
}

const mark = (name: string, detail?: Record<string, unknown>) => {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name, detail ? { detail } : undefined);
};

/** Which variants' store prices differ between two lists (added, removed or changed). */
function storePriceChanges(before: Map<string, number>, after: Map<string, number>): Set<string> {
  const changed = new Set<string>();
  for (const [id, price] of after) if (before.get(id) !== price) changed.add(id);
  for (const id of before.keys()) if (!after.has(id)) changed.add(id);
  return changed;
}

/**
 * The register's catalog from the packed blocks: the device's copy at once (`onItems`), then brought up to date (the
 * blocks that moved, or every block on a device without a copy or after a new cut). Sets the marks the browser bench
 * reads (pos-catalog-start, -read, -local, -delta-fetched, -ready with {mode, rows, items}, -saved).
 */
export async function loadPackedCatalog(options: {
  storeId: string;
  source: BlockSource;
  onItems: (items: CatalogItem[]) => void;
  isStale: () => boolean;
  onProgress?: (p: LoadProgress) => void;
  db?: BlocksDatabase;
}): Promise<void> {
  const { storeId, source, onItems, isStale } = options;
  mark('pos-catalog-start');
  const db = options.db ?? (await openBlocksDb());
  const stored = await db.get('state', storeId);
  const state = stored?.version === STATE_VERSION ? stored : null;
  // Asked at once, while the copy is read.
  const listing = source.list();
  const pricing = source.storePrices();
  listing.catch(() => undefined);
  pricing.catch(() => undefined);
  const local = state ? await readCopy(db, state) : null;
  if (isStale()) return;
  mark('pos-catalog-read');
  const shown = state && local ? indexCatalog(itemsOf(local, storePriceMap(state.storePrices), state.defaultTaxRate)) : null;
  if (shown) {
    onItems(shown.items);
    mark('pos-catalog-local');
  }
  try {
    const [list, storePrices] = await Promise.all([listing, pricing]);
    if (state && local && shown && list.bits === state.bits) {
      const done = await deltaLoad(db, { state, local, shown, list, storePrices, source, onItems, isStale });
      if (done) return;
    }
    const fresh = await fullLoad(db, storeId, source, list, storePrices, (p) => !isStale() && options.onProgress?.(p));
    if (isStale()) return;
    const items = indexCatalog(itemsOf(fresh, storePriceMap(storePrices), list.defaultTaxRate)).items;
    onItems(items);
    options.onProgress?.({ loaded: items.length, fraction: 1, total: items.length, done: true });
    mark('pos-catalog-ready', { mode: 'full', rows: items.length, items: items.length });
    // The row-by-row copy (ADR 0161) is not read any more.
    void deleteDB(CATALOG_DB_NAME).catch(() => undefined);
  } catch {
    // Offline (or the server failed, or cut the catalog anew twice): the copy it has is what it sells from.
  }
}

/** A later load: the moved blocks fetched, the index patched, then written. False when a full load must follow. */
async function deltaLoad(db: BlocksDatabase, a: {
  state: BlocksState; local: Map<number, StoredBlock>; shown: ReturnType<typeof indexCatalog>; list: BlockList;
  storePrices: StorePrices; source: BlockSource; onItems: (items: CatalogItem[]) => void; isStale: () => boolean;
}): Promise<boolean> {
  const { state, local, list } = a;
  const plan = planDelta(state.revs, list);
  const answers = await pool([...plan.bodies.map((n) => () => a.source.block(n, list.bits, true)),
    ...plan.prices.map((n) => () => a.source.block(n, list.bits, false))], PARALLEL);
  mark('pos-catalog-delta-fetched');
  if (answers.some((x) => x.kind === 'recut')) return false;
  const blocks = new Map(local);
  const touched = new Set<number>();
  for (const n of plan.dropped) blocks.delete(n);
  for (const answer of answers) {
    if (answer.kind === 'block') {
      blocks.set(answer.block.n, { ...answer.block, storeId: state.storeId });
      touched.add(answer.block.n);
    } else if (answer.kind === 'prices') {
      const held = blocks.get(answer.n);
      const next = held ? withPrices(held, answer) : null;
      // Prices for another body than the one held (a change between the list and the block): load everything.
      if (!next) return false;
      blocks.set(answer.n, next);
      touched.add(answer.n);
    }
  }
  if (a.isStale()) return true;
  const before = storePriceMap(state.storePrices);
  const after = storePriceMap(a.storePrices);
  const repriced = storePriceChanges(before, after);
  let items = a.shown.items;
  let rows = 0;
  if (list.defaultTaxRate !== state.defaultTaxRate) {
    items = indexCatalog(itemsOf(blocks, after, list.defaultTaxRate)).items;
    rows = items.length;
  } else if (touched.size > 0 || plan.dropped.length > 0 || repriced.size > 0) {
    // The index is patched for the items that changed, not rebuilt over the whole catalog.
    const replaced = new Map<string, CatalogItem | null>();
    const added: CatalogItem[] = [];
    const was = new Map<string, CatalogItem>();
    for (const n of [...touched, ...plan.dropped]) {
      const old = local.get(n);
      if (old) for (const item of blockItems(old, before, state.defaultTaxRate)) was.set(item.variantId, item);
    }
    for (const n of touched) {
      for (const item of blockItems(blocks.get(n) as StoredBlock, after, list.defaultTaxRate)) {
        const prev = was.get(item.variantId);
        was.delete(item.variantId);
        if (!prev) added.push(item);
        else if (!sameItem(prev, item)) replaced.set(item.variantId, item);
      }
    }
    for (const id of was.keys()) replaced.set(id, null);
    // A store price set or removed in a block that did not move: that item alone, at its new price.
    const elsewhere = [...repriced].filter((id) => !touched.has(blockOf(id, list.bits)));
    if (elsewhere.length > 0) {
      const byId = new Map(a.shown.items.map((item) => [item.variantId, item]));
      for (const id of elsewhere) {
        const item = byId.get(id);
        if (item) replaced.set(id, { ...item, price: after.get(id) ?? ownPrice(blocks, id, list.bits) ?? item.price });
      }
    }
    rows = replaced.size + added.length;
    if (rows > 0) items = patchIndex(a.shown, replaced, added).items;
  }
  if (items !== a.shown.items) a.onItems(items);
  mark('pos-catalog-ready', { mode: 'delta', rows, items: items.length });
  const tx = db.transaction(['state', 'blocks'], 'readwrite');
  for (const n of touched) void tx.objectStore('blocks').put(blocks.get(n) as StoredBlock);
  for (const n of plan.dropped) void tx.objectStore('blocks').delete([state.storeId, n]);
  void tx.objectStore('state').put(stateOf(state.storeId, list, a.storePrices, blocks));
  await tx.done;
  mark('pos-catalog-saved');
  return true;
}

const sameItem = (x: CatalogItem, y: CatalogItem) => x.name === y.name && x.sku === y.sku && x.price === y.price
  && x.taxRate === y.taxRate && x.unit === y.unit && x.barcodes.join(' ') === y.barcodes.join(' ');

/** A variant's own price from the block that holds it (a store price removed falls back to it). */
function ownPrice(blocks: Map<number, StoredBlock>, id: string, bits: number): number | undefined {
  const block = blocks.get(blockOf(id, bits));
  const i = block ? block.ids.indexOf(id) : -1;
  return block && i >= 0 ? block.prices[i] : undefined;
}
