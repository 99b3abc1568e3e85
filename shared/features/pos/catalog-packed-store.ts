import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { PRICE_BLOCKS_PER_CALL, storePriceMap, type BlockAnswer, type BlockList, type BlockSource, type StoredBlock, type StorePrices } from './catalog-blocks';
import { columnIndex, prepareLookups } from './catalog-columns';
import type { CatalogIndex } from './catalog-search';

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
/** The row-by-row copy of ADR 0161, dropped once a packed copy is written. */
const OLD_CATALOG_DB_NAME = 'storewise-pos-catalog';

/** A cold load's progress for the register's bar: items loaded, the share of blocks done, the expected total. */
export interface LoadProgress { loaded: number; fraction: number; total: number | null; done: boolean }
/** 3: ids as bytes, a tax palette and the code table stored (ADR 0446); 2: blocks as text columns; 1: an array per column. */
const STATE_VERSION = 3;
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

/**
 * Blocks read from IndexedDB a request (~3 MB at 1,000,000 variants): each batch's lookups are derived while the next
 * is read, and the page's start-up (its other answers, its first renders) runs between small batches.
 */
const READ_BATCH = 4;

/** Lets the page's other tasks run (a fetch's answer, a key press) between batches. */
const yieldToPage = () => new Promise<void>((resolve) => { setTimeout(resolve, 0); });

/**
 * The copy's blocks, read in batches of block numbers, two batches asked for ahead of this one's `onBatch`. Between
 * batches the page gets its turn: read in one go, the copy held the main thread for ~0.9 s at 1,000,000 and the delta's
 * request, whose list had long arrived, went out only after it.
 */
async function readCopy(db: BlocksDatabase, state: BlocksState, onBatch: (blocks: StoredBlock[]) => void): Promise<Map<number, StoredBlock>> {
  const held = new Set(state.revs.map(([n]) => n));
  const top = state.revs.reduce((max, [n]) => Math.max(max, n), -1);
  // A transaction a batch: one kept across the page's turns would have ended (a transaction lives while it has requests).
  const read = (from: number) => db.getAll('blocks', IDBKeyRange.bound([state.storeId, from], [state.storeId, from + READ_BATCH - 1]));
  const blocks = new Map<number, StoredBlock>();
  // Two batches asked ahead, so IndexedDB reads on while this one is worked on and the page has its turn.
  const ahead: Promise<StoredBlock[]>[] = [];
  let from = 0;
  const askNext = () => {
    if (from <= top) {
      const batch = read(from);
      // Awaited in turn; a failure is thrown there, not reported as unhandled meanwhile.
      batch.catch(() => undefined);
      ahead.push(batch);
    }
    from += READ_BATCH;
  };
  askNext();
  askNext();
  while (ahead.length > 0) {
    const batch = await (ahead.shift() as Promise<StoredBlock[]>);
    askNext();
    // A block the state does not name is from a load that was cut off.
    const mine = batch.filter((b) => held.has(b.n));
    onBatch(mine);
    for (const b of mine) blocks.set(b.n, b);
    await yieldToPage();
  }
  return blocks;
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
  return answer.prices.length === block.count ? { ...block, priceRev: answer.priceRev, prices: answer.prices } : null;
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
    loaded += block.count;
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

/** The till's index over the blocks, for this store. */
const indexOf = (blocks: Map<number, StoredBlock>, storePrices: StorePrices, defaultTaxRate: number): CatalogIndex =>
  columnIndex([...blocks.values()], storePriceMap(storePrices), defaultTaxRate);

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

/**
 * The register's catalog from the packed blocks: the device's copy at once (`onCatalog`), then brought up to date (the
 * blocks that moved, or every block on a device without a copy or after a new cut). Sets the marks the browser bench
 * reads (pos-catalog-start, -read, -local, -delta-asked, -delta-fetched, -ready with {mode, rows, items}, -saved).
 */
export async function loadPackedCatalog(options: {
  storeId: string;
  source: BlockSource;
  /** The till's catalog: the copy's at once, the brought-up-to-date one after. */
  onCatalog: (index: CatalogIndex) => void;
  isStale: () => boolean;
  onProgress?: (p: LoadProgress) => void;
  db?: BlocksDatabase;
}): Promise<void> {
  const { storeId, source, onCatalog, isStale } = options;
  mark('pos-catalog-start');
  // Asked first, before the register's other start-up calls queue ahead of it on the server; the moved blocks are
  // planned from the copy's revisions and fetched while the copy is read.
  const listed = source.list();
  const listing = Promise.all([listed, source.storePrices()]);
  listing.catch(() => undefined);
  const db = options.db ?? (await openBlocksDb());
  const stored = await db.get('state', storeId);
  mark('pos-catalog-state');
  const state = stored?.version === STATE_VERSION ? stored : null;
  // The delta needs the list alone, not the store's prices as well.
  const delta = state ? listed.then((list) => (list.bits === state.bits ? fetchDelta(source, state.revs, list) : null)) : null;
  delta?.catch(() => undefined);
  const local = state ? await readCopy(db, state, (blocks) => blocks.forEach(prepareLookups)) : null;
  if (isStale()) return;
  mark('pos-catalog-read');
  if (state && local) {
    onCatalog(indexOf(local, state.storePrices, state.defaultTaxRate));
    mark('pos-catalog-local');
  }
  try {
    const [list, storePrices] = await listing;
    const fetched = await delta;
    if (state && local && fetched) {
      const done = await applyDelta(db, { state, local, list, storePrices, fetched, onCatalog, isStale });
      if (done) return;
    }
    const fresh = await fullLoad(db, storeId, source, list, storePrices, (p) => !isStale() && options.onProgress?.(p));
    if (isStale()) return;
    const index = indexOf(fresh, storePrices, list.defaultTaxRate);
    onCatalog(index);
    options.onProgress?.({ loaded: index.size, fraction: 1, total: index.size, done: true });
    mark('pos-catalog-ready', { mode: 'full', rows: index.size, items: index.size });
    // The row-by-row copy (ADR 0161) is not read any more.
    void deleteDB(OLD_CATALOG_DB_NAME).catch(() => undefined);
  } catch {
    // Offline (or the server failed, or cut the catalog anew twice): the copy it has is what it sells from.
  }
}

interface FetchedDelta { plan: DeltaPlan; answers: BlockAnswer[] }

/** Fewer blocks' prices than this go in one call: a call has its own round trip and checks. */
const MIN_PRICE_BLOCKS_PER_CALL = 16;

/**
 * The calls for the blocks whose prices alone moved: many blocks a call, and after a bulk price change (every
 * block's) PARALLEL calls, so the browser reads one answer while the server builds the next (at 1,000,000 variants
 * one answer of 6 MB was built, sent and parsed one after the other).
 */
export function priceCallsOf(blocks: number[]): number[][] {
  const size = Math.min(PRICE_BLOCKS_PER_CALL, Math.max(MIN_PRICE_BLOCKS_PER_CALL, Math.ceil(blocks.length / PARALLEL)));
  const calls: number[][] = [];
  for (let i = 0; i < blocks.length; i += size) calls.push(blocks.slice(i, i + size));
  return calls;
}

/** The blocks that moved since the copy's revisions: whole where their body moved, their prices alone otherwise. */
async function fetchDelta(source: BlockSource, revs: [number, number, number][], list: BlockList): Promise<FetchedDelta> {
  const plan = planDelta(revs, list);
  mark('pos-catalog-delta-asked');
  const priceCalls = priceCallsOf(plan.prices);
  const fetched = await pool<BlockAnswer[]>([...plan.bodies.map((n) => async () => [await source.block(n, list.bits, true)]),
    ...priceCalls.map((ns) => () => source.prices(ns, list.bits))], PARALLEL);
  mark('pos-catalog-delta-fetched');
  return { plan, answers: fetched.flat() };
}

/**
 * A later load: the moved blocks applied to the copy, the index built anew over the blocks (the unchanged ones keep
 * their lookups), then written. False when a full load must follow.
 */
async function applyDelta(db: BlocksDatabase, a: {
  state: BlocksState; local: Map<number, StoredBlock>; list: BlockList; storePrices: StorePrices; fetched: FetchedDelta;
  onCatalog: (index: CatalogIndex) => void; isStale: () => boolean;
}): Promise<boolean> {
  const { state, local, list } = a;
  const { plan, answers } = a.fetched;
  // Another cut: a block says so, or a prices answer comes back short.
  if (answers.some((x) => x.kind === 'recut') || answers.length !== plan.bodies.length + plan.prices.length) return false;
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
  const prices = (p: StorePrices) => JSON.stringify([p.ids, p.prices]);
  const moved = touched.size > 0 || plan.dropped.length > 0 || list.defaultTaxRate !== state.defaultTaxRate
    || prices(a.storePrices) !== prices(state.storePrices);
  const rows = [...touched].reduce((sum, n) => sum + (blocks.get(n)?.count ?? 0), 0);
  const index = moved ? indexOf(blocks, a.storePrices, list.defaultTaxRate) : null;
  if (index) a.onCatalog(index);
  mark('pos-catalog-ready', { mode: 'delta', rows, items: index?.size ?? [...blocks.values()].reduce((sum, b) => sum + b.count, 0) });
  if (!moved) {
    mark('pos-catalog-saved');
    return true;
  }
  const tx = db.transaction(['state', 'blocks'], 'readwrite');
  for (const n of touched) void tx.objectStore('blocks').put(blocks.get(n) as StoredBlock);
  for (const n of plan.dropped) void tx.objectStore('blocks').delete([state.storeId, n]);
  void tx.objectStore('state').put(stateOf(state.storeId, list, a.storePrices, blocks));
  await tx.done;
  mark('pos-catalog-saved');
  return true;
}
