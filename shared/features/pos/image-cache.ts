import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The register's product pictures on the device (docs/adr/0320), beside its catalog copy (catalog-store.ts, the
 * same idb library): which small preview each variant shows, and the previews' bytes, so search results and the
 * cart show them offline. The bytes are bounded: past the budget the least recently shown previews go first.
 * Bytes are kept as an ArrayBuffer with their type (every browser stores those; Blob storage varies).
 */
interface CachedImage {
  url: string;
  bytes: ArrayBuffer;
  type: string;
  size: number;
  usedAt: number;
}
interface StoredMap {
  businessId: string;
  /** [variant id, small preview path] */
  entries: [string, string][];
}
interface ImageDb extends DBSchema {
  images: { key: string; value: CachedImage; indexes: { usedAt: number } };
  maps: { key: string; value: StoredMap };
}

export const IMAGE_DB_NAME = 'storewise-pos-images';
/** About 2,500 small previews (8 kB each): a store's best sellers and more. */
export const IMAGE_CACHE_BUDGET = 20 * 1024 * 1024;
export type ImageDatabase = IDBPDatabase<ImageDb>;

export function openImageDb(name = IMAGE_DB_NAME): Promise<ImageDatabase> {
  return openDB<ImageDb>(name, 1, {
    upgrade(db) {
      db.createObjectStore('images', { keyPath: 'url' }).createIndex('usedAt', 'usedAt');
      db.createObjectStore('maps', { keyPath: 'businessId' });
    },
  });
}

export async function readImageMap(db: ImageDatabase, businessId: string): Promise<Map<string, string> | null> {
  const stored = await db.get('maps', businessId);
  return stored ? new Map(stored.entries) : null;
}

export async function saveImageMap(db: ImageDatabase, businessId: string, entries: [string, string][]): Promise<void> {
  await db.put('maps', { businessId, entries });
}

/** A cached preview (marked as just used), or null. */
export async function readImage(db: ImageDatabase, url: string, now = Date.now()): Promise<Blob | null> {
  const tx = db.transaction('images', 'readwrite');
  const found = await tx.store.get(url);
  if (found) void tx.store.put({ ...found, usedAt: now });
  await tx.done;
  return found ? new Blob([found.bytes], { type: found.type }) : null;
}

export async function hasImage(db: ImageDatabase, url: string): Promise<boolean> {
  return (await db.getKey('images', url)) !== undefined;
}

/**
 * Keeps a preview, then trims the cache to the budget: walking from the most recently used, everything past the
 * budget is deleted (one pass over the index; the bytes are not read, only the sizes).
 */
export async function storeImage(db: ImageDatabase, url: string, blob: Blob, budget = IMAGE_CACHE_BUDGET, now = Date.now()): Promise<void> {
  const bytes = await blob.arrayBuffer();
  if (bytes.byteLength > budget) return;
  await db.put('images', { url, bytes, type: blob.type, size: bytes.byteLength, usedAt: now });
  const tx = db.transaction('images', 'readwrite');
  let total = 0;
  for (let cursor = await tx.store.index('usedAt').openCursor(null, 'prev'); cursor; cursor = await cursor.continue()) {
    total += cursor.value.size;
    if (total > budget) await cursor.delete();
  }
  await tx.done;
}

/** The preview from the cache, else fetched (online) and kept; null when neither works. */
export async function cachedImage(db: ImageDatabase, url: string, fetcher: typeof fetch = fetch, budget = IMAGE_CACHE_BUDGET): Promise<Blob | null> {
  const found = await readImage(db, url);
  if (found) return found;
  try {
    const response = await fetcher(url);
    if (!response.ok) return null;
    const blob = await response.blob();
    await storeImage(db, url, blob, budget);
    return blob;
  } catch {
    return null;
  }
}

/**
 * Fetches the previews not yet on the device, a few at a time, until `limit` were fetched: a register that goes
 * offline later still shows the pictures of items it has not shown yet. Stops at the first network failure.
 */
export async function prefetchImages(db: ImageDatabase, urls: string[], options: { limit?: number; parallel?: number; fetcher?: typeof fetch; isStale?: () => boolean } = {}): Promise<number> {
  const { limit = 300, parallel = 4, fetcher = fetch, isStale = () => false } = options;
  const queue = [...new Set(urls)];
  let fetched = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && !isStale() && fetched < limit) {
      const url = queue.shift();
      if (!url) return;
      if (await hasImage(db, url)) continue;
      fetched += 1;
      if (!(await cachedImage(db, url, fetcher))) failed = true;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return fetched;
}
