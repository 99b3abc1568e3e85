import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { LocalDb, OwnerTx } from './local-db';
import { applyRequestContext } from './request-settings';
import { SerialQueue } from './serial-queue';
import type { QueryResult, RequestContext } from './types';

/** Both extensions must be registered when the instance is created (see pglite-notes). */
export const pgliteExtensions = { pgcrypto, pg_trgm };

export async function createPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<PGlite> {
  const pg = await PGlite.create(dataDir, { extensions: pgliteExtensions, ...(loadDataDir ? { loadDataDir } : {}) });
  // PGlite runs a single session that does not pick up ALTER DATABASE settings: set Supabase's search
  // path (extensions callable unqualified, e.g. crypt() in a seed) for the session here.
  await pg.query(`set search_path to "$user", public, extensions`);
  return pg;
}

type PgliteQueryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(target: PgliteQueryable): OwnerTx {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await target.query<T>(sql, params);
      return {
        rows: result.rows,
        fields: result.fields,
        // rowCount is per statement; affectedRows accumulates over the instance's statements.
        affectedRows: result.rowCount ?? result.affectedRows ?? 0,
      };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

/** PGlite behind the Db seam. Every operation goes through one FIFO queue (one connection). */
export function pgliteDb(pg: PGlite, location: string, onClose: () => void = () => {}): LocalDb {
  const queue = new SerialQueue();
  const direct = wrap(pg);
  let closed = false;

  const ownerTransaction = <T>(fn: (tx: OwnerTx) => Promise<T>): Promise<T> =>
    queue.run(() => pg.transaction((tx) => fn(wrap(tx))));

  return {
    kind: 'pglite',
    location,
    asRequest<T>(ctx: RequestContext, fn: (tx: OwnerTx) => Promise<T>): Promise<T> {
      return ownerTransaction(async (tx) => {
        await applyRequestContext(tx, ctx);
        return fn(tx);
      });
    },
    transaction: ownerTransaction,
    ownerTransaction,
    query<T>(sql: string, params?: unknown[]) {
      return queue.run(() => direct.query<T>(sql, params));
    },
    exec(sql: string) {
      return queue.run(() => direct.exec(sql));
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await queue.run(() => pg.close());
      } finally {
        onClose();
      }
    },
  };
}
