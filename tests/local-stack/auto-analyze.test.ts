import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import { analyzeChangedTables } from '../../supabase/local/db/auto-analyze';

// PGlite has no autovacuum; the local stack's analyzer stands in for its analyze step.
describe('the local stack analyzes tables as autovacuum would', () => {
  let db: OpenedDb;
  beforeAll(async () => {
    db = await openDb({ memory: true, seed: false });
    await db.exec('create table public.analyze_probe (id int primary key, note text)');
    // Whatever the migrations changed is analyzed first, so the cases below see only the probe.
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
});
