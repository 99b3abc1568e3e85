/**
 * The retail benchmarks' data (bench/reports.bench.ts, bench/catalog.bench.ts, bench/pos.bench.ts): the retail set
 * of `npm run seed:large` (scripts/seed-large/retail.ts) and its people, with a p50/p95 runner.
 *
 *   STOREWISE_BENCH_DATA_DIR=DIR   a PGlite folder filled by `npm run seed:large -- --data-dir DIR` (full size)
 *   DATABASE_URL=postgres://...    a PostgreSQL database; seeded at the scale below if it has no retail set
 *   otherwise                      PGlite in memory, seeded at STOREWISE_BENCH_SCALE (default 0.1: 10,000
 *                                  variants and 100,000 sale lines), so `npm run bench` stays minutes long
 */
import bcrypt from 'bcryptjs';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db, JwtClaims } from '../../supabase/local/db/types';
import { LARGE_SEED_PASSWORD } from '../../scripts/seed-large';
import {
  defaultRetailOptions,
  RETAIL_CASHIER_EMAIL,
  RETAIL_MANAGER_EMAIL,
  RETAIL_OWNER_EMAIL,
  seedRetail,
} from '../../scripts/seed-large/retail';

export interface RetailBenchDb {
  db: Db;
  business: string;
  stores: string[];
  owner: JwtClaims;
  manager: JwtClaims;
  cashier: JwtClaims;
  variants: number;
  saleLines: number;
  /** Where the figures come from, for the printout. */
  label: string;
}

export const benchScale = (): number => {
  const scale = Number(process.env.STOREWISE_BENCH_SCALE ?? '0.1');
  if (!(scale > 0 && scale <= 1)) throw new Error('STOREWISE_BENCH_SCALE must be in (0, 1]');
  return scale;
};

const claimsOf = (sub: string): JwtClaims => ({ role: 'authenticated', sub, aud: 'authenticated' });

/** Opens the data; seeds the retail set (at `size`, default the scaled full set) when the database has none. */
export async function openRetailBench(size?: { variants: number; saleLines: number; stores?: number; catalogOnly?: boolean }): Promise<RetailBenchDb> {
  const dataDir = process.env.STOREWISE_BENCH_DATA_DIR || undefined;
  const databaseUrl = dataDir ? undefined : process.env.DATABASE_URL || undefined;
  const db = await openDb(dataDir ? { dataDir } : databaseUrl ? { databaseUrl } : { memory: true });
  const find = async () =>
    (await db.query<{ business: string; email: string; user_id: string }>(
      `select b.id as business, u.email, u.id as user_id
         from public.businesses b join public.business_members m on m.business_id = b.id
         join auth.users u on u.id = m.user_id
        where b.owner_id = (select id from auth.users where email = $1)`, [RETAIL_OWNER_EMAIL])).rows;
  let people = await find();
  if (people.length === 0) {
    const scale = benchScale();
    const options = { ...defaultRetailOptions, ...(size ?? { variants: Math.round(defaultRetailOptions.variants * scale),
      saleLines: Math.round(defaultRetailOptions.saleLines * scale) }) };
    const started = performance.now();
    const role = await db.query<{ superuser: boolean }>('select rolsuper as superuser from pg_catalog.pg_roles where rolname = current_user');
    await seedRetail(db, options, await bcrypt.hash(LARGE_SEED_PASSWORD, 4), role.rows[0]?.superuser === true,
      async (_phase, fn) => { await fn(); }, () => {});
    await db.exec('analyze');
    console.log(`Seeded the retail set (${options.variants} variants, ${options.saleLines} sale lines) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    people = await find();
  }
  const business = people[0]?.business ?? '';
  const userOf = (email: string) => claimsOf(people.find((p) => p.email === email)?.user_id ?? '');
  const stores = (await db.query<{ id: string }>('select id from public.stores where business_id = $1 order by name', [business])).rows.map((r) => r.id);
  const [counts] = (await db.query<{ variants: number; lines: number }>(
    `select (select count(*) from public.variants where business_id = $1)::int as variants,
            (select count(*) from public.sale_lines where business_id = $1)::int as lines`, [business])).rows;
  return {
    db, business, stores,
    owner: userOf(RETAIL_OWNER_EMAIL), manager: userOf(RETAIL_MANAGER_EMAIL), cashier: userOf(RETAIL_CASHIER_EMAIL),
    variants: counts?.variants ?? 0, saleLines: counts?.lines ?? 0,
    label: `${db.kind}${dataDir ? ` (${dataDir})` : databaseUrl ? '' : ' in memory'}`,
  };
}

export function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** Warms up, then times fn; prints one line with p50/p95 against the target. Returns whether p95 met it. */
export async function measureCase(name: string, fn: () => Promise<unknown>, target: number, iterations: number): Promise<boolean> {
  try {
    await fn();
  } catch (error) {
    // A statement timeout (the API roles' limit) is a result too: report it and go on with the other cases.
    console.log(`${name.padEnd(48)} FAILED: ${error instanceof Error ? error.message : String(error)}  (target ${target} ms)`);
    return false;
  }
  for (let n = 0; n < 2; n += 1) await fn();
  const samples: number[] = [];
  for (let n = 0; n < iterations; n += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  const p95 = percentile(samples, 0.95);
  console.log(`${name.padEnd(48)} p50 ${percentile(samples, 0.5).toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  ` +
    `(target ${target} ms)${p95 > target ? '  ABOVE TARGET' : ''}`);
  return p95 <= target;
}
