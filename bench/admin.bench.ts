/**
 * Admin panel at scale: p50/p95 of the four admin calls as the demo admin, through the real HTTP stack
 * (supabase-js rpc) and directly through db.asRequest (same role, claims and transaction, no HTTP), so
 * the HTTP overhead shows separately.
 *
 *   npm run bench -- admin                          # PGlite, the full data set (100k users, 1M billing rows)
 *   STOREWISE_BENCH_SCALE=0.1 npm run bench -- admin   # a tenth of it
 *   DATABASE_URL=postgres://... npm run bench -- admin
 *
 * (bench/run.ts passes no options: use STOREWISE_BENCH_SCALE=0.1, or run `npx tsx bench/admin.bench.ts --scale 0.1`.)
 * The generated PGlite folder is cached in the OS temp folder per scale and migration set, so only the
 * first run pays for `seed:large`; --fresh regenerates. On PostgreSQL the data is generated once into
 * the database DATABASE_URL names (use a throwaway database).
 */
import { runAdminBench, type AdminBenchCase } from './lib/admin-bench';

await runAdminBench(({ client, claims, direct, check }) => {
  const cases: AdminBenchCase[] = [
    {
      // Not an admin call: the floor of one rpc through the stack (gateway, JWT, transaction, JSON).
      name: 'baseline: is_admin',
      http: async () => check(await client.rpc('is_admin', { _user_id: claims.sub ?? '' })),
      direct: () => direct('select public.is_admin($1)', [claims.sub]),
    },
    {
      name: 'overview',
      http: async () => check(await client.rpc('admin_overview')),
      direct: () => direct('select * from public.admin_overview()'),
    },
    {
      name: 'users, first page',
      http: async () => check(await client.rpc('admin_list_users', { _limit: 20, _offset: 0 })),
      direct: () => direct('select * from public.admin_list_users(null, 20, 0)'),
    },
    {
      // "artma" is the middle of Hartmann: about 2% of the generated names, so the count is real work.
      name: 'users, search "ARTMA"',
      http: async () => check(await client.rpc('admin_list_users', { _search: 'ARTMA', _limit: 20, _offset: 0 })),
      direct: () => direct(`select * from public.admin_list_users('ARTMA', 20, 0)`),
    },
    {
      name: 'users, search "roshi taka"',
      http: async () => check(await client.rpc('admin_list_users', { _search: 'roshi taka', _limit: 20, _offset: 0 })),
      direct: () => direct(`select * from public.admin_list_users('roshi taka', 20, 0)`),
    },
    {
      // Two letters have no trigram: a plain count of every match (the slow path, see docs/adr/0061).
      name: 'users, search "ka"',
      http: async () => check(await client.rpc('admin_list_users', { _search: 'ka', _limit: 20, _offset: 0 })),
      direct: () => direct(`select * from public.admin_list_users('ka', 20, 0)`),
    },
    {
      name: 'plans, first page',
      http: async () => check(await client.rpc('admin_list_plans', { _limit: 20, _offset: 0 })),
      direct: () => direct('select * from public.admin_list_plans(20, 0)'),
    },
  ];

  return cases;
});
