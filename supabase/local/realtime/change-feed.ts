/**
 * From the database's captured changes (capture.sql) to each subscriber's postgres_changes message.
 * A NOTIFY wakes the feed; it takes the waiting changes out of _realtime.changes, matches them against
 * the subscriptions (schema, table, event, filter), then asks the database in ONE statement which rows
 * each subscriber may see under its own role and JWT claims (_realtime.visible_rows), and sends each
 * subscriber only the columns its role may select. This is realtime.apply_rls' work, batched because
 * PGlite runs one statement at a time.
 */
import type { LocalDb } from '../db/local-db';
import type { JwtClaims, Queryable } from '../db/types';
import { matchesFilter, type Filter } from './filters';
import { TableCatalog, tableKey, type TableInfo } from './table-info';
import { logUnexpected } from '../log-unexpected';

export type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE';

export interface Binding {
  /** The id the join reply gave the client for this binding. */
  id: number;
  event: '*' | ChangeEvent;
  schema: string;
  table?: string;
  filter?: Filter;
}

export interface Subscriber {
  role: string;
  claims: JwtClaims;
  bindings: Binding[];
  /**
   * Sends one postgres_changes message on the subscriber's channel: the matching binding ids and the change's
   * `data`, already JSON (the same text for every subscriber of a role: serialised once per change).
   */
  deliver(ids: number[], dataJson: string): void;
}

/** A session revoked or a membership changed (capture.sql's storewise_realtime_revoke). */
export interface Revocation {
  user: string;
  /** Set when one session ended; absent when the user's membership changed (every session of theirs). */
  session?: string;
}

interface Change {
  id: number;
  schema_name: string;
  table_name: string;
  op: ChangeEvent;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  committed_at: Date | string;
}

/** Realtime leaves a record out of a message past this size (Error 413 in `errors`). */
const MAX_RECORD_BYTES = 1024 * 1024;
const BATCH = 500;
/**
 * A drain of this many changes (a bulk price change captures an activity row per variant) left the queue's file that
 * large: once it is empty again it is truncated, which a vacuum on PGlite would take seconds to match (ADR 0446).
 */
const SHRINK_AFTER = 20 * BATCH;
export const NOTIFY_CHANNEL = 'storewise_realtime';
export const REVOKE_CHANNEL = 'storewise_realtime_revoke';

/**
 * Claims that differ between one user's sockets leave the grouping key, so they share one check: the expiry and
 * issue time (every refresh) and the session id (every sign-in: ten open tabs are ten sessions). No policy reads
 * them (RLS asks auth.uid(), the role and aal); a revoked session is ended by the server, not by RLS.
 */
function authKey(subscriber: Subscriber): string {
  const { exp: _exp, iat: _iat, session_id: _session, ...rest } = subscriber.claims;
  return `${subscriber.role}|${JSON.stringify(rest, Object.keys(rest).sort())}`;
}

function keyOf(info: TableInfo, row: Record<string, unknown>): string {
  return JSON.stringify(info.primaryKey.map((column) => row[column] ?? null));
}

function pick(row: Record<string, unknown> | null, columns: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!row) return out;
  for (const column of columns) if (column in row) out[column] = row[column];
  return out;
}

function bindingMatches(binding: Binding, change: Change, info: TableInfo): boolean {
  if (binding.event !== '*' && binding.event !== change.op) return false;
  if (binding.schema !== '*' && binding.schema !== change.schema_name) return false;
  if (binding.table !== undefined && binding.table !== '*' && binding.table !== change.table_name) return false;
  if (!binding.filter) return true;
  const column = info.columns.find((entry) => entry.name === binding.filter!.column);
  if (!column) return false;
  return matchesFilter(change.op === 'DELETE' ? change.old_record : change.record, binding.filter, column.type);
}

export class ChangeFeed {
  readonly catalog: TableCatalog;
  private readonly subscribers = new Set<Subscriber>();
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly db: LocalDb) {
    this.catalog = new TableCatalog(db);
  }

  /** Called when a session is revoked or a membership changes (the server ends the user's channels). */
  onRevoke: (revocation: Revocation) => void = () => {};

  /** Installs the capture triggers for the publication's tables and starts listening. */
  async start(captureSql: string): Promise<void> {
    await this.db.exec(captureSql);
    await this.refreshPublication();
    await this.db.listen(NOTIFY_CHANNEL, () => this.wake());
    await this.db.listen(REVOKE_CHANNEL, (payload) => {
      if (this.stopped) return;
      try {
        const parsed = JSON.parse(payload) as { user?: unknown; session?: unknown };
        if (typeof parsed.user !== 'string') return;
        this.onRevoke({ user: parsed.user, ...(typeof parsed.session === 'string' ? { session: parsed.session } : {}) });
      } catch (error) {
        logUnexpected('Storewise realtime: unreadable revocation', error);
      }
    });
    // Changes committed while no server was listening (before a restart) are old news: the clients
    // reload their state when they rejoin. Start from now: truncated, not deleted, so the queue's file starts empty
    // (a delete leaves its pages, which only a vacuum frees: ADR 0446).
    await this.db.query('truncate _realtime.changes');
  }

  /** After a migration changed the publication (tests, or a stack that migrates while running). */
  async refreshPublication(): Promise<void> {
    await this.db.query('select _realtime.sync_publication()');
    await this.catalog.refresh();
  }

  /** Whether a sign-in session still exists (a token outlives its revoked session until it expires). */
  async sessionAlive(sessionId: string): Promise<boolean> {
    const { rows } = await this.db.query('select 1 from auth.sessions where id = $1::uuid', [sessionId]);
    return rows.length > 0;
  }

  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
  }

  remove(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.draining ?? Promise.resolve();
  }

  /** Coalesces wake-ups: one drain at a time, and one more if changes arrived meanwhile. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = (async () => {
      try {
        let drained = 0;
        do {
          this.again = false;
          for (let taken = BATCH; !this.stopped && taken === BATCH; drained += taken) taken = await this.drainOnce();
        } while (this.again && !this.stopped);
        if (drained >= SHRINK_AFTER && !this.stopped) await this.db.urgent((db) => shrinkIfEmpty(db));
      } catch (error) {
        logUnexpected('Storewise realtime: could not deliver changes', error);
      } finally {
        this.draining = undefined;
      }
    })();
  }

  /** Settles when the changes committed so far have been delivered (tests, benchmarks). */
  async idle(): Promise<void> {
    this.wake();
    while (this.draining) await this.draining;
  }

  /**
   * Takes up to BATCH changes and checks them for the subscribers, holding the connection ahead of queued requests
   * (LocalDb.urgent) for both statements: every open screen waits on them, and between two turns of the queue a
   * request of each busy user would run.
   */
  private drainOnce(): Promise<number> {
    return this.db.urgent((db) => this.drainOn(db));
  }

  private async drainOn(db: Queryable): Promise<number> {
    const { rows } = await db.query<Change>(
      `delete from _realtime.changes where id in (select id from _realtime.changes order by id limit ${BATCH})
       returning id, schema_name, table_name, op, record, old_record, committed_at`,
    );
    if (rows.length === 0) return 0;
    rows.sort((a, b) => a.id - b.id);
    if (this.subscribers.size > 0) await this.dispatch(rows, db);
    return rows.length;
  }

  private async dispatch(changes: Change[], db: Queryable): Promise<void> {
    // Which subscriber wants which change (by binding ids), before any database work.
    const wanted: { subscriber: Subscriber; change: Change; info: TableInfo; ids: number[] }[] = [];
    for (const change of changes) {
      const info = this.catalog.get(change.schema_name, change.table_name);
      if (!info || info.primaryKey.length === 0) continue;
      for (const subscriber of this.subscribers) {
        const ids = subscriber.bindings.filter((binding) => bindingMatches(binding, change, info)).map((binding) => binding.id);
        if (ids.length > 0) wanted.push({ subscriber, change, info, ids });
      }
    }
    if (wanted.length === 0) return;

    // One work item per (subscriber identity, table, kind of check).
    const items = new Map<string, { index: number; role: string; claims: JwtClaims; info: TableInfo; rows: Record<string, unknown>[]; deleted: boolean; visible: Set<string> }>();
    const itemOf = new Map<(typeof wanted)[number], string>();
    for (const entry of wanted) {
      const selectable = await this.catalog.selectableColumns(entry.subscriber.role, entry.info, db);
      // Without SELECT on the key the subscriber could not read the row at all.
      if (!entry.info.primaryKey.every((column) => selectable.has(column))) continue;
      const deleted = entry.change.op === 'DELETE';
      const key = `${authKey(entry.subscriber)}|${tableKey(entry.info.schema, entry.info.table)}|${deleted}`;
      let item = items.get(key);
      if (!item) {
        item = { index: items.size + 1, role: entry.subscriber.role, claims: entry.subscriber.claims, info: entry.info, rows: [], deleted, visible: new Set() };
        items.set(key, item);
      }
      item.rows.push((deleted ? entry.change.old_record : entry.change.record) ?? {});
      itemOf.set(entry, key);
    }
    if (items.size === 0) return;
    const list = [...items.values()];
    const work = list.map((item) => ({
      table: `${JSON.stringify(item.info.schema)}.${JSON.stringify(item.info.table)}`,
      role: item.role,
      claims: JSON.stringify(item.claims),
      ...(item.deleted ? { old: item.rows } : { keys: item.rows.map((row) => pick(row, item.info.primaryKey)) }),
    }));
    // One statement, its own transaction: the role and claims visible_rows sets are local to it.
    const { rows } = await db.query<{ item: number; pk: Record<string, unknown> }>('select item, pk from _realtime.visible_rows($1::jsonb)', [JSON.stringify(work)]);
    for (const row of rows) {
      const item = list[row.item - 1];
      item?.visible.add(keyOf(item.info, row.pk));
    }

    // The message of a change is the same for every subscriber of a role: built and serialised once per change and
    // role (the columns differ by role), never once per subscriber.
    const messages = new Map<string, string>();
    for (const entry of wanted) {
      const key = itemOf.get(entry);
      if (!key) continue;
      const item = items.get(key)!;
      const row = (entry.change.op === 'DELETE' ? entry.change.old_record : entry.change.record) ?? {};
      if (!item.visible.has(keyOf(entry.info, row))) continue;
      const messageKey = `${entry.change.id}|${entry.subscriber.role}`;
      let dataJson = messages.get(messageKey);
      if (dataJson === undefined) {
        dataJson = await this.messageJson(entry.change, entry.info, entry.subscriber.role, db);
        messages.set(messageKey, dataJson);
      }
      entry.subscriber.deliver(entry.ids, dataJson);
    }
  }

  /**
   * The change's `data` as JSON text for one role. The text measured against the size limit is the text sent: the
   * change is serialised once (twice only when it is too large and goes out without its records).
   */
  private async messageJson(change: Change, info: TableInfo, role: string, db: Queryable): Promise<string> {
    const selectable = await this.catalog.selectableColumns(role, info, db);
    const columns = info.columns.filter((column) => selectable.has(column.name));
    const names = columns.map((column) => column.name);
    const data: Record<string, unknown> = {
      schema: change.schema_name,
      table: change.table_name,
      commit_timestamp: new Date(change.committed_at).toISOString(),
      type: change.op,
      columns,
      errors: null,
    };
    if (change.op !== 'DELETE') data.record = pick(change.record, names);
    if (change.op !== 'INSERT') {
      // Without REPLICA IDENTITY FULL the old record is the primary key, as the WAL carries it.
      data.old_record = pick(change.old_record, info.replicaFull ? names : info.primaryKey.filter((column) => selectable.has(column)));
    }
    const json = JSON.stringify(data);
    if (json.length <= MAX_RECORD_BYTES) return json;
    if (data.record) data.record = {};
    if (data.old_record) data.old_record = {};
    data.errors = ['Error 413: Payload Too Large'];
    return JSON.stringify(data);
  }
}

/**
 * Truncates the change queue if it is empty, under a lock that no writer can slip a change past (waiting at most
 * 100 ms for it: a writer in the middle of a transaction keeps its queue until the next time).
 */
async function shrinkIfEmpty(db: Queryable): Promise<void> {
  try {
    await db.query(`do $$
      begin
        perform set_config('lock_timeout', '100ms', true);
        lock table _realtime.changes in access exclusive mode;
        if not exists (select 1 from _realtime.changes) then
          truncate _realtime.changes;
        end if;
      end $$`);
  } catch (error) {
    if ((error as { code?: string }).code !== '55P03') throw error;
  }
}
