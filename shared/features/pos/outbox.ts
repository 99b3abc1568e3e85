import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The register's offline outbox (ADR 0130): every sale is written here first, then sent to post_sale in the order
 * it was made. The sale's client-generated id is its idempotency key, so a send that reached the server but whose
 * answer was lost is simply sent again and the server returns the first result: exactly once. Entries leave the
 * outbox only after the server has answered with the sale. IndexedDB survives reloads, crashes and restarts (on
 * the web the register asks navigator.storage.persist() so the browser does not evict it).
 */
/**
 * One ordered queue for everything the register does offline (ADR 0155): a customer added at the counter before
 * the sale that names them, cash in and out, and the shift's close after the shift's sales. Each carries its
 * client-generated id, the server's idempotency key for that write.
 */
export type OutboxKind = 'sale' | 'refund' | 'customer' | 'cash' | 'close' | 'open';

/**
 * Who made an entry at the counter (ADR 0165). The outbox belongs to the device and its register, but each entry
 * is sent only under its author's own sign-in, so the server attributes it to them and checks their role then.
 */
export interface OutboxAuthor { id: string; label: string }

export interface OutboxEntry {
  /** The sale's uuid (post_sale payload.id). */
  id: string;
  /** Order of creation on this device. */
  seq: number;
  /** post_sale, post_refund, create_customer, cash_in_out, close_shift or open_shift: one queue, so each follows what it needs. */
  kind: OutboxKind;
  /** Who made it; entries written before ADR 0165 have none and are sent by whoever is signed in. */
  author?: OutboxAuthor;
  payload: Record<string, unknown>;
  createdAt: string;
  attempts: number;
  lastError?: string;
}

/** A cart put aside at a register (issue 13: park and resume), kept on the device so it survives a reload. */
export interface ParkedCart {
  id: string;
  registerId: string;
  parkedAt: string;
  label: string;
  cart: unknown;
}

interface PosDb extends DBSchema {
  outbox: { key: string; value: OutboxEntry; indexes: { bySeq: number } };
  meta: { key: string; value: { key: string; value: unknown } };
  parked: { key: string; value: ParkedCart; indexes: { byRegister: string } };
}

export const POS_DB_NAME = 'storewise-pos';

export type PosDatabase = IDBPDatabase<PosDb>;

export function openPosDb(name = POS_DB_NAME): Promise<PosDatabase> {
  return openDB<PosDb>(name, 2, {
    // Version 1 had the outbox and meta; version 2 adds parked carts. Entries written by version 1 are sales.
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const outbox = db.createObjectStore('outbox', { keyPath: 'id' });
        outbox.createIndex('bySeq', 'seq', { unique: true });
        db.createObjectStore('meta', { keyPath: 'key' });
      }
      if (oldVersion < 2) {
        db.createObjectStore('parked', { keyPath: 'id' }).createIndex('byRegister', 'registerId');
      }
    },
  });
}

/** Adds a sale to the outbox (in one transaction with its sequence), before any network call. */
export function enqueueSale(db: PosDatabase, payload: Record<string, unknown> & { id: string }): Promise<OutboxEntry> {
  return enqueue(db, 'sale', payload);
}

export interface EnqueueOptions {
  /** A meta record removed in the same transaction: the kept cart of the sale being queued (cart-draft.ts, ADR 0200). */
  clearMeta?: string;
}

/** Adds a sale or refund to the outbox behind everything already waiting. */
export async function enqueue(db: PosDatabase, kind: OutboxKind, payload: Record<string, unknown> & { id: string },
  author?: OutboxAuthor | null, options: EnqueueOptions = {}): Promise<OutboxEntry> {
  const tx = db.transaction(['outbox', 'meta'], 'readwrite');
  const outbox = tx.objectStore('outbox');
  const last = await outbox.index('bySeq').openCursor(null, 'prev');
  const entry: OutboxEntry = {
    id: payload.id, seq: (last?.value.seq ?? 0) + 1, kind, payload, createdAt: new Date().toISOString(), attempts: 0,
    ...(author ? { author } : {}),
  };
  await outbox.put(entry);
  if (options.clearMeta) await tx.objectStore('meta').delete(options.clearMeta);
  await tx.done;
  return entry;
}

export async function pendingEntries(db: PosDatabase): Promise<OutboxEntry[]> {
  return db.getAllFromIndex('outbox', 'bySeq');
}

export async function pendingCount(db: PosDatabase): Promise<number> {
  return db.count('outbox');
}

/**
 * Why the server asked to retry, when it said: 'read_only' is an admin's read-only maintenance (docs/adr/0280),
 * which holds every write until it ends, so the pass stops at once rather than trying smaller batches.
 */
export type RetryReason = 'read_only';

/** What sending one sale answered: done (the server has it), retry later (offline, 5xx) or stuck (4xx). */
export type SendResult = { status: 'done'; result: unknown } | { status: 'retry'; error: string; reason?: RetryReason }
  | { status: 'rejected'; error: string };

/** What sending a batch of sales answered: one result per entry, in order; or retry them all; or no batch endpoint. */
export type BatchResult = { status: 'done'; results: SendResult[] } | { status: 'retry'; error: string; reason?: RetryReason }
  | { status: 'unsupported' };

export interface SyncOptions {
  /** Sends consecutive sales together (post_sales, at most 50 and MAX_BATCH_LINES lines): fewer round trips. */
  sendBatch?: (entries: OutboxEntry[]) => Promise<BatchResult>;
  /** Sales a batch starts with (default 50, the most post_sales takes); halved while the server asks to retry. */
  batchSize?: number;
  /**
   * The signed-in user's id (null: nobody). When given, an entry made by someone else stops the pass (ADR 0165):
   * it is never sent under another person's sign-in, and nothing behind it overtakes it.
   */
  signedIn?: string | null;
}

/** Entries waiting for their author to sign in again on this register. */
export interface HeldEntries { count: number; authors: string[] }

/** An entry another person made, which the signed-in user must not send (undefined: no check asked). */
export const heldFor = (entry: OutboxEntry, signedIn: string | null | undefined) =>
  signedIn !== undefined && Boolean(entry.author) && entry.author?.id !== signedIn;

/** Whether an entry was refused by the server and waits for a manager (it is skipped by sync until retried). */
export const isRefused = (entry: OutboxEntry) => Boolean(entry.lastError?.startsWith('rejected:'));

/** The most sales post_sales takes in one call (supabase/migrations: post_sales). */
export const MAX_BATCH = 50;

/**
 * The most sale lines post_sales takes in one call, all its sales together (20261127120000_work_caps, ADR 0180):
 * each call stays well under a second on the embedded database. A sale longer than that goes alone (post_sale).
 */
export const MAX_BATCH_LINES = 60;

/** The lines of a queued sale (what post_sales counts against MAX_BATCH_LINES). */
const linesOf = (entry: OutboxEntry): number => (Array.isArray(entry.payload.lines) ? entry.payload.lines.length : 0);

/**
 * Sends the waiting entries in order. Stops at the first one that must be retried, so a later sale never overtakes
 * an earlier one (within a batch the server posts in order too). An entry the server rejects outright (a 4xx: it
 * never will accept it, e.g. the cashier lost access) stays in the outbox with its error for a manager, and sync
 * continues with the next: the outbox never drops a sale by itself. Consecutive sales go in batches when the
 * caller can send them so; refunds always go one at a time, after the sales before them. The outbox is read once
 * per pass and a batch's outcomes are written in one IndexedDB transaction (not one per sale).
 */
export async function syncOutbox(
  db: PosDatabase,
  send: (entry: OutboxEntry) => Promise<SendResult>,
  onSent?: (entry: OutboxEntry, result: unknown) => void,
  options: SyncOptions = {},
): Promise<{ sent: number; waiting: number; rejected: number; held?: HeldEntries; paused?: string }> {
  let sent = 0;
  // The server's read-only maintenance, in its own words: the register shows why its sales wait.
  let paused: string | undefined;
  let rejected = 0;
  let batching = Boolean(options.sendBatch);
  let size = Math.min(MAX_BATCH, Math.max(1, options.batchSize ?? MAX_BATCH));
  const all = (await pendingEntries(db)).filter((entry) => {
    if (!isRefused(entry)) return true;
    rejected += 1;
    return false;
  });
  // Another person's entry ends what this sign-in may send: it and everything behind it wait (order is kept).
  const firstHeld = all.findIndex((entry) => heldFor(entry, options.signedIn));
  const entries = firstHeld < 0 ? all : all.slice(0, firstHeld);
  const heldRest = firstHeld < 0 ? [] : all.slice(firstHeld);
  const held = heldRest.length === 0 ? undefined : {
    count: heldRest.length,
    authors: [...new Set(heldRest.filter((e) => heldFor(e, options.signedIn)).map((e) => e.author?.label ?? ''))],
  };
  /** Records the outcomes of consecutive entries together; false when sync must stop after them. */
  const settle = async (outcomes: [OutboxEntry, SendResult][]): Promise<boolean> => {
    let go = true;
    const tx = db.transaction('outbox', 'readwrite');
    const writes: Promise<unknown>[] = [];
    for (const [entry, outcome] of outcomes) {
      if (outcome.status === 'done') {
        writes.push(tx.store.delete(entry.id));
        continue;
      }
      const prefix = outcome.status === 'rejected' ? 'rejected: ' : '';
      writes.push(tx.store.put({ ...entry, attempts: entry.attempts + 1, lastError: prefix + outcome.error }));
      if (outcome.status === 'retry') go = false;
      if (outcome.status === 'retry' && outcome.reason === 'read_only') paused = outcome.error;
    }
    await Promise.all([...writes, tx.done]);
    // Counted once the transaction committed: an entry is "sent" only when it has left the outbox.
    for (const [entry, outcome] of outcomes) {
      if (outcome.status === 'done') {
        sent += 1;
        onSent?.(entry, outcome.result);
      } else if (outcome.status === 'rejected') {
        rejected += 1;
      }
    }
    return go;
  };
  for (let i = 0; i < entries.length;) {
    const entry = entries[i] as OutboxEntry;
    if (batching && options.sendBatch && (entry.kind ?? 'sale') === 'sale') {
      let end = i;
      let lines = 0;
      while (end < entries.length && end - i < size && ((entries[end] as OutboxEntry).kind ?? 'sale') === 'sale'
        && (end === i || lines + linesOf(entries[end] as OutboxEntry) <= MAX_BATCH_LINES)) {
        lines += linesOf(entries[end] as OutboxEntry);
        end += 1;
      }
      const batch = entries.slice(i, end);
      if (batch.length > 1) {
        const outcome = await options.sendBatch(batch);
        if (outcome.status === 'unsupported') {
          batching = false;
          continue;
        }
        if (outcome.status === 'retry' && outcome.reason === 'read_only') {
          paused = outcome.error;
          break;
        }
        if (outcome.status === 'retry') {
          // Maybe the batch itself was too long for the server's statement timeout (8 s for signed-in users on
          // hosted Supabase): halve it and try again; at one sale the single path decides.
          size = Math.max(1, Math.floor(batch.length / 2));
          continue;
        }
        const go = await settle(batch.map((e, k) => [e, outcome.results[k] ?? { status: 'retry', error: 'no answer for this sale' }]));
        if (!go) break;
        i = end;
        continue;
      }
    }
    if (!(await settle([[entry, await send(entry)]]))) break;
    i += 1;
  }
  // Counted in the store: a sale made while this pass ran waits too.
  return { sent, waiting: await pendingCount(db), rejected, ...(held ? { held } : {}), ...(paused ? { paused } : {}) };
}

/** The entries the server refused, oldest first: shown to the register with their reasons (refused-entries.tsx). */
export async function refusedEntries(db: PosDatabase): Promise<OutboxEntry[]> {
  return (await pendingEntries(db)).filter(isRefused);
}

/** A manager's retry: the entry goes back in its place in the queue, its refusal cleared (sent again next pass). */
export async function retryEntry(db: PosDatabase, id: string): Promise<OutboxEntry | undefined> {
  const tx = db.transaction('outbox', 'readwrite');
  const entry = await tx.store.get(id);
  if (entry && isRefused(entry)) {
    const { lastError: _refusal, ...rest } = entry;
    await tx.store.put({ ...rest, attempts: entry.attempts });
  }
  await tx.done;
  return entry;
}

/** A manager's discard of a refused entry (the reason is recorded on the server first). Never drops a waiting one. */
export async function discardEntry(db: PosDatabase, id: string): Promise<boolean> {
  const tx = db.transaction('outbox', 'readwrite');
  const entry = await tx.store.get(id);
  const refused = Boolean(entry && isRefused(entry));
  if (refused) await tx.store.delete(id);
  await tx.done;
  return refused;
}

export async function getMeta<T>(db: PosDatabase, key: string): Promise<T | undefined> {
  return (await db.get('meta', key))?.value as T | undefined;
}

export async function setMeta(db: PosDatabase, key: string, value: unknown): Promise<void> {
  await db.put('meta', { key, value });
}

/** The entry with this id while it waits (or was refused and stays, lastError 'rejected: ...'), else undefined. */
export async function queuedEntry(db: PosDatabase, id: string): Promise<OutboxEntry | undefined> {
  return db.get('outbox', id);
}

/** The ids of the sales still waiting: a refund of one of them is queued behind it and flagged as such. */
export async function waitingSaleIds(db: PosDatabase): Promise<Set<string>> {
  return new Set((await pendingEntries(db)).filter((e) => (e.kind ?? 'sale') === 'sale').map((e) => e.id));
}

// ---------------------------------------------------------------------------------------------------------------
// Parked carts, per register.

export async function parkCart(db: PosDatabase, registerId: string, label: string, cart: unknown): Promise<ParkedCart> {
  const parked: ParkedCart = { id: crypto.randomUUID(), registerId, parkedAt: new Date().toISOString(), label, cart };
  await db.put('parked', parked);
  return parked;
}

export async function listParked(db: PosDatabase, registerId: string): Promise<ParkedCart[]> {
  const all = await db.getAllFromIndex('parked', 'byRegister', registerId);
  return all.sort((a, b) => a.parkedAt.localeCompare(b.parkedAt));
}

/** Takes a parked cart back (read and delete in one transaction: two tabs cannot both resume it). */
export async function resumeParked(db: PosDatabase, id: string): Promise<ParkedCart | undefined> {
  const tx = db.transaction('parked', 'readwrite');
  const parked = await tx.store.get(id);
  if (parked) await tx.store.delete(id);
  await tx.done;
  return parked;
}
