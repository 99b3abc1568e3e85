/**
 * Opens the local stack's database: PGlite persisted in a data folder (default .storewise/), PGlite in
 * memory (tests), or a PostgreSQL server when databaseUrl / DATABASE_URL is set. Bootstrap, migrations and
 * seed are applied before it is returned.
 *
 * STATUS: ready (PGlite file + memory with per-process snapshot cache, node-postgres, lock file, asRequest).
 * Usage: `const db = await openDb({ memory: true }); await db.asRequest({ role, claims, readOnly }, tx => tx.query(...))`.
 * Tests should prefer tests/helpers/stack.ts (startStack), which uses this.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { LocalDb } from './local-db';
import { acquireLock } from './lock-file';
import { prepareDatabase, type PrepareOptions, type PrepareResult } from './migrate';
import { defaultDataDir, migrationsDir, seedFile } from './paths';
import { createPglite, pgliteDb } from './pglite-db';
import { postgresDb } from './postgres-db';

export interface OpenDbOptions extends PrepareOptions {
  /** PGlite data folder (default .storewise/ in the repository root). */
  dataDir?: string;
  /** PGlite in memory: nothing is written to disk (tests). */
  memory?: boolean;
  /** A PostgreSQL server instead of PGlite. Defaults to DATABASE_URL unless memory is set. */
  databaseUrl?: string;
}

export type OpenedDb = LocalDb & { readonly prepared: PrepareResult };

// Per process: one prepared in-memory database per (migrations, seed) combination, dumped once and
// loaded for each new test database (about 0.7 s instead of initdb + migrations).
const snapshots = new Map<string, Promise<Blob>>();

async function snapshotFor(options: PrepareOptions): Promise<Blob> {
  const key = JSON.stringify([options.migrationsDir ?? migrationsDir, options.seedFile ?? seedFile, options.seed !== false]);
  let snapshot = snapshots.get(key);
  if (!snapshot) {
    snapshot = (async () => {
      const pg = await createPglite(undefined);
      try {
        await prepareDatabase(pgliteDb(pg, 'memory'), options);
        await pg.query('checkpoint');
        return await pg.dumpDataDir('none');
      } finally {
        await pg.close();
      }
    })();
    snapshots.set(key, snapshot);
    // A failed preparation must not poison later attempts.
    snapshot.catch(() => snapshots.delete(key));
  }
  return snapshot;
}

export async function openDb(options: OpenDbOptions = {}): Promise<OpenedDb> {
  const databaseUrl = options.databaseUrl ?? (options.memory ? undefined : process.env.DATABASE_URL || undefined);

  if (databaseUrl) {
    const db = postgresDb(databaseUrl);
    try {
      const prepared = await prepareDatabase(db, options);
      return Object.assign(db, { prepared });
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  if (options.memory) {
    const snapshot = await snapshotFor(options);
    const pg = await createPglite(undefined, snapshot);
    const db = pgliteDb(pg, 'memory');
    return Object.assign(db, { prepared: { fresh: true, applied: [], seeded: options.seed !== false } });
  }

  const dataDir = resolve(options.dataDir ?? defaultDataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireLock(join(dataDir, 'storewise.lock'), dataDir);
  let pg: PGlite | undefined;
  try {
    pg = await createPglite(join(dataDir, 'pgdata'));
    const db = pgliteDb(pg, dataDir, () => lock.release());
    const prepared = await prepareDatabase(db, options);
    return Object.assign(db, { prepared });
  } catch (error) {
    await pg?.close().catch(() => {});
    lock.release();
    throw error;
  }
}
