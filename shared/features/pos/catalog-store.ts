import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { CatalogItem } from './cart';
import { indexCatalog, patchIndex } from './catalog-search';
import { CATALOG_COPY_VERSION, CATALOG_PAGE, deltaStart, newestChange, newestStamp, toItem, type CatalogRow } from './catalog-sync';

/**
 * The register's catalog on the device, in chunks (ADR 0161). A store's 100,000 items kept as one IndexedDB record
 * (the first version) meant every delta of a few prices rewrote and re-read 25 MB in one structured clone, and the
 * cold load fetched 100 pages one after another before writing anything. Here:
 * - each page the server sends is one chunk record (about 1,000 items), written as it arrives while the next pages
 *   are fetched; the cold load reads the id space in a few parallel keyset streams;
 * - a delta rewrites only the chunks holding changed items (new items go to a chunk of their own);
 * - the copy is read back with one getAll over the store's key range (a hundred records, not 100,000).
 * The state record (since, version) is written last, so a load cut off half way starts again from scratch.
 * Its own database, so the outbox's schema (outbox.ts) is untouched.
 */
/**
 * A chunk is stored by column: arrays of strings and typed arrays clone far faster than 1,000 objects that each
 * repeat their field names (Chromium, 100,000 items, loaded machine: getAll of 100 chunks 0.4 s by column, 1.0 s as objects).
 */
interface StoredChunk {
  storeId: string;
  n: number;
  ids: string[];
  names: string[];
  skus: string[];
  /** Each item's barcodes joined by a space (codes have none). */
  codes: string[];
  prices: Float64Array;
  taxRates: Float64Array;
  /** 1 for items sold by weight (kg). */
  kg: Uint8Array;
}

export function encodeChunk(storeId: string, n: number, items: CatalogItem[]): StoredChunk {
  return {
    storeId, n, ids: items.map((i) => i.variantId), names: items.map((i) => i.name), skus: items.map((i) => i.sku),
    codes: items.map((i) => i.barcodes.join(' ')), prices: Float64Array.from(items, (i) => i.price),
    taxRates: Float64Array.from(items, (i) => i.taxRate), kg: Uint8Array.from(items, (i) => (i.unit === 'kg' ? 1 : 0)),
  };
}

export function decodeChunk(c: StoredChunk): CatalogItem[] {
  const items = new Array<CatalogItem>(c.ids.length);
  for (let i = 0; i < c.ids.length; i += 1) {
    const codes = c.codes[i] ?? '';
    items[i] = { variantId: c.ids[i] ?? '', name: c.names[i] ?? '', sku: c.skus[i] ?? '', barcodes: codes ? codes.split(' ') : [],
      price: c.prices[i] ?? 0, taxRate: c.taxRates[i] ?? 0, unit: c.kg[i] ? 'kg' : 'each' };
  }
  return items;
}
interface StoredState { storeId: string; since: string | null; version: number; chunks: number[] }

interface CatalogDb extends DBSchema {
  chunks: { key: [string, number]; value: StoredChunk };
  state: { key: string; value: StoredState };
}

export const CATALOG_DB_NAME = 'storewise-pos-catalog';
export type CatalogDatabase = IDBPDatabase<CatalogDb>;

export function openCatalogDb(name = CATALOG_DB_NAME): Promise<CatalogDatabase> {
  return openDB<CatalogDb>(name, 1, {
    upgrade(db) {
      db.createObjectStore('chunks', { keyPath: ['storeId', 'n'] });
      db.createObjectStore('state', { keyPath: 'storeId' });
    },
  });
}

/** One page of pos_catalog: full (since null) from the keyset `after`, or the changes since `since`. */
export type PageFetcher = (args: { after: string | null; since: string | null }) => Promise<CatalogRow[]>;

/** One page of pos_catalog through the data API. */
export async function fetchCatalogPage(supabase: StorewiseClient, storeId: string, { after, since }: { after: string | null; since: string | null })
  : Promise<CatalogRow[]> {
  const { data, error } = await supabase.rpc('pos_catalog', { _store_id: storeId, ...(after ? { _after: after } : {}), ...(since ? { _since: since } : {}) });
  if (error) throw new Error(error.message);
  return (data ?? []) as unknown as CatalogRow[];
}

/**
 * The server's clock, asked beside a load's first page (ADR 0169). The copy's `since` becomes the later of it and
 * the newest change seen, so the next delta starts from the server's "now" less the overlap rather than from the
 * newest change: after a bulk change, only a load within the overlap re-reads it, not every later one.
 */
export type ClockFetcher = () => Promise<string | null>;

export async function fetchServerClock(supabase: StorewiseClient): Promise<string | null> {
  const { data, error } = await supabase.rpc('pos_clock');
  if (error) throw new Error(error.message);
  return typeof data === 'string' ? data : null;
}

/** The device's copy of a store's catalog as it is held in memory. */
export interface LocalCatalog {
  storeId: string;
  since: string | null;
  /** Items per chunk number (the chunk order is the order of the list). */
  chunks: Map<number, CatalogItem[]>;
}

export const catalogItems = (copy: LocalCatalog): CatalogItem[] => {
  const items: CatalogItem[] = [];
  for (const n of [...copy.chunks.keys()].sort((a, b) => a - b)) for (const item of copy.chunks.get(n) ?? []) items.push(item);
  return items;
};

/** The copy's state (its newest change and chunk list), or null without a usable copy: one small read. */
export async function readState(db: CatalogDatabase, storeId: string): Promise<StoredState | null> {
  const state = await db.get('state', storeId);
  return state && state.version === CATALOG_COPY_VERSION ? state : null;
}

export async function readCatalog(db: CatalogDatabase, storeId: string, known?: StoredState | null): Promise<LocalCatalog | null> {
  const state = known === undefined ? await readState(db, storeId) : known;
  if (!state) return null;
  const stored = await db.getAll('chunks', IDBKeyRange.bound([storeId, -Infinity], [storeId, Infinity]));
  const chunks = new Map(stored.map((c) => [c.n, decodeChunk(c)]));
  // A chunk the state does not name is from a load that was cut off: the state's list is the copy.
  const named = new Set(state.chunks);
  for (const n of chunks.keys()) if (!named.has(n)) chunks.delete(n);
  return { storeId, since: state.since, chunks };
}

/**
 * Where the parallel cold-load streams start: the uuid space cut in `streams` equal ranges. Stream i reads ids
 * after bounds[i] (none for the first) up to and including bounds[i + 1].
 */
export function streamBounds(streams: number): (string | null)[] {
  const bounds: (string | null)[] = [null];
  for (let i = 1; i < streams; i += 1) {
    const head = Math.floor((i * 0x1_0000_0000) / streams).toString(16).padStart(8, '0');
    bounds.push(`${head}-0000-0000-0000-000000000000`);
  }
  return bounds;
}

/** Chunk numbers: stream i's pages are i * STREAM_SPAN + page, so the chunks keep the id order. */
const STREAM_SPAN = 1_000_000;

/**
 * How far a cold load has come (issue 32: the cashier sees it at 1,000,000 variants). `fraction` is the share of the
 * uuid space the streams have read past (0 to 1): ids are uniform (random or md5), so it is the share of the
 * catalog read without asking the server for a count; `loaded` counts the rows received; `total` is the estimate
 * loaded / fraction once a tenth is read (null before), exact (= loaded) at the end.
 */
export interface LoadProgress { loaded: number; fraction: number; total: number | null; done: boolean }

/** The uuid's first 32 bits as a number: its place in the id space the streams cut (streamBounds). */
const headOf = (id: string | null): number => (id ? Number.parseInt(id.slice(0, 8), 16) : 0);

/** Tracks each stream's position in its range and reports the share of the id space read. */
export function progressTracker(bounds: (string | null)[], onProgress?: (p: LoadProgress) => void) {
  const SPACE = 0x1_0000_0000;
  const starts = bounds.map(headOf);
  const ends = bounds.map((_, s) => (s + 1 < bounds.length ? headOf(bounds[s + 1] ?? null) : SPACE));
  const covered = bounds.map(() => 0);
  let loaded = 0;
  let shown = -1;
  const report = (done: boolean) => {
    const fraction = done ? 1 : Math.min(1, covered.reduce((sum, c) => sum + c, 0) / SPACE);
    // At most one report per half percent: a report re-renders the register, and 1,000,000 items are 1,000 pages.
    if (!done && shown >= 0 && fraction - shown < 0.005) return;
    shown = fraction;
    onProgress?.({ loaded, fraction, total: done ? loaded : fraction >= 0.1 ? Math.round(loaded / fraction) : null, done });
  };
  return {
    /** Stream s received `rows` rows, the last with id `last`; `finished` when its range is read. */
    page(s: number, rows: number, last: string | null, finished: boolean) {
      loaded += rows;
      const start = starts[s] ?? 0;
      const end = ends[s] ?? SPACE;
      covered[s] = finished ? end - start : Math.min(end - start, Math.max(0, headOf(last) - start));
      report(false);
    },
    done: () => report(true),
  };
}

/** Fetches the whole catalog in `streams` parallel keyset streams, writing each page as a chunk as it arrives. */
export async function fullLoad(db: CatalogDatabase, storeId: string, fetchPage: PageFetcher, streams = 3,
  clock: Promise<string | null> = Promise.resolve(null), onProgress?: (p: LoadProgress) => void)
  : Promise<{ copy: LocalCatalog; rows: number }> {
  const serverNow = clock.catch(() => null);
  const bounds = streamBounds(streams);
  const progress = progressTracker(bounds, onProgress);
  progress.page(0, 0, null, false);
  const chunks = new Map<number, CatalogItem[]>();
  const writes: Promise<unknown>[] = [];
  let rows = 0;
  let since: string | null = null;
  await Promise.all(bounds.map(async (start, s) => {
    const end = bounds[s + 1] ?? null;
    let after = start;
    for (let page = 0; ; page += 1) {
      const fetched = await fetchPage({ after, since: null });
      const last = fetched[fetched.length - 1]?.variant_id ?? null;
      const mine = end ? fetched.filter((r) => r.variant_id <= end) : fetched;
      rows += mine.length;
      since = newestChange(mine, since);
      const items = mine.filter((r) => !r.archived).map(toItem);
      const n = s * STREAM_SPAN + page;
      chunks.set(n, items);
      // Not awaited here: the next page is fetched while IndexedDB writes this one.
      writes.push(db.put('chunks', encodeChunk(storeId, n, items)));
      const finished = fetched.length < CATALOG_PAGE || mine.length < fetched.length || !last;
      progress.page(s, mine.length, mine[mine.length - 1]?.variant_id ?? null, finished);
      if (finished) break;
      after = last;
    }
  }));
  await Promise.all(writes);
  since = newestStamp([await serverNow], since);
  const tx = db.transaction(['state', 'chunks'], 'readwrite');
  // Chunks of an earlier copy that this one does not have.
  const old = await tx.objectStore('chunks').getAllKeys(IDBKeyRange.bound([storeId, -Infinity], [storeId, Infinity]));
  await Promise.all(old.filter(([, n]) => !chunks.has(n)).map((key) => tx.objectStore('chunks').delete(key)));
  await tx.objectStore('state').put({ storeId, since, version: CATALOG_COPY_VERSION, chunks: [...chunks.keys()] });
  await tx.done;
  progress.done();
  return { copy: { storeId, since, chunks }, rows };
}

/**
 * A delta longer than this many pages is given up for a full load. Until ADR 0169 each delta page rebuilt every
 * changed row (64 s at 100,000 variants on PGlite after a bulk change); now a page walks the variants by id and a
 * catalog-wide delta costs about a full load (7.3 s against 6.1 s), but in one stream where the full load runs
 * three, so this stays as a guard.
 */
export const DELTA_PAGES_MAX = 5;

/**
 * The rows changed since `since` (the copy's newest change) less an overlap, every page; null when the delta
 * runs past DELTA_PAGES_MAX pages (the caller loads the whole catalog instead).
 */
export async function fetchDelta(since: string | null, fetchPage: PageFetcher): Promise<CatalogRow[] | null> {
  const from = since ? deltaStart(since) : null;
  const rows: CatalogRow[] = [];
  for (let after: string | null = null, pages = 0; ;) {
    const page = await fetchPage({ after, since: from });
    rows.push(...page);
    if (page.length < CATALOG_PAGE) break;
    pages += 1;
    if (pages >= DELTA_PAGES_MAX) return null;
    after = page[page.length - 1]?.variant_id ?? null;
  }
  return rows;
}

/** Fetches the changes since the copy's newest change, merges them and writes what changed. */
export async function deltaLoad(db: CatalogDatabase, copy: LocalCatalog, fetchPage: PageFetcher, fetchClock?: ClockFetcher) {
  const clock = fetchClock ? fetchClock().catch(() => null) : null;
  const rows = await fetchDelta(copy.since, fetchPage);
  if (!rows) return null;
  const merged = mergeDelta(copy, rows, await clock);
  await saveDelta(db, merged);
  return merged;
}

export interface MergedDelta {
  copy: LocalCatalog;
  rows: number;
  /** Variant -> its new item, or null when archived (removed). */
  replaced: Map<string, CatalogItem | null>;
  added: CatalogItem[];
  /** The chunk numbers to write. */
  touched: Set<number>;
  /** `since` moved (the state is written even when no row changed). */
  moved: boolean;
}

/**
 * Applies changed rows, in memory, to the chunks that hold them; new items go to the highest chunk number + 1 (one
 * chunk per delta that brings new items). saveDelta then writes only those chunks.
 */
export function mergeDelta(copy: LocalCatalog, rows: CatalogRow[], clock: string | null = null): MergedDelta {
  const replaced = new Map<string, CatalogItem | null>();
  const since = newestStamp([clock], newestChange(rows, copy.since));
  if (rows.length === 0) return { copy: { ...copy, since }, rows: 0, replaced, added: [], touched: new Set(), moved: since !== copy.since };
  const changed = new Map(rows.map((r) => [r.variant_id, r]));
  const chunks = new Map(copy.chunks);
  const touched = new Set<number>();
  for (const [n, items] of copy.chunks) {
    if (!items.some((item) => changed.has(item.variantId))) continue;
    const next: CatalogItem[] = [];
    for (const item of items) {
      const row = changed.get(item.variantId);
      if (!row) next.push(item);
      else {
        changed.delete(item.variantId);
        const fresh = row.archived ? null : toItem(row);
        replaced.set(item.variantId, fresh);
        if (fresh) next.push(fresh);
      }
    }
    chunks.set(n, next);
    touched.add(n);
  }
  const added = [...changed.values()].filter((r) => !r.archived).map(toItem);
  if (added.length > 0) {
    const n = Math.max(-1, ...chunks.keys()) + 1;
    chunks.set(n, added);
    touched.add(n);
  }
  const next: LocalCatalog = { storeId: copy.storeId, since, chunks };
  return { copy: next, rows: rows.length, replaced, added, touched, moved: since !== copy.since };
}

/** Writes the chunks a delta changed and the new state in one transaction (all or nothing: a cut-off write is re-read). */
export async function saveDelta(db: CatalogDatabase, { copy, touched, rows, moved }: MergedDelta): Promise<void> {
  if (rows === 0 && !moved) return;
  const tx = db.transaction(['state', 'chunks'], 'readwrite');
  for (const n of touched) void tx.objectStore('chunks').put(encodeChunk(copy.storeId, n, copy.chunks.get(n) ?? []));
  void tx.objectStore('state').put({ storeId: copy.storeId, since: copy.since, version: CATALOG_COPY_VERSION, chunks: [...copy.chunks.keys()] });
  await tx.done;
}

const mark = (name: string, detail?: Record<string, unknown>) => {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name, detail ? { detail } : undefined);
};

/**
 * The register's catalog: the device's copy at once (`onItems`), then brought up to date (a delta, or the whole
 * catalog on a device without a copy). Sets the performance marks pos-catalog-start, pos-catalog-local (the stored
 * copy in memory) and pos-catalog-ready (up to date, stored and searchable), which bench/register-browser.bench.ts
 * reads. Offline, the stored copy is what the register sells from.
 */
export async function loadStoreCatalog(options: {
  storeId: string;
  fetchPage: PageFetcher;
  /** The server's clock (fetchServerClock); without it `since` is the newest change seen. */
  fetchClock?: ClockFetcher;
  onItems: (items: CatalogItem[]) => void;
  isStale: () => boolean;
  /** A full load's progress (the register's progress bar); not called for a delta. */
  onProgress?: (p: LoadProgress) => void;
  db?: CatalogDatabase;
}): Promise<void> {
  const { storeId, fetchPage, onItems, isStale } = options;
  mark('pos-catalog-start');
  const db = options.db ?? (await openCatalogDb());
  const state = await readState(db, storeId);
  // The delta is asked for while the stored copy is read (it only needs the copy's newest change).
  const delta = state ? fetchDelta(state.since, fetchPage) : null;
  delta?.catch(() => undefined);
  // Asked beside the first page; a failure (an older server) leaves `since` at the newest change seen.
  const clock = options.fetchClock ? options.fetchClock().catch(() => null) : Promise.resolve(null);
  const local = state ? await readCatalog(db, storeId, state) : null;
  if (isStale()) return;
  mark('pos-catalog-read');
  const shown = local ? indexCatalog(catalogItems(local)) : null;
  if (shown) {
    // Indexed here, before the till renders it, so "usable" means searchable and scannable.
    onItems(shown.items);
    mark('pos-catalog-local');
  }
  try {
    // A delta too long to be worth it (null) falls through to the full load below.
    const rows = shown && local && delta ? await delta : null;
    if (shown && local && rows) {
      mark('pos-catalog-delta-fetched');
      const merged = mergeDelta(local, rows, await clock);
      if (isStale()) return;
      // The index is patched (the changed items only), not rebuilt over 100,000 items.
      const items = merged.rows > 0 ? patchIndex(shown, merged.replaced, merged.added).items : shown.items;
      if (items !== shown.items) onItems(items);
      // Ready: the till sells at the new prices. The write follows; if it is cut off, the state still names the
      // previous `since`, so the next load asks for the same delta again.
      mark('pos-catalog-ready', { mode: 'delta', rows: merged.rows, items: items.length });
      await saveDelta(db, merged);
      mark('pos-catalog-saved');
      return;
    }
    // The bar's end is "ready" (indexed and handed to the till), not the last page stored.
    const fresh = await fullLoad(db, storeId, fetchPage, 3, clock, (p) => !p.done && !isStale() && options.onProgress?.(p));
    if (isStale()) return;
    const items = indexCatalog(catalogItems(fresh.copy)).items;
    onItems(items);
    options.onProgress?.({ loaded: items.length, fraction: 1, total: items.length, done: true });
    mark('pos-catalog-ready', { mode: 'full', rows: fresh.rows, items: items.length });
  } catch {
    // Offline (or the server failed): the copy it has is what it sells from.
  }
}
