/**
 * Support desk at scale (issue 15): p50/p95 of the admin queue's first page, a filtered page and searches at
 * 20,000 tickets (npm run seed:large's default), as the demo admin through HTTP (supabase-js rpc) and directly
 * (db.asRequest). Targets: p95 < 50 ms on PostgreSQL, < 150 ms on PGlite.
 *
 *   npm run bench -- support
 *   STOREWISE_BENCH_SCALE=0.1 npm run bench -- support     # a tenth of the data set
 *   DATABASE_URL=postgres://... npm run bench -- support
 *
 * Shares the cached data set of bench/admin.bench.ts (same folder name per scale and migration set).
 */
import { runAdminBench, type AdminBenchCase } from './lib/admin-bench';
import type { Database } from '../shared/lib/database.types';

await runAdminBench(({ client, direct, check }) => {
  const queue = (args: Database['public']['Functions']['admin_list_tickets']['Args']) => async () =>
    check(await client.rpc('admin_list_tickets', { _limit: 20, _offset: 0, ...args }));
  const cases: AdminBenchCase[] = [
    {
      name: 'queue, first page',
      http: queue({}),
      direct: () => direct('select * from public.admin_list_tickets(_limit => 20)'),
    },
    {
      name: 'queue, active, page 50',
      http: queue({ _status: 'active', _offset: 980 }),
      direct: () =>
        direct(`select * from public.admin_list_tickets(_status => 'active', _limit => 20, _offset => 980)`),
    },
    {
      name: 'queue, urgent waiting on us',
      http: queue({ _priority: 'urgent', _waiting_on: 'us' }),
      direct: () =>
        direct(`select * from public.admin_list_tickets(_priority => 'urgent', _waiting_on => 'us', _limit => 20)`),
    },
    {
      // A generated subject: one ticket in eight matches, so the count is real work.
      name: 'search "barcode"',
      http: queue({ _search: 'barcode' }),
      direct: () => direct(`select * from public.admin_list_tickets(_search => 'barcode', _limit => 20)`),
    },
    {
      // The middle of a generated surname: owners' names through the profiles trigram index.
      name: 'search "artma"',
      http: queue({ _search: 'artma' }),
      direct: () => direct(`select * from public.admin_list_tickets(_search => 'artma', _limit => 20)`),
    },
    {
      name: 'search "ka" (no trigram)',
      http: queue({ _search: 'ka' }),
      direct: () => direct(`select * from public.admin_list_tickets(_search => 'ka', _limit => 20)`),
    },
  ];

  return cases;
});
