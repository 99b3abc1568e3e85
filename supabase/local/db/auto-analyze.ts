import type { Db } from './types';
import { startPeriodicTask, type PeriodicTask } from '../periodic-task';

/*
 * PGlite has no autovacuum, so nothing ever runs ANALYZE: the planner keeps the statistics of the empty tables the
 * migrations created and, as a shop's sales grow, keeps choosing plans made for no rows (docs/adr/0150 measured a
 * sale's posting getting slower with the tables, and fast again after one ANALYZE). Hosted Supabase and any
 * PostgreSQL server analyze on their own; the local stack does what autovacuum's analyze does on PGlite only:
 * every interval, each table changed by more than 50 rows + 10 % of its size since its last analyze (autovacuum's
 * default threshold and scale factor) is analyzed, one table a statement so other requests queue between them.
 */

/** Autovacuum's defaults: autovacuum_analyze_threshold and autovacuum_analyze_scale_factor. */
const THRESHOLD_ROWS = 50;
const SCALE_FACTOR = 0.1;

/** Analyzes the tables that changed enough since their last analyze; returns their qualified names. */
export async function analyzeChangedTables(db: Db): Promise<string[]> {
  // Table statistics reach pg_stat_user_tables only when the backend flushes them; PGlite's one backend is never
  // idle long enough to do it by itself.
  await db.query('select pg_stat_force_next_flush()');
  await db.query('select 1');
  const { rows } = await db.query<{ name: string }>(
    `select format('%I.%I', s.schemaname, s.relname) as name
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0)
      order by s.n_mod_since_analyze desc`,
    [THRESHOLD_ROWS, SCALE_FACTOR],
  );
  for (const { name } of rows) await db.exec(`analyze ${name}`);
  return rows.map((row) => row.name);
}

/** Runs analyzeChangedTables every intervalMs on a PGlite database (nothing on PostgreSQL) until stopped. */
export function startAutoAnalyze(db: Db, intervalMs = 60_000, log = console.error): PeriodicTask {
  if (db.kind !== 'pglite') return { stop: async () => {} };
  return startPeriodicTask(() => analyzeChangedTables(db), intervalMs, (error) =>
    log(`Storewise: analyze failed: ${(error as { code?: string }).code ?? 'error'}`));
}
