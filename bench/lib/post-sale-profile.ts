/**
 * Where a 10-line post_sale spends its time, per statement (ADR 0430): on PostgreSQL, pg_stat_statements with
 * track = all (the server must preload it) and track_functions = all; on PGlite, the per-function self times.
 * Uses the retail set (bench/lib/retail-bench.ts), like bench/pos.bench.ts.
 *
 *   DATABASE_URL=postgres://supabase_admin@... STOREWISE_BENCH_SCALE=1 npx tsx bench/lib/post-sale-profile.ts
 *   STOREWISE_BENCH_DATA_DIR=/tmp/large npx tsx bench/lib/post-sale-profile.ts
 */
import { openPostSaleRig } from './post-sale-rig';

const SALES = Number(process.env.STOREWISE_PROFILE_SALES ?? '50');

async function main(): Promise<void> {
  const { bench, sale, post } = await openPostSaleRig('Profile', 'P');
  const { db } = bench;
  try {
    for (let i = 0; i < 5; i += 1) await post(sale(i));
    const pg = db.kind === 'postgres';
    if (pg) {
      await db.exec('create extension if not exists pg_stat_statements');
      await db.query('select pg_stat_statements_reset()');
    }
    // Per-function times: a superuser setting (the server's for PostgreSQL, this one connection's for PGlite).
    if (pg) { await db.query(`alter system set track_functions = 'all'`); await db.query('select pg_reload_conf()'); }
    else await db.exec(`set track_functions = 'all'`);
    await db.query('select pg_stat_reset()');
    const started = performance.now();
    for (let i = 0; i < SALES; i += 1) {
      await post(sale(i));
    }
    console.log(`${SALES} sales in ${(performance.now() - started).toFixed(0)} ms on ${db.kind}`);
    if (pg) {
      const top = (await db.query<{ calls: string; ms: string; per: string; rows: string; q: string }>(
        `select calls::text, round(total_exec_time::numeric, 1)::text as ms,
                round((total_exec_time / greatest(${SALES}, 1))::numeric, 3)::text as per, rows::text,
                regexp_replace(left(query, 160), '\\s+', ' ', 'g') as q
           from pg_stat_statements where query not like '%pg_stat%' order by total_exec_time desc limit 45`)).rows;
      for (const r of top) console.log(`${r.per.padStart(8)} ms/sale ${r.calls.padStart(6)} calls ${r.rows.padStart(6)} rows  ${r.q}`);
    }
    const fns = (await db.query<{ f: string; calls: string; self: string; total: string }>(
      `select schemaname || '.' || funcname as f, calls::text, round((self_time / ${SALES})::numeric, 3)::text as self,
              round((total_time / ${SALES})::numeric, 3)::text as total
         from pg_stat_user_functions order by self_time desc limit 40`)).rows;
    console.log('functions (ms a sale, self / total):');
    for (const r of fns) console.log(`${r.self.padStart(8)} ${r.total.padStart(8)} ${r.calls.padStart(6)}  ${r.f}`);
  } finally {
    await db.close();
  }
}

await main();
