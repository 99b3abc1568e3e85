/**
 * Business workspace at scale: p50/p95 of a member's store list and of an activity page (25 newest, and one more to
 * know whether a next page exists) with row level security on, at 100,000 businesses and 1,000,000 activity rows,
 * for the owner and for members with chosen stores (a cashier, a manager). Targets: p95 under 50 ms on
 * PostgreSQL, 150 ms on PGlite.
 *
 *   npm run bench -- workspace                     # PGlite in memory, the full data set
 *   STOREWISE_BENCH_SCALE=0.1 npm run bench -- workspace
 *   DATABASE_URL=postgres://... npm run bench -- workspace   (a throwaway database)
 *   STOREWISE_BENCH_POSTGRES=1 npm run bench -- workspace    (starts a throwaway PostgreSQL 15, as the hosted check)
 *
 * The data is generated in SQL with triggers off (session_replication_role = replica): one business, owner
 * and store per generated user, a cashier with one chosen store in every second business, activity spread over
 * them, and 20,000 entries for the demo grocery (with a bench cashier and manager who have one chosen store).
 * Each case also prints the database's own execution time (EXPLAIN ANALYZE, median of 5) beside the round trip,
 * and a "request floor" (select 1 in the same request transaction): on a loaded machine the difference between
 * the round trip and the execution time is queueing, not the query.
 */
import { parseArgs } from 'node:util';
import { startPgServer, type PgServer } from '../scripts/hosted-db/pg-server';
import { openDb } from '../supabase/local/db/open-db';
import type { JwtClaims } from '../supabase/local/db/types';

const TARGET_P95_MS = { pglite: 150, postgres: 50 } as const;
const OWNER1 = '22222222-2222-4222-8222-222222222222';
// A cashier and a manager of the demo grocery who may use one store each (bench-only accounts).
const CASHIER = 'bbbbbbbb-0000-4000-8000-00000000000c';
const MANAGER = 'bbbbbbbb-0000-4000-8000-00000000000d';
const STORE_1 = '5a000000-0000-4000-8000-000000000001';
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
  let server: PgServer | undefined;
  if (process.env.STOREWISE_BENCH_POSTGRES) server = await startPgServer();
  const databaseUrl = server?.url('supabase_admin') ?? (process.env.DATABASE_URL || undefined);
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
      // Members who are not owners: policies then also walk member_store_access (my_listed_store_ids).
      await tx.query(
        `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
         select '00000000-0000-0000-0000-000000000000'::uuid, gen_random_uuid(), 'authenticated', 'authenticated',
                'cashier' || g || '@workspace.storewise.test', '{}', now(), now()
           from generate_series(1, $1::int) g`, [Math.floor(businesses / 2)]);
      await tx.query(
        `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
         select '00000000-0000-0000-0000-000000000000', x.id, 'authenticated', 'authenticated', x.email, '{}', now(), now()
           from (values ($1::uuid, 'bench-cashier@workspace.storewise.test'),
                        ($2::uuid, 'bench-manager@workspace.storewise.test')) x (id, email)`, [CASHIER, MANAGER]);
      await tx.query(
        `create temp table bench_cashiers on commit drop as
         select c.id as user_id, b.id as business_id, s.id as store_id
           from (select u.id, row_number() over (order by u.id) as n from auth.users u
                  where u.email like 'cashier%@workspace.storewise.test') c
           join (select b.id, row_number() over (order by b.id) as n from public.businesses b
                  where b.name like 'Bench shop %') b on b.n = c.n * 2
           join public.stores s on s.business_id = b.id
         union all
         select x.user_id, s.business_id, s.id from public.stores s
          cross join (values ($1::uuid), ($2::uuid)) x (user_id) where s.id = $3::uuid`,
        [CASHIER, MANAGER, STORE_1]);
      await tx.query(
        `insert into public.business_members (business_id, user_id, role, all_stores)
         select c.business_id, c.user_id, case when c.user_id = $1::uuid then 'manager' else 'cashier' end, false
           from bench_cashiers c`, [MANAGER]);
      await tx.query(
        `insert into public.member_store_access (business_id, user_id, store_id)
         select c.business_id, c.user_id, c.store_id from bench_cashiers c`);
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
    // Vacuum as autovacuum would have by now (hint bits, visibility map), then fresh statistics.
    await db.query('vacuum analyze');
    const { rows: sizes } = await db.query<{ b: number; a: number }>(
      'select (select count(*) from public.businesses)::int as b, (select count(*) from public.activity)::int as a');
    console.log(`Database: ${db.kind}; ${sizes[0]?.b.toLocaleString('en-US')} businesses, ` +
      `${sizes[0]?.a.toLocaleString('en-US')} activity rows (generated in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

    const [{ id: business = '' } = {}] = (await db.query<{ id: string }>(
      'select id from public.businesses where owner_id = $1', [OWNER1])).rows;
    const as = (sub: string) => (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims: { role: 'authenticated', sub, aud: 'authenticated' } satisfies JwtClaims,
        readOnly: true, method: 'GET' }, (tx) => tx.query(sql, params));
    const storeList = 'select * from public.stores where business_id = $1 order by created_at';
    const activityPage = 'select * from public.activity where business_id = $1 order by at desc, id desc limit 26';
    const cases: [string, string, string, unknown[]][] = [
      ['request floor (select 1)', OWNER1, 'select 1', []],
      ['store list (owner)', OWNER1, storeList, [business]],
      ['activity page (25 newest)', OWNER1, activityPage, [business]],
      ['activity page, one store', OWNER1,
        'select * from public.activity where business_id = $1 and store_id = $2 order by at desc limit 26', [business, STORE_1]],
      ['activity page 3 (as the screen pages)', OWNER1, `${activityPage} offset 50`, [business]],
      ['store list (cashier, one store)', CASHIER, storeList, [business]],
      ['activity page (manager, one store)', MANAGER, activityPage, [business]],
    ];
    const target = TARGET_P95_MS[db.kind];
    let failed = false;
    for (const [name, sub, sql, params] of cases) {
      const run = as(sub);
      for (let n = 0; n < 5; n += 1) await run(sql, params);
      const samples: number[] = [];
      for (let n = 0; n < iterations; n += 1) {
        const t = performance.now();
        await run(sql, params);
        samples.push(performance.now() - t);
      }
      const executions: number[] = [];
      for (let n = 0; n < 5; n += 1) {
        const plan = await run(`explain (analyze, format json) ${sql}`, params);
        const json = Object.values(plan.rows[0] ?? {})[0];
        const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as [{ 'Execution Time': number }];
        executions.push(parsed[0]['Execution Time']);
      }
      if (process.env.STOREWISE_BENCH_EXPLAIN) {
        const plan = await run(`explain analyze ${sql}`, params);
        console.log(plan.rows.map((r) => Object.values(r).join('')).join('\n'));
      }
      const p95 = p(samples, 0.95);
      if (p95 > target) failed = true;
      console.log(`${name.padEnd(38)} p50 ${p(samples, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  ` +
        `(target ${target} ms; in the database ${p(executions, 0.5).toFixed(2)} ms)`);
    }
    if (failed) process.exitCode = 1;
  } finally {
    await db.close();
    await server?.stop();
  }
}

await main();
