/**
 * The admin benchmarks' common part (bench/admin.bench.ts, bench/support.bench.ts): the cached large data set
 * (`seed:large` once per scale and migration set), the demo admin's client and a direct request runner, and
 * the table of p50/p95 through HTTP and directly against the target. Each benchmark only names its calls.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { nodeClientOptions } from '../../tests/helpers/node-supabase-client';
import type { Database } from '../../shared/lib/database.types';
import { listMigrations } from '../../supabase/local/db/migrate';
import { openDb } from '../../supabase/local/db/open-db';
import { migrationsDir } from '../../supabase/local/db/paths';
import type { Db, JwtClaims } from '../../supabase/local/db/types';
import { startLocalStack } from '../../supabase/local/server';
import {
  defaultSeedLargeOptions,
  LARGE_SEED_EMAIL_DOMAIN,
  seedLarge,
  type SeedLargeOptions,
} from '../../scripts/seed-large';

const ADMIN = { email: 'admin@storewise.local', password: 'storewise-admin' };
const TARGET_P95_MS = { pglite: 150, postgres: 50 } as const;

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: process.env.STOREWISE_BENCH_SCALE ?? '1' },
    iterations: { type: 'string', default: '50' },
    fresh: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const scale = Number(values.scale);
const iterations = Number(values.iterations);
if (!(scale > 0 && scale <= 1) || !(iterations >= 5)) {
  throw new Error('--scale must be in (0, 1] and --iterations at least 5');
}

const seedOptions: SeedLargeOptions = {
  ...defaultSeedLargeOptions,
  users: Math.round(defaultSeedLargeOptions.users * scale),
  billing: Math.round(defaultSeedLargeOptions.billing * scale),
  tickets: Math.round(defaultSeedLargeOptions.tickets * scale),
  // The retail set (variants, a year of sales) belongs to the catalog, pos and reports benches.
  retailVariants: 0,
  saleLines: 0,
};

function fingerprintMigrations(): string {
  const hash = createHash('sha256');
  for (const migration of listMigrations(migrationsDir)) hash.update(readFileSync(migration.path));
  return hash.digest('hex').slice(0, 10);
}

/** Makes sure the data set exists; returns where the stack should open it. */
async function prepareData(): Promise<{ dataDir?: string; databaseUrl?: string }> {
  // A folder already filled by `npm run seed:large -- --data-dir D` (any size): used as it is.
  if (process.env.STOREWISE_BENCH_DATA_DIR) return { dataDir: process.env.STOREWISE_BENCH_DATA_DIR };
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = databaseUrl
    ? undefined
    : join(tmpdir(), `storewise-bench-admin-${seedOptions.users}-${fingerprintMigrations()}`);
  const marker = dataDir && join(dataDir, 'bench-complete');
  if (dataDir && values.fresh) rmSync(dataDir, { recursive: true, force: true });
  if (marker && existsSync(marker)) {
    console.log(`Reusing the data set in ${dataDir} (--fresh to regenerate).`);
    return { dataDir };
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });

  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from auth.users where email like $1', [
      `%@${LARGE_SEED_EMAIL_DOMAIN}`,
    ]);
    const present = rows[0]?.n ?? 0;
    if (present >= seedOptions.users) {
      console.log(`Reusing ${present.toLocaleString('en-US')} generated users in ${db.location}.`);
    } else {
      console.log(
        `Generating ${seedOptions.users.toLocaleString('en-US')} users, ${seedOptions.billing.toLocaleString('en-US')} ` +
          `billing rows, ${seedOptions.tickets.toLocaleString('en-US')} tickets into ${db.location} (once)...`,
      );
      const report = await seedLarge(db, { ...seedOptions, users: seedOptions.users - present });
      console.log(`  done in ${(report.totalMs / 1000).toFixed(1)} s`);
    }
    if (db.kind === 'pglite') await db.query('checkpoint');
  } finally {
    await db.close();
  }
  if (marker) writeFileSync(marker, new Date().toISOString());
  return databaseUrl ? { databaseUrl } : { dataDir };
}

interface Stats {
  p50: number;
  p95: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? Number.NaN };
}

async function measure(fn: () => Promise<unknown>): Promise<Stats> {
  // Warm caches and plans. The first HTTP call after the direct phase may meet a keep-alive socket the
  // server closed meanwhile ("fetch failed"): retry warm-up calls once.
  for (let n = 0; n < 5; n += 1) await fn().catch(() => fn());
  const samples: number[] = [];
  for (let n = 0; n < iterations; n += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return stats(samples);
}

export interface AdminBenchCase {
  name: string;
  http: () => Promise<unknown>;
  direct: () => Promise<unknown>;
}

export interface AdminBenchContext {
  client: SupabaseClient<Database>;
  /** The stack's database as its owner, for a benchmark's own preparation (not for measured calls). */
  db: Db;
  claims: JwtClaims;
  /** Runs SQL as the signed-in admin (same role, claims and transaction as a request, no HTTP). */
  direct: (sql: string, params?: unknown[]) => Promise<unknown>;
  /** Throws a supabase-js result's error, so a failing call cannot pass as a fast one. */
  check: <T extends { error: { message: string } | null }>(result: T) => T;
}

/** Prepares the data set, starts the stack, signs the admin in and prints the table for the given calls. */
export async function runAdminBench(
  makeCases: (context: AdminBenchContext) => AdminBenchCase[] | Promise<AdminBenchCase[]>,
): Promise<void> {
  const where = await prepareData();
  const stack = await startLocalStack({ ...where, apiPort: 0, inboxPort: 0 });
  try {
    const db = stack.db;
    const client = createClient<Database>(stack.apiUrl, stack.anonKey, nodeClientOptions);
    const signIn = await client.auth.signInWithPassword(ADMIN);
    if (signIn.error || !signIn.data.session) throw new Error(`admin sign-in failed: ${signIn.error?.message}`);
    const claims: JwtClaims = { role: 'authenticated', sub: signIn.data.user.id, aud: 'authenticated' };
    const direct = <T>(sql: string, params: unknown[] = []) =>
      db.asRequest({ role: 'authenticated', claims, readOnly: false, method: 'POST' }, (tx) =>
        tx.query<T>(sql, params),
      );

    const { rows: sizes } = await db.query<{ profiles: number; billing: number; tickets: number }>(
      `select (select count(*) from public.profiles)::int as profiles,
              (select count(*) from public.billing_history)::int as billing,
              (select count(*) from public.support_tickets)::int as tickets`,
    );
    const size = sizes[0];
    console.log(
      `Database: ${db.kind} (${db.location}); ${size?.profiles.toLocaleString('en-US')} profiles, ` +
        `${size?.billing.toLocaleString('en-US')} billing rows, ${size?.tickets.toLocaleString('en-US')} tickets; ` +
        `${iterations} calls each after 5 warm-up calls.`,
    );

    const check = <T extends { error: { message: string } | null }>(result: T): T => {
      if (result.error) throw new Error(result.error.message);
      return result;
    };

    const cases = await makeCases({ client, db, claims, direct, check });
    const target = TARGET_P95_MS[db.kind];
    const fmt = (ms: number) => ms.toFixed(1).padStart(7);
    console.log(
      `\n${'call'.padEnd(28)} ${'HTTP p50'.padStart(9)} ${'p95'.padStart(7)} ${'max'.padStart(7)}   ${'direct p50'.padStart(10)} ${'p95'.padStart(7)}   target p95 < ${target} ms`,
    );
    const misses: string[] = [];
    for (const entry of cases) {
      const viaHttp = await measure(entry.http);
      const viaDb = await measure(entry.direct);
      const ok = viaHttp.p95 < target;
      if (!ok && !entry.name.startsWith('baseline')) misses.push(entry.name);
      console.log(
        `${entry.name.padEnd(28)} ${fmt(viaHttp.p50)}  ${fmt(viaHttp.p95)} ${fmt(viaHttp.max)}   ${fmt(viaDb.p50)}    ${fmt(viaDb.p95)}   ${ok ? 'ok' : 'MISS'}`,
      );
    }
    console.log(misses.length ? `\nAbove the target: ${misses.join(', ')}.` : '\nEvery call is within the target.');
  } finally {
    await stack.stop();
  }
}
