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
import type { Db } from '../supabase/local/db/types';

/**
 * seed:large loads tickets with triggers off (replica mode), so they lack what the insert trigger fills on a real
 * ticket: the owner's email, "waiting since" the ticket was filed and the search row (docs/adr/0121). Filled once
 * here, as the triggers would have, so the searches below match what they would on a real desk.
 */
async function completeSeededTickets(db: Db): Promise<void> {
  const started = performance.now();
  const { rows } = await db.query<{ n: number }>(
    `with done as (
       update public.support_tickets t set owner_email = u.email, waiting_since = t.created_at
         from auth.users u where u.id = t.user_id and t.owner_email is null returning 1)
     select count(*)::int as n from done`,
  );
  const { rows: added } = await db.query<{ n: number }>('select private.refresh_support_ticket_search()::int as n');
  if ((rows[0]?.n ?? 0) + (added[0]?.n ?? 0) > 0) {
    await db.query('analyze public.support_tickets');
    await db.query('analyze private.support_ticket_search');
    console.log(`Completed ${rows[0]?.n ?? 0} seeded tickets (${added[0]?.n ?? 0} search rows) in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s.`);
  }
}

await runAdminBench(async ({ client, db, direct, check }) => {
  await completeSeededTickets(db);
  const queue = (args: Database['public']['Functions']['admin_list_tickets']['Args']) => async () =>
    check(await client.rpc('admin_list_tickets', { _limit: 20, _offset: 0, ...args }));
  const cases: AdminBenchCase[] = [
    {
      // The floor on this machine at this moment: a one-row call. On the shared, loaded machine every figure
      // below is several times its unloaded value; compare them with this line.
      name: 'baseline: one-row call',
      http: async () => check(await client.rpc('admin_list_admins')),
      direct: () => direct('select * from public.admin_list_admins()'),
    },
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
      // Part of an owner's sign-in email (shop<N>@large.storewise.test): a handful of tickets.
      name: 'search "shop1234"',
      http: queue({ _search: 'shop1234' }),
      direct: () => direct(`select * from public.admin_list_tickets(_search => 'shop1234', _limit => 20)`),
    },
    {
      name: 'search "ka" (no trigram)',
      http: queue({ _search: 'ka' }),
      direct: () => direct(`select * from public.admin_list_tickets(_search => 'ka', _limit => 20)`),
    },
  ];

  return cases;
});
