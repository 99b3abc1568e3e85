/**
 * PGlite behind the Db seam, off the HTTP thread (docs/adr/0080). Every operation goes through one queue
 * (PGlite has one connection), taken in turns between users (fair-queue.ts, docs/adr/0181); each statement of
 * an API request carries its role's statement timeout. A statement past its deadline, or one whose result
 * PGlite lost, fails its request and restarts the worker on the same data folder: committed data is kept, the
 * open transaction is gone, and the requests queued behind it run on the new worker.
 */
import type { LocalDb, OwnerTx } from './local-db';
import { PgliteThread, type PgliteThreadOptions } from './pglite-thread';
import { applyRequestContext } from './request-settings';
import { FairQueue, laneOf, OWNER_LANE } from './fair-queue';
import { statementTimeoutMs, type StatementTimeouts } from './statement-timeouts';
import type { Queryable, QueryResult, RequestContext } from './types';

export interface PgliteDbOptions {
  /** The data folder: a stuck worker is replaced by a new one on the same folder. */
  dataDir: string;
  /** For messages: the data folder, or 'memory'. */
  location: string;
  statementTimeouts?: Partial<StatementTimeouts>;
  /** Runs after the worker has closed (release the lock, remove a temporary folder). */
  onClose?: () => void;
}

export type PgliteLocalDb = LocalDb & {
  /** How many times the worker was restarted after a timeout or a lost result. */
  readonly restarts: number;
  /** Operations waiting for the connection (the running one not counted). */
  readonly queued: number;
};

/** The statements applyRequestContext would run, collected to be sent with `begin` in one message. */
async function contextStatements(ctx: RequestContext, timeouts?: Partial<StatementTimeouts>): Promise<{ sql: string; params?: unknown[] }[]> {
  const statements: { sql: string; params?: unknown[] }[] = [];
  const recorder: Queryable = {
    query: async <T>(sql: string, params?: unknown[]) => {
      statements.push({ sql, ...(params ? { params } : {}) });
      return { rows: [] as T[], fields: [], affectedRows: 0 };
    },
  };
  await applyRequestContext(recorder, ctx, timeouts);
  return statements;
}

function wrap(thread: PgliteThread, timeoutMs?: number): OwnerTx {
  return {
    query: <T>(sql: string, params?: unknown[]) => thread.query<T>(sql, params, timeoutMs),
    exec: (sql: string) => thread.exec(sql),
  };
}

export async function openPgliteDb(options: PgliteDbOptions): Promise<PgliteLocalDb> {
  const queue = new FairQueue();
  const reopen: PgliteThreadOptions = { dataDir: options.dataDir };
  let restarts = 0;
  let closed = false;
  const broken = new WeakSet<PgliteThread>();
  // LISTEN channels and their callbacks: every new worker (a restart included) listens again before use.
  const listeners = new Map<string, (payload: string) => void>();
  const startThread = async (): Promise<PgliteThread> => {
    const started = await PgliteThread.start(reopen, onBroken);
    started.onNotify = (notification) => listeners.get(notification.channel)?.(notification.payload);
    for (const channel of listeners.keys()) await started.listen(channel);
    return started;
  };

  // Terminate the stuck worker and open the folder again. Requests wait on `current`, so the next one
  // starts on the new worker; only the failing request sees the error.
  const onBroken = (stuck: PgliteThread): void => {
    if (closed || broken.has(stuck)) return;
    broken.add(stuck);
    restarts += 1;
    current = stuck.terminate().then(startThread);
  };
  let current = startThread();
  await current;

  const thread = async (): Promise<PgliteThread> => {
    try {
      return await current;
    } catch {
      // The last reopen failed (e.g. out of memory for a moment): try again for this request.
      current = startThread();
      return current;
    }
  };

  const inTransaction = <T>(fn: (tx: OwnerTx) => Promise<T>, ctx?: RequestContext): Promise<T> =>
    queue.run(ctx ? laneOf(ctx) : OWNER_LANE, async () => {
      // The whole transaction stays on the worker it began on, even if that worker is restarted.
      const worker = await thread();
      const tx = wrap(worker, ctx ? statementTimeoutMs(ctx.role, options.statementTimeouts) : undefined);
      try {
        await worker.batch([{ sql: 'begin' }, ...(ctx ? await contextStatements(ctx, options.statementTimeouts) : [])]);
        const result = await fn(tx);
        await worker.query('commit');
        return result;
      } catch (error) {
        await worker.query('rollback').catch(() => {});
        throw error;
      }
    });

  return {
    kind: 'pglite',
    location: options.location,
    get restarts() {
      return restarts;
    },
    get queued() {
      return queue.waitingTasks;
    },
    asRequest: (ctx, fn) => inTransaction(fn, ctx),
    transaction: (fn) => inTransaction(fn),
    ownerTransaction: (fn) => inTransaction(fn),
    query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      return queue.run(OWNER_LANE, async () => (await thread()).query<T>(sql, params));
    },
    urgent<T>(fn: (db: Queryable) => Promise<T>): Promise<T> {
      return queue.runFirst(async () => {
        const worker = await thread();
        return fn({ query: <R>(sql: string, params?: unknown[]) => worker.query<R>(sql, params) });
      });
    },
    exec(sql: string) {
      return queue.run(OWNER_LANE, async () => (await thread()).exec(sql));
    },
    listen(channel: string, onNotify: (payload: string) => void) {
      listeners.set(channel, onNotify);
      // In the queue: a LISTEN inside someone's open transaction would be undone by its rollback.
      return queue.run(OWNER_LANE, async () => (await thread()).listen(channel));
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await queue.run(OWNER_LANE, async () => (await current.catch(() => undefined))?.close());
      } finally {
        options.onClose?.();
      }
    },
  };
}
