import type { Db } from './types';
import { startPeriodicTask, type PeriodicTask } from '../periodic-task';

/*
 * PGlite has no autovacuum, so nothing ever runs ANALYZE or VACUUM there.
 * - Without ANALYZE the planner keeps the statistics of the empty tables the migrations created and, as a shop's
 *   sales grow, keeps choosing plans made for no rows (docs/adr/0150 measured a sale's posting getting slower with the
 *   tables, and fast again after one ANALYZE).
 * - Without VACUUM the space of deleted and updated rows is never reused: a queue that is written and drained all day
 *   (Realtime's captured changes, the email outbox) or a table rewritten by a bulk price change only grows, and every
 *   scan of it reads the dead pages too (ADR 0446 found a drained 11-row queue of 803 MB that made each one-row write
 *   take half a second).
 * Hosted Supabase and any PostgreSQL server do both on their own; the local stack does what autovacuum does on PGlite
 * only: every interval, each table with more dead rows than 50 + 20 % of its size is vacuumed, and each table changed
 * by more than 50 rows + 10 % of its size since its last analyze is analyzed (autovacuum's default thresholds and scale
 * factors), one table a statement so other requests queue between them.
 *
 * PGlite answers one statement at a time, so a vacuum holds every request for as long as it runs: 5.7 s for the
 * variants of 1,000,000 items after a bulk price change. While serving, tables over VACUUM_WHILE_SERVING_BYTES wait;
 * the stack vacuums the whole database when it starts, before it listens (124 ms on a clean 1,000,000-variant folder,
 * 1.1 s with a little to do), and the Realtime queue shrinks itself once drained (change-feed.ts).
 */

/** Autovacuum's defaults: autovacuum_analyze_threshold and autovacuum_analyze_scale_factor. */
const ANALYZE_THRESHOLD_ROWS = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
/** Autovacuum's defaults: autovacuum_vacuum_threshold and autovacuum_vacuum_scale_factor. */
const VACUUM_THRESHOLD_ROWS = 50;
const VACUUM_SCALE_FACTOR = 0.2;
/** The largest table vacuumed while the stack serves (about half a second of PGlite's one connection). */
export const VACUUM_WHILE_SERVING_BYTES = 64 * 1024 * 1024;

/** The tables whose statistics pass a threshold, most first (`measure`: a column of pg_stat_user_tables). */
async function tablesOver(db: Db, measure: 'n_mod_since_analyze' | 'n_dead_tup', rows: number, share: number,
  maxBytes = Number.MAX_SAFE_INTEGER): Promise<string[]> {
  // Table statistics reach pg_stat_user_tables only when the backend flushes them; PGlite's one backend is never
  // idle long enough to do it by itself.
  await db.query('select pg_stat_force_next_flush()');
  await db.query('select 1');
  const found = await db.query<{ name: string }>(
    `select format('%I.%I', s.schemaname, s.relname) as name
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.${measure} > $1 + $2 * greatest(c.reltuples, 0) and pg_relation_size(c.oid) <= $3
      order by s.${measure} desc`,
    [rows, share, maxBytes],
  );
  return found.rows.map((row) => row.name);
}

/** Analyzes the tables that changed enough since their last analyze; returns their qualified names. */
export async function analyzeChangedTables(db: Db): Promise<string[]> {
  const names = await tablesOver(db, 'n_mod_since_analyze', ANALYZE_THRESHOLD_ROWS, ANALYZE_SCALE_FACTOR);
  for (const name of names) await db.exec(`analyze ${name}`);
  return names;
}

/**
 * Vacuums the tables holding enough dead rows (their space reused, trailing empty pages given back), up to `maxBytes`
 * each; returns their names.
 */
export async function vacuumDeadTables(db: Db, maxBytes = VACUUM_WHILE_SERVING_BYTES): Promise<string[]> {
  const names = await tablesOver(db, 'n_dead_tup', VACUUM_THRESHOLD_ROWS, VACUUM_SCALE_FACTOR, maxBytes);
  for (const name of names) await db.exec(`vacuum ${name}`);
  return names;
}

/** Runs vacuumDeadTables and analyzeChangedTables every intervalMs on a PGlite database (nothing on PostgreSQL) until stopped. */
export function startAutoAnalyze(db: Db, intervalMs = 60_000, log = console.error): PeriodicTask {
  if (db.kind !== 'pglite') return { stop: async () => {} };
  return startPeriodicTask(async () => {
    await vacuumDeadTables(db);
    await analyzeChangedTables(db);
  }, intervalMs, (error) => log(`Storewise: vacuum or analyze failed: ${(error as { code?: string }).code ?? 'error'}`));
}

/** The whole database vacuumed before the stack serves a data folder (statistics of dead rows do not survive a restart). */
export async function vacuumBeforeServing(db: Db): Promise<void> {
  if (db.kind === 'pglite') await db.exec('vacuum');
}
