/**
 * The main thread's handle on one PGlite worker (pglite-worker.mjs): numbered requests, answers matched
 * by id, a deadline per request, and terminate() for a worker stuck in a statement.
 */
import { Worker } from 'node:worker_threads';
import type { QueryResult } from './types';

export interface PgliteThreadOptions {
  /** The PGlite data folder; the worker opens (or creates) it. */
  dataDir: string;
}

/** An error as the database raised it, with its SQLSTATE (what toRestError maps to HTTP). */
export class DbError extends Error {
  readonly code: string;
  readonly detail?: string;
  readonly hint?: string;
  constructor(fields: { code?: string; message: string; detail?: string; hint?: string } & Record<string, unknown>) {
    super(fields.message);
    // Every field PGlite reported (constraint, table, column, position...), as its DatabaseError has them.
    for (const [key, value] of Object.entries(fields)) if (value !== undefined && key !== 'message') Object.assign(this, { [key]: value });
    this.name = 'DbError';
    this.code = fields.code ?? 'XX000';
  }
}

/** The statement ran past its deadline; the worker was terminated (PostgreSQL's query_canceled). */
export class StatementTimeoutError extends DbError {
  constructor() {
    super({ code: '57014', message: 'canceling statement due to statement timeout' });
  }
}

/**
 * PGlite answered a statement with neither rows nor an error: an error lost inside the WASM module
 * (seen with a regular expression too complex to compile). The instance is damaged afterwards.
 */
export class LostResultError extends DbError {
  readonly lostResult = true;
  constructor() {
    super({ code: 'XX000', message: 'the database lost the result of the statement' });
  }
}

/** The worker stopped (terminated for recovery, or crashed) while this request was waiting. */
export class DbRestartingError extends DbError {
  constructor() {
    super({ code: '57P01', message: 'terminating connection: the database is restarting' });
  }
}

export interface Notification {
  channel: string;
  payload: string;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; lost?: true; error?: { code?: string; message: string; detail?: string; hint?: string } & Record<string, unknown> };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

const workerUrl = new URL('./pglite-worker.mjs', import.meta.url);

export class PgliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private exited = false;
  /** Where LISTEN notifications go (set by the owner before listen()). */
  onNotify?: (notification: Notification) => void;

  private constructor(
    private readonly worker: Worker,
    /** Called once when a deadline passes or a result is lost: the owner restarts the database. */
    private readonly onBroken: (thread: PgliteThread) => void,
  ) {
    // Like a socket, an idle database does not keep the process alive; a pending request does.
    worker.unref();
    worker.on('message', (answer: Answer | { notify: Notification }) => {
      if ('notify' in answer) this.onNotify?.(answer.notify);
      else this.settle(answer);
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      this.exited = true;
      for (const entry of this.pending.values()) {
        clearTimeout(entry.timer);
        entry.reject(new DbRestartingError());
      }
      this.pending.clear();
      // A worker that died on its own (a WASM abort) is replaced like a stuck one; after a terminate()
      // the owner already knows, and ignores the second call.
      this.onBroken(this);
    });
  }

  static start(options: PgliteThreadOptions, onBroken: (thread: PgliteThread) => void): Promise<PgliteThread> {
    const worker = new Worker(workerUrl, { workerData: options });
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        worker.off('message', ready);
        reject(error);
      };
      const ready = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off('error', failed);
        worker.off('message', ready);
        resolve(new PgliteThread(worker, onBroken));
      };
      worker.on('message', ready);
      worker.once('error', failed);
      worker.once('exit', (code) => failed(new Error(`PGlite worker exited with code ${code} before it was ready`)));
    });
  }

  private settle(answer: Answer): void {
    const entry = this.pending.get(answer.id);
    if (!entry) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker.unref();
    clearTimeout(entry.timer);
    if (answer.ok) entry.resolve(answer.value);
    else if (answer.lost) {
      entry.reject(new LostResultError());
      this.onBroken(this);
    } else entry.reject(new DbError(answer.error ?? { message: 'unknown database error' }));
  }

  private call(message: Record<string, unknown>, timeoutMs?: number): Promise<unknown> {
    if (this.exited) return Promise.reject(new DbRestartingError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      if (timeoutMs !== undefined && timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          if (this.pending.size === 0) this.worker.unref();
          reject(new StatementTimeoutError());
          this.onBroken(this);
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.worker.ref();
      this.worker.postMessage({ id, ...message });
    });
  }

  query<T>(sql: string, params: unknown[] = [], timeoutMs?: number): Promise<QueryResult<T>> {
    return this.call({ op: 'query', sql, params }, timeoutMs) as Promise<QueryResult<T>>;
  }

  /** Statements run one after another in the worker, in one message; answers the last result. */
  batch<T>(statements: { sql: string; params?: unknown[] }[], timeoutMs?: number): Promise<QueryResult<T>> {
    return this.call({ op: 'batch', statements }, timeoutMs) as Promise<QueryResult<T>>;
  }

  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql });
  }

  /** LISTEN on the worker's session; notifications arrive through onNotify. */
  async listen(channel: string): Promise<void> {
    await this.call({ op: 'listen', channel });
  }

  /** Closes PGlite cleanly (checkpoint), then ends the thread. */
  async close(): Promise<void> {
    try {
      if (!this.exited) await this.call({ op: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }

  /** Stops the thread wherever it is, mid-statement included. Committed data is safe in the folder. */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
