/**
 * Business workspace at scale: p50/p95 of a member's store list and of an activity page (25 newest, and one more to
 * know whether a next page exists) with row level security on, at 100,000 businesses and 1,000,000 activity rows.
 * Targets: p95 under 50 ms on PostgreSQL, 150 ms on PGlite.
 *
 *   npm run bench -- workspace                     # PGlite in memory, the full data set
 *   STOREWISE_BENCH_SCALE=0.1 npm run bench -- workspace
 *   DATABASE_URL=postgres://... npm run bench -- workspace   (a throwaway database)
 *
 * The data is generated in SQL with triggers off (session_replication_role = replica): one business, owner
 * and store per generated user, activity spread over them, and 20,000 entries for the demo grocery.
 */
import { parseArgs } from 'node:util';
import { openDb } from '../supabase/local/db/open-db';
import type { JwtClaims } from '../supabase/local/db/types';

const TARGET_P95_MS = { pglite: 150, postgres: 50 } as const;
const OWNER1 = '22222222-2222-4222-8222-222222222222';
const DEMO_ACTIVITY = 20_000;

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: process.env.STOREWISE_BENCH_SCALE ?? '1' },
    iterations: { type: 'string', default: '50' },
  },
  allowPositionals: true,
});
const scale = Number(values.scale);
const iterations = Number(values.iterations);
if (!(scale > 0 && scale <= 1) || !(iterations >= 5)) throw new Error('--scale must be in (0, 1], --iterations >= 5');
const businesses = Math.round(100_000 * scale);
const activity = Math.round(1_000_000 * scale);

function p(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const db = await openDb(databaseUrl ? { databaseUrl } : { memory: true });
  try {
    const started = performance.now();
    await db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
         select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                'bench' || g || '@workspace.storewise.test', '{}', now(), now()
           from generate_series(1, $1::int) g`, [businesses]);
      await tx.query(
        `insert into public.businesses (name, type, owner_id, created_at)
         select 'Bench shop ' || u.email, 'Others', u.id, now() - (random() * interval '400 days')
           from auth.users u where u.email like '%@workspace.storewise.test'`);
      await tx.query(
        `insert into public.business_members (business_id, user_id, role)
         select b.id, b.owner_id, 'owner' from public.businesses b
          where not exists (select 1 from public.business_members m where m.business_id = b.id)`);
      await tx.query(
        `insert into public.stores (business_id, name)
         select b.id, 'Main store' from public.businesses b
          where not exists (select 1 from public.stores s where s.business_id = b.id)`);
      const generated = Math.max(activity - DEMO_ACTIVITY, 0);
      await tx.query(
        `create temp table bench_stores on commit drop as
         select row_number() over (order by s.id)::int as n, s.id, s.business_id, b.owner_id
           from public.stores s join public.businesses b on b.id = s.business_id
          where b.name like 'Bench shop %'`);
      await tx.query('create index on bench_stores (n)');
      await tx.query(
        `insert into public.activity (business_id, store_id, actor_id, actor_label, kind, entity_type, entity_id, after, at)
         select s.business_id, s.id, s.owner_id, 'Bench owner', 'store.updated', 'store', s.id, '{}',
                now() - (g * interval '1 minute')
           from generate_series(1, $1::int) g
           join bench_stores s on s.n = (g % $2::int) + 1`,
        [generated, businesses]);
      await tx.query(
        `insert into public.activity (business_id, store_id, actor_id, actor_label, kind, entity_type, entity_id, after, at)
         select s.business_id, s.id, $1::uuid, 'Olivia Grocer', 'register.updated', 'register', s.id, '{}',
                now() - (g * interval '1 minute')
           from generate_series(1, $2::int) g
           join public.stores s on s.id = case when g % 2 = 0 then '5a000000-0000-4000-8000-000000000001'::uuid
                                               else '5a000000-0000-4000-8000-000000000002'::uuid end`,
        [OWNER1, DEMO_ACTIVITY]);
    });
    await db.query('analyze');
    const { rows: sizes } = await db.query<{ b: number; a: number }>(
      'select (select count(*) from public.businesses)::int as b, (select count(*) from public.activity)::int as a');
    console.log(`Database: ${db.kind}; ${sizes[0]?.b.toLocaleString('en-US')} businesses, ` +
      `${sizes[0]?.a.toLocaleString('en-US')} activity rows (generated in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

    const [{ id: business = '' } = {}] = (await db.query<{ id: string }>(
      'select id from public.businesses where owner_id = $1', [OWNER1])).rows;
    const claims: JwtClaims = { role: 'authenticated', sub: OWNER1, aud: 'authenticated' };
    const run = (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims, readOnly: true, method: 'GET' }, (tx) => tx.query(sql, params));

    const cases: [string, () => Promise<unknown>][] = [
      ['store list', () => run('select * from public.stores where business_id = $1 order by created_at', [business])],
      ['activity page (25 newest)', () => run(
        'select * from public.activity where business_id = $1 order by at desc, id desc limit 26', [business])],
      ['activity page, one store', () => run(
        `select * from public.activity where business_id = $1 and store_id = $2 order by at desc limit 26`,
        [business, '5a000000-0000-4000-8000-000000000001'])],
      ['activity page 3 (as the screen pages)', () => run(
        'select * from public.activity where business_id = $1 order by at desc, id desc limit 26 offset 50', [business])],
    ];
    if (process.env.STOREWISE_BENCH_EXPLAIN) {
      for (const [name, sql, params] of [
        ['stores', 'select * from public.stores where business_id = $1 order by created_at', [business]],
        ['page', 'select * from public.activity where business_id = $1 order by at desc, id desc limit 26', [business]],
      ] as const) {
        const plan = await run(`explain analyze ${sql}`, [...params]);
        console.log(name, plan.rows.map((r) => Object.values(r).join('')).join('\n'));
      }
    }
    const target = TARGET_P95_MS[db.kind];
    let failed = false;
    for (const [name, fn] of cases) {
      for (let n = 0; n < 5; n += 1) await fn();
      const samples: number[] = [];
      for (let n = 0; n < iterations; n += 1) {
        const t = performance.now();
        await fn();
        samples.push(performance.now() - t);
      }
      const p95 = p(samples, 0.95);
      if (p95 > target) failed = true;
      console.log(`${name.padEnd(32)} p50 ${p(samples, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  (target ${target} ms)`);
    }
    if (failed) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

await main();
