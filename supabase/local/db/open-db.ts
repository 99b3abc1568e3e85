/**
 * Opens the local stack's database: PGlite persisted in a data folder (default .storewise/), PGlite in
 * memory (tests), or a PostgreSQL server when databaseUrl / DATABASE_URL is set. Bootstrap, migrations and
 * seed are applied before it is returned.
 *
 * STATUS: ready (PGlite in a worker thread, file + memory (a temporary copy of a per-process template folder), node-postgres, lock file,
 * asRequest with per-role statement timeouts).
 * Usage: `const db = await openDb({ memory: true }); await db.asRequest({ role, claims, readOnly }, tx => tx.query(...))`.
 * Tests should prefer tests/helpers/stack.ts (startStack), which uses this.
 */
import { accessSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LocalDb } from './local-db';
import { acquireLock } from './lock-file';
import { prepareDatabase, type PrepareOptions, type PrepareResult } from './migrate';
import { defaultDataDir, migrationsDir, seedFile } from './paths';
import { openPgliteDb, type PgliteLocalDb } from './pglite-db';
import { postgresDb } from './postgres-db';
import type { StatementTimeouts } from './statement-timeouts';

export interface OpenDbOptions extends PrepareOptions {
  /** PGlite data folder (default .storewise/ in the repository root). */
  dataDir?: string;
  /** PGlite in memory: nothing is kept after close (tests). */
  memory?: boolean;
  /** A PostgreSQL server instead of PGlite. Defaults to DATABASE_URL unless memory is set. */
  databaseUrl?: string;
  /** Per-role statement timeouts in ms (default: hosted Supabase's, see statement-timeouts.ts). */
  statementTimeouts?: Partial<StatementTimeouts>;
}

export type OpenedDb = LocalDb & { readonly prepared: PrepareResult };

/**
 * Where "memory" databases and their templates live: /dev/shm (RAM) on Linux when it is writable, else the
 * system's temporary folder. A test run copies and removes a 50 MB folder of ~1,700 files per database; on a
 * disk mounted with `discard` (these machines) removing one took 1-5 s, on /dev/shm a tenth of that (docs/adr/0435).
 */
function memoryRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/**
 * A "memory" database lives in a temporary folder removed at close: the worker can then be restarted
 * after a stuck statement without losing what was committed (a WASM heap dies with its worker).
 */
async function openTemporary(template: string, statementTimeouts?: Partial<StatementTimeouts>): Promise<PgliteLocalDb> {
  const dir = mkdtempSync(join(memoryRoot(), `storewise-pglite-${process.pid}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    // Copying a prepared folder and opening it is as fast as loading a dump into memory.
    cpSync(template, dir, { recursive: true });
    return await openPgliteDb({ dataDir: dir, location: 'memory', ...(statementTimeouts ? { statementTimeouts } : {}), onClose: remove });
  } catch (error) {
    remove();
    throw error;
  }
}

/** Temporary folders of processes that died without closing (a killed test worker): removed. */
function sweepStaleFolders(): void {
  for (const root of new Set([memoryRoot(), tmpdir()])) {
    for (const name of readdirSync(root)) {
      const pid = Number(/^storewise-(?:pglite|template)-(\d+)-/.exec(name)?.[1] ?? NaN);
      if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
      rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Per process: one prepared folder per (migrations, seed) combination, built once and copied for each
// new test database (instead of initdb + migrations each time). Removed when the process exits.
const templates = new Map<string, Promise<string>>();

/**
 * Prepared folders built once for a whole test run (the integration project's global setup) and shared by
 * every test process, as JSON { [templateKey]: folder }: each file then skips migrations and seed.
 */
export const SHARED_TEMPLATES_ENV = 'STOREWISE_PGLITE_TEMPLATES';

export function templateKey(options: PrepareOptions): string {
  return JSON.stringify([options.migrationsDir ?? migrationsDir, options.seedFile ?? seedFile, options.seed !== false]);
}

/** Builds a prepared folder (migrations and seed applied, cleanly closed) under a new temporary name. */
export async function buildTemplate(options: PrepareOptions): Promise<string> {
  const dir = mkdtempSync(join(memoryRoot(), `storewise-template-${process.pid}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const db = await openPgliteDb({ dataDir: dir, location: 'memory' });
  let spare: string[];
  try {
    await prepareDatabase(db, options);
    spare = await spareWalSegments(db);
  } finally {
    // A clean close (checkpoint) leaves a folder that opens without recovery.
    await db.close();
  }
  for (const name of spare) rmSync(join(dir, 'pg_wal', name), { force: true });
  return dir;
}

// Bytes left in the current WAL segment below which the shutdown checkpoint could start the next one.
const CHECKPOINT_ROOM = 1024 * 1024;

/**
 * WAL segments of a prepared folder that its clean shutdown will not need. The WAL first moves to a fresh segment,
 * so the copies start with a whole segment of room (creating the next one means writing 16 MB of zeros); then
 * the segments before the current one (the shutdown checkpoint is written after them) and those after it that
 * Postgres pre-allocated by recycling old ones (it creates them again when it needs them) can go. Every test file
 * copies the folder: 16 MB less of it is a faster start for each. Kept when the current segment is nearly full,
 * as the checkpoint could spill over.
 */
async function spareWalSegments(db: LocalDb): Promise<string[]> {
  await db.query('select pg_switch_wal()');
  await db.query('checkpoint');
  const { rows } = await db.query<{ current: string; room: string }>(
    `select pg_walfile_name(pg_current_wal_lsn()) as current,
            (s.size - pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint % s.size)::text as room
       from (select setting::bigint as size from pg_settings where name = 'wal_segment_size') s`);
  const [{ current, room } = { current: '', room: '0' }] = rows;
  const segment = /^[0-9A-F]{24}$/;
  if (!segment.test(current)) return [];
  const names = (await db.query<{ name: string }>('select name from pg_ls_waldir()')).rows.map((row) => row.name);
  return names.filter((name) => segment.test(name) && (name < current || (name > current && Number(room) > CHECKPOINT_ROOM)));
}

function sharedTemplate(key: string): string | undefined {
  const shared = process.env[SHARED_TEMPLATES_ENV];
  if (!shared) return undefined;
  return (JSON.parse(shared) as Record<string, string>)[key];
}

function templateFor(options: PrepareOptions): Promise<string> {
  const key = templateKey(options);
  let template = templates.get(key);
  if (!template) {
    const shared = sharedTemplate(key);
    if (!shared) sweepStaleFolders();
    template = shared ? Promise.resolve(shared) : buildTemplate(options);
    templates.set(key, template);
    // A failed preparation must not poison later attempts.
    template.catch(() => templates.delete(key));
  }
  return template;
}

/**
 * A prepared folder for these options that is already there: the run's shared one (tests) or one this process
 * built. Never builds one: for a first `npm start` that would cost what migrating the new folder costs.
 */
async function readyTemplate(options: PrepareOptions): Promise<string | undefined> {
  const key = templateKey(options);
  return sharedTemplate(key) ?? (await templates.get(key)?.catch(() => undefined));
}

export async function openDb(options: OpenDbOptions = {}): Promise<OpenedDb> {
  const databaseUrl = options.databaseUrl ?? (options.memory ? undefined : process.env.DATABASE_URL || undefined);

  if (databaseUrl) {
    const db = postgresDb(databaseUrl, options.statementTimeouts);
    try {
      const prepared = await prepareDatabase(db, options);
      return Object.assign(db, { prepared });
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  if (options.memory) {
    const db = await openTemporary(await templateFor(options), options.statementTimeouts);
    return Object.assign(db, { prepared: { fresh: true, applied: [], seeded: options.seed !== false } });
  }

  const dataDir = resolve(options.dataDir ?? defaultDataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireLock(join(dataDir, 'storewise.lock'), dataDir);
  const pgdata = join(dataDir, 'pgdata');
  let db: PgliteLocalDb | undefined;
  try {
    // A new folder starts as a copy of a prepared one when there is one (the restart tests: each migrated a new
    // folder from scratch, 10 s idle and over a minute on a loaded CI box). prepareDatabase then finds nothing to do.
    const template = existsSync(pgdata) ? undefined : await readyTemplate(options);
    if (template) {
      // Copied beside it and renamed: a copy cut short leaves no half folder to open next time.
      const partial = `${pgdata}.partial`;
      rmSync(partial, { recursive: true, force: true });
      cpSync(template, partial, { recursive: true });
      renameSync(partial, pgdata);
    }
    db = await openPgliteDb({
      dataDir: pgdata,
      location: dataDir,
      ...(options.statementTimeouts ? { statementTimeouts: options.statementTimeouts } : {}),
      onClose: () => lock.release(),
    });
    const prepared = await prepareDatabase(db, options);
    return Object.assign(db, { prepared });
  } catch (error) {
    if (db) await db.close().catch(() => {});
    else lock.release();
    throw error;
  }
}
