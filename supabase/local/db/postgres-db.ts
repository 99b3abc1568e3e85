import pg from 'pg';
import type { LocalDb, OwnerTx } from './local-db';
import { applyRequestContext } from './request-settings';
import type { StatementTimeouts } from './statement-timeouts';
import type { QueryResult, RequestContext } from './types';

const INT8_OID = 20;

/** The search path hosted Supabase gives every connection (extensions callable unqualified). */
const connectionOptions = '-c search_path="$user",public,extensions';

function wrap(client: pg.PoolClient | pg.Pool): OwnerTx {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await client.query(sql, params);
      return {
        rows: result.rows as T[],
        fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
        affectedRows: result.rowCount ?? 0,
      };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      await client.query(sql);
    },
  };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}

/** A PostgreSQL server (DATABASE_URL) behind the Db seam: one pooled connection per transaction. */
export function postgresDb(connectionString: string, statementTimeouts?: Partial<StatementTimeouts>): LocalDb {
  const pool = new pg.Pool({
    connectionString,
    options: connectionOptions,
    max: 10,
    // int8 as a number, like PGlite, so both backends return the same values.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID && format !== 'binary'
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});

  async function ownerTransaction<T>(fn: (tx: OwnerTx) => Promise<T>, ctx?: RequestContext): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      const tx = wrap(client);
      // The server enforces the role's statement timeout (set local), as PostgREST on hosted Supabase.
      if (ctx) await applyRequestContext(tx, ctx, statementTimeouts);
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  const direct = wrap(pool);
  // LISTEN needs one session of its own, reconnected (and listening again) after it drops.
  const listeners = new Map<string, (payload: string) => void>();
  let listener: Promise<pg.Client> | undefined;
  let closed = false;
  const connectListener = (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString, options: connectionOptions });
    client.on('notification', (message) => listeners.get(message.channel)?.(message.payload ?? ''));
    client.on('error', () => {
      listener = undefined;
      client.end().catch(() => {});
      if (!closed && listeners.size > 0) setTimeout(() => { if (!closed) listener ??= connectListener(); }, 1000).unref();
    });
    return client.connect().then(async () => {
      for (const channel of listeners.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return client;
    });
  };
  return {
    kind: 'postgres',
    location: redact(connectionString),
    asRequest: (ctx, fn) => ownerTransaction(fn, ctx),
    transaction: (fn) => ownerTransaction(fn),
    ownerTransaction: (fn) => ownerTransaction(fn),
    query: (sql, params) => direct.query(sql, params),
    urgent: (fn) => fn(direct),
    exec: (sql) => direct.exec(sql),
    async listen(channel, onNotify) {
      const fresh = !listeners.has(channel);
      listeners.set(channel, onNotify);
      if (listener) {
        const client = await listener;
        if (fresh) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      } else listener = connectListener();
      await listener;
    },
    async close() {
      closed = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => {});
      await pool.end();
    },
  };
}
