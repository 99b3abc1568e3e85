/**
 * Sales waiting to sync from this device's register: the POS outbox in IndexedDB (ADR 0130, database
 * "storewise-pos", store "outbox"). Read-only and without the POS module (features do not import each other):
 * the database is opened only when it already exists, because opening a missing one would create it at version
 * 1 without its stores and the register's own upgrade would then skip them. Unknown (null) when the browser
 * cannot tell.
 */
export const POS_DB_NAME = 'storewise-pos';

export async function countWaitingSales(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<number | null> {
  if (!factory || typeof factory.databases !== 'function') return null;
  const existing = await factory.databases();
  if (!existing.some((d) => d.name === POS_DB_NAME)) return 0;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(POS_DB_NAME);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
    // A database that exists always opens at its version: no upgrade. Should one run anyway, leave it alone.
    request.onupgradeneeded = () => request.transaction?.abort();
  });
  try {
    if (!db.objectStoreNames.contains('outbox')) return 0;
    const entries = await new Promise<{ kind?: string }[]>((resolve, reject) => {
      const request = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
      request.onsuccess = () => resolve(request.result as { kind?: string }[]);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'));
    });
    // Entries written before refunds shared the queue have no kind: they are sales.
    return entries.filter((e) => (e.kind ?? 'sale') === 'sale').length;
  } finally {
    db.close();
  }
}
