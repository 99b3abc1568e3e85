import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';

let db: OpenedDb;

beforeAll(async () => {
  db = await openDb({ memory: true, seed: false });
});

afterAll(async () => {
  await db?.close();
});

/** Every public report function and the overview, with its SET clauses ("name=value"). */
async function reportFunctionSettings() {
  const { rows } = await db.query<{ name: string; config: string[] | null }>(
    `select p.oid::regprocedure::text as name, p.proconfig as config
       from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and (p.proname like 'report\\_%' or p.proname = 'business_overview')
      order by 1`);
  return rows;
}

describe('report functions run without JIT (20261125150000)', () => {
  it('every public report function and the overview set jit = off, so PostgreSQL never compiles their plans', async () => {
    const rows = await reportFunctionSettings();
    expect(rows.length).toBeGreaterThanOrEqual(11);
    const withJit = rows.filter((row) => !(row.config ?? []).includes('jit=off')).map((row) => row.name);
    expect(withJit).toEqual([]);
  });
});

describe('report functions plan each call for its arguments (20261207100000, ADR 0437)', () => {
  it('every public report function and the overview set plan_cache_mode = force_custom_plan', async () => {
    const rows = await reportFunctionSettings();
    expect(rows.length).toBeGreaterThanOrEqual(11);
    const generic = rows.filter((row) => !(row.config ?? []).includes('plan_cache_mode=force_custom_plan')).map((row) => row.name);
    expect(generic).toEqual([]);
  });

  it('inside such a function the setting holds, and the caller gets its own setting back afterwards', async () => {
    await db.exec(`create function pg_temp.plan_mode_inside() returns text language sql
                     set plan_cache_mode = force_custom_plan as $$ select current_setting('plan_cache_mode') $$`);
    const { rows } = await db.query<{ inside: string; after: string }>(
      `select pg_temp.plan_mode_inside() as inside, current_setting('plan_cache_mode') as after`);
    expect(rows[0]).toEqual({ inside: 'force_custom_plan', after: 'auto' });
  });
});
