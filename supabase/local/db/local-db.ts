import type { Db, Queryable, QueryResult } from './types';

/** A transaction handle that can also run several statements at once (migrations, seed). */
export interface OwnerTx extends Queryable {
  exec(sql: string): Promise<void>;
}

/** The Db the local stack opens: the shared interface plus what migrations need. */
export interface LocalDb extends Db {
  /** Like transaction(), with exec() for multi-statement scripts. */
  ownerTransaction<T>(fn: (tx: OwnerTx) => Promise<T>): Promise<T>;
  /** Where the data lives, for messages: a folder, 'memory' or the server URL without password. */
  readonly location: string;
  /**
   * LISTEN on a channel for the life of the database (kept across PGlite worker restarts and PostgreSQL
   * reconnections); the callback gets each NOTIFY payload after its transaction commits.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<void>;
  /**
   * One statement that goes before queued requests (PGlite's one connection): Realtime's delivery, whose wait
   * every open screen sees. Like query() on PostgreSQL, where each statement has a pooled connection anyway.
   */
  urgentQuery<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}
