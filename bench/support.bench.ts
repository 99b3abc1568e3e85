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
 * The data set must be complete as npm run seed:large leaves it (search rows and queue counts, docs/adr/0154):
 * a folder seeded by an older seed:large is refused rather than measured wrong.
 */
async function assertSeededTicketsComplete(db: Db): Promise<void> {
  const { rows } = await db.query<{ missing: number; drift: boolean }>(
    `select (select count(*) from public.support_tickets t
              where t.owner_email is null
                 or not exists (select 1 from private.support_ticket_search s where s.ticket_id = t.id))::int as missing,
            (select coalesce(sum(n), 0) from private.support_queue_counts)
              <> (select count(*) from public.support_tickets) as drift`,
  );
  if ((rows[0]?.missing ?? 0) > 0 || rows[0]?.drift) {
    throw new Error(`${rows[0]?.missing} tickets lack their owner's email or a search row, or the queue counts drifted: the data set predates ` +
      'seed:large\'s support completion; run the bench with --fresh (or reseed STOREWISE_BENCH_DATA_DIR).');
  }
}

await runAdminBench(async ({ client, db, direct, check }) => {
  await assertSeededTicketsComplete(db);
  const queue = (args: Database['public']['Functions']['admin_list_tickets']['Args']) => async () =>
    check(await client.rpc('admin_list_tickets', { _limit: 20, _offset: 0, ...args }));
  const { data: firstActive } = check(await client.rpc('admin_list_tickets', { _status: 'active', _limit: 1 }));
  const lastActivePage = Math.max(Number(firstActive?.[0]?.total_count ?? 0) - 20, 0);
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
      // What the Support Tickets screen opens with: active tickets (not resolved or closed).
      name: 'queue, screen first page',
      http: queue({ _status: 'active' }),
      direct: () => direct(`select * from public.admin_list_tickets(_status => 'active', _limit => 20)`),
    },
    {
      name: 'queue, active, page 50',
      http: queue({ _status: 'active', _offset: 980 }),
      direct: () =>
        direct(`select * from public.admin_list_tickets(_status => 'active', _limit => 20, _offset => 980)`),
    },
    {
      // Past the middle the page walks the queue index from the far end (docs/adr/0154).
      name: 'queue, active, last page',
      http: queue({ _status: 'active', _offset: lastActivePage }),
      direct: () =>
        direct(`select * from public.admin_list_tickets(_status => 'active', _limit => 20, _offset => $1)`, [lastActivePage]),
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
