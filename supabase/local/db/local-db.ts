import type { Db, Queryable } from './types';

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
   * Statements that go before queued requests, on the connection held for `fn` (PGlite has one): Realtime's
   * delivery, whose wait every open screen sees. `fn` must be short and use only the handle it is given (the
   * queue is held meanwhile). On PostgreSQL each statement takes a pooled connection anyway.
   */
  urgent<T>(fn: (db: Queryable) => Promise<T>): Promise<T>;
}
