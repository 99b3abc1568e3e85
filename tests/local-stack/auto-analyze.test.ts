import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import { analyzeChangedTables, vacuumDeadTables } from '../../supabase/local/db/auto-analyze';

// PGlite has no autovacuum; the local stack's periodic task stands in for its vacuum and analyze steps.
describe('the local stack vacuums and analyzes tables as autovacuum would', () => {
  let db: OpenedDb;
  beforeAll(async () => {
    db = await openDb({ memory: true, seed: false });
    await db.exec('create table public.analyze_probe (id int primary key, note text)');
    // Whatever the migrations changed is analyzed first, so the cases below see only the probe.
    await vacuumDeadTables(db);
    await analyzeChangedTables(db);
  });
  afterAll(() => db?.close());

  const estimate = async () =>
    (await db.query<{ rows: number }>(`select reltuples::int as rows from pg_class where oid = 'public.analyze_probe'::regclass`)).rows[0]?.rows;

  it('analyzes a table after a bulk insert, so the planner knows its size', async () => {
    await db.exec(`insert into public.analyze_probe select g, 'x' from generate_series(1, 5000) g`);
    expect(await estimate()).toBeLessThanOrEqual(0);
    expect(await analyzeChangedTables(db)).toEqual(['public.analyze_probe']);
    expect(await estimate()).toBe(5000);
  });

  it('leaves a table alone until 50 rows plus a tenth of it changed', async () => {
    await db.exec(`update public.analyze_probe set note = 'y' where id <= 100`);
    expect(await analyzeChangedTables(db)).toEqual([]);
    await db.exec(`delete from public.analyze_probe where id > 4400`);
    expect(await analyzeChangedTables(db)).toEqual(['public.analyze_probe']);
    expect(await estimate()).toBe(4400);
  });

  const bytesOf = async (table: string) =>
    Number((await db.query<{ bytes: string }>(`select pg_relation_size($1::regclass)::text as bytes`, [table])).rows[0]?.bytes);

  it('vacuums a drained queue: its file is given back, and a half-drained one is written again in place', async () => {
    await db.exec('create table public.vacuum_queue (id int primary key, body text)');
    await db.exec(`insert into public.vacuum_queue select g, repeat('z', 500) from generate_series(1, 10000) g`);
    const full = await bytesOf('public.vacuum_queue');
    await db.exec('delete from public.vacuum_queue');
    // A delete leaves every page in place: this is what a scan kept reading before (ADR 0446).
    expect(await bytesOf('public.vacuum_queue')).toBe(full);
    expect(await vacuumDeadTables(db)).toContain('public.vacuum_queue');
    expect(await bytesOf('public.vacuum_queue')).toBe(0);

    // Drained but for its newest rows: the file cannot shrink, but the freed space takes the next rows.
    await db.exec(`insert into public.vacuum_queue select g, repeat('z', 500) from generate_series(1, 10000) g`);
    await db.exec('delete from public.vacuum_queue where id < 9990');
    expect(await vacuumDeadTables(db)).toContain('public.vacuum_queue');
    await db.exec(`insert into public.vacuum_queue select g, repeat('z', 500) from generate_series(20000, 29000) g`);
    expect(await bytesOf('public.vacuum_queue')).toBe(full);
  });

  it('leaves a table alone until 50 rows plus a fifth of it are dead', async () => {
    await db.exec('create table public.vacuum_threshold (id int primary key)');
    await db.exec('insert into public.vacuum_threshold select generate_series(1, 1000)');
    await db.exec('analyze public.vacuum_threshold');
    await db.exec('delete from public.vacuum_threshold where id <= 200');
    expect(await vacuumDeadTables(db)).not.toContain('public.vacuum_threshold');
    await db.exec('delete from public.vacuum_threshold where id <= 300');
    // Over the size vacuumed while serving (PGlite holds every request meanwhile), it waits for the next start.
    expect(await vacuumDeadTables(db, 8192)).not.toContain('public.vacuum_threshold');
    expect(await vacuumDeadTables(db)).toContain('public.vacuum_threshold');
    expect(await vacuumDeadTables(db)).not.toContain('public.vacuum_threshold');
  });
});
