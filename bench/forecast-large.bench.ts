/**
 * Forecast accuracy on the large seed's sales (issue 14, ADR 0145): the synthetic bench (forecast.bench.ts) knows
 * the answer; this one measures real-shaped series. Daily units per (store, variant) are read as the owner, the
 * way the Insights screen reads them: the best sellers as public.demand_history ranks them (500 per store) over the
 * 84 days before the held-out ones, and a seeded sample of other sold pairs, each with its whole history read
 * through private.report_facts (what demand_history reads; it only returns best sellers, and a year of one store in
 * one call passes the authenticated role's 8 s statement timeout on PostgreSQL at 1M lines). Each series starts at
 * its store's first sale; days without a sale are 0.
 * The last 14 days are held out; forecastDemand sees the history only, beside the same-weekday-last-week
 * baseline. Two views: the full history, and its last 84 days only (HISTORY_DAYS: what the Insights screen fits on).
 * Exits non-zero if, in either view, the series the method would show are not forecast better than the baseline.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/forecast-large.bench.ts   (read only)
 *   npm run bench -- forecast-large                                    # PGlite in memory, scaled seed
 */
import { averageDemandInterval, INTERMITTENT_ADI } from '../shared/lib/forecast';
import { dailySeries, HISTORY_DAYS } from '../shared/features/reports/insights-logic';
import { ForecastTally } from './lib/forecast-report';
import { openRetailBench } from './lib/retail-bench';
import { listMigrations } from '../supabase/local/db/migrate';
import { migrationsDir } from '../supabase/local/db/paths';
import { postgresDb } from '../supabase/local/db/postgres-db';
import { RETAIL_OWNER_EMAIL } from '../scripts/seed-large/retail';

const HOLDOUT = 14;
const BEST = Number(process.env.FORECAST_BEST ?? 300);
const OTHERS = Number(process.env.FORECAST_OTHERS ?? 300);

const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

interface Row { variant_id: string; day: string; units: number }

/**
 * This bench only reads. openRetailBench would apply pending migrations to a PostgreSQL database and seed one
 * without the retail set: refuse both (someone else's full-size copy), and go on only when nothing is pending.
 */
async function assertNothingToWrite(databaseUrl: string): Promise<void> {
  const probe = postgresDb(databaseUrl);
  try {
    const recorded = new Set((await probe.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((r) => r.version));
    const pending = listMigrations(migrationsDir).filter((m) => !recorded.has(m.version)).map((m) => m.version);
    const seeded = (await probe.query('select 1 from auth.users where email = $1', [RETAIL_OWNER_EMAIL])).rows.length > 0;
    if (pending.length > 0 || !seeded) {
      throw new Error(`read only: this database ${seeded ? `misses ${pending.length} migration(s) (${pending.join(', ')})` : 'has no retail set'}; not writing to it`);
    }
  } finally {
    await probe.close();
  }
}

async function main(): Promise<void> {
  if (!process.env.STOREWISE_BENCH_DATA_DIR && process.env.DATABASE_URL) await assertNothingToWrite(process.env.DATABASE_URL);
  const bench = await openRetailBench();
  const { db, business } = bench;
  const started = performance.now();
  try {
    const [range] = (await db.query<{ first: string | null; last: string | null }>(
      'select min(day)::text as first, max(day)::text as last from public.sales_daily where business_id = $1', [business])).rows;
    if (!range?.first || !range.last) throw new Error('no sales to forecast');
    // Up to the day before the last one, as the Insights screen stops at yesterday: the seed's last day is today
    // (partial) and carries its rounding remainder in the last store.
    const last = addDays(range.last, -1);
    const from = daysBetween(range.first, last) > 731 ? addDays(last, -731) : range.first; // report_args' two-year limit
    const days = daysBetween(from, last) + 1;
    const owner = <T>(sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims: bench.owner, readOnly: true, method: 'POST' }, (tx) => tx.query<T>(sql, params));
    const firstDay = new Map((await db.query<{ store_id: string; first: string }>(
      'select store_id, min(day)::text as first from public.sales_daily where business_id = $1 group by 1', [business])).rows
      .map((r) => [r.store_id, r.first]));

    // Best sellers as the Insights screen ranks them: demand_history per store over its 84 days, most units first.
    // Ranked on the days before the held-out ones: what the screen listed the day the holdout starts.
    const windowTo = addDays(last, -HOLDOUT);
    const windowFrom = addDays(windowTo, -(HISTORY_DAYS - 1));
    const ranked: { key: string; units: number }[] = [];
    for (const store of bench.stores) {
      const rows = (await owner<Row>(
        'select variant_id, day::text as day, units::float8 as units from public.demand_history($1, $2, $3, $4, 500)',
        [business, store, windowFrom, windowTo])).rows;
      for (const [variant, s] of dailySeries(rows, windowFrom, HISTORY_DAYS)) ranked.push({ key: `${store}/${variant}`, units: s.reduce((a, b) => a + b, 0) });
    }
    const best = ranked.sort((a, b) => b.units - a.units || a.key.localeCompare(b.key)).slice(0, BEST).map((r) => r.key);
    const bestSet = new Set(best);

    // Others: pairs sold in the range in a seeded order (md5 of the pair), the best ones left out.
    const others = (await db.query<{ store_id: string; variant_id: string }>(
      `select store_id, variant_id from public.sales_daily_variant where business_id = $1 and day between $2 and $3
        group by 1, 2 order by md5(store_id::text || variant_id::text || 'forecast-large'), 1, 2 limit $4`,
      [business, from, last, BEST + OTHERS])).rows.map((r) => `${r.store_id}/${r.variant_id}`).filter((k) => !bestSet.has(k)).slice(0, OTHERS);

    // The whole history of every chosen pair, as the owner, from what demand_history reads (private.report_facts),
    // a quarter per statement to stay within the timeout.
    const series = new Map<string, number[]>();
    for (const store of bench.stores) {
      const variants = [...best, ...others].filter((k) => k.startsWith(`${store}/`)).map((k) => k.slice(store.length + 1));
      if (variants.length === 0) continue;
      const rows: Row[] = [];
      for (let start = from; start <= last; start = addDays(start, 91)) {
        const end = addDays(start, 90) < last ? addDays(start, 90) : last;
        rows.push(...(await owner<Row>(
          `select f.variant_id, f.local_day::text as day, sum(f.units)::float8 as units
             from private.report_facts($1, $2, $3, $4) f
            where f.kind = 'sale' and f.variant_id = any($5::uuid[]) group by 1, 2`,
          [business, start, end, store, variants])).rows);
      }
      const dense = dailySeries(rows, from, days);
      for (const variant of variants) series.set(`${store}/${variant}`, dense.get(variant) ?? Array<number>(days).fill(0));
    }
    const read = performance.now();

    const full = new ForecastTally();
    const bestTally = new ForecastTally();
    const window = new ForecastTally();
    for (const key of [...best, ...others]) {
      const s = series.get(key)!.slice(Math.max(0, daysBetween(from, firstDay.get(key.split('/')[0]!) ?? from)));
      const history = s.slice(0, s.length - HOLDOUT);
      const actual = s.slice(s.length - HOLDOUT);
      const intermittent = averageDemandInterval(history) > INTERMITTENT_ADI;
      const measured = full.measure(history, actual, { intermittent });
      if (bestSet.has(key)) bestTally.record(measured, actual, { intermittent });
      const recent = history.slice(-HISTORY_DAYS);
      window.measure(recent, actual, { intermittent: averageDemandInterval(recent) > INTERMITTENT_ADI });
    }

    console.log(`Database: ${bench.label}; ${bench.saleLines.toLocaleString('en-US')} sale lines, ${bench.stores.length} stores, ` +
      `sales ${from} to ${last} (machine shared and loaded)`);
    console.log(`${best.length} best-selling (store, variant) pairs (by units over the ${HISTORY_DAYS} days before the held-out ones) + ${others.length} other sold pairs (seeded sample); ` +
      `read in ${((read - started) / 1000).toFixed(1)} s, forecast in ${((performance.now() - read) / 1000).toFixed(1)} s`);
    console.log(`\nforecast of the last ${HOLDOUT} days, unseen by the method, from the full history:`);
    full.print();
    console.log(`\nthe ${best.length} best sellers alone (full history):`);
    bestTally.print();
    console.log(`\nfrom the last ${HISTORY_DAYS} days of history only (what the Insights screen fits on; its own holdout inside decides show):`);
    window.print();
    if (!full.beatsBaselineWhereShown() || !window.beatsBaselineWhereShown()) {
      console.error('a shown forecast does not beat the naive baseline');
      process.exitCode = 1;
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
