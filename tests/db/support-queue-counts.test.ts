/**
 * The admin support queue's maintained counts and paging (docs/adr/0154): private.support_queue_counts equals
 * count(*) per (status, priority, waiting_on) after seed:large's bulk load, single and multi-row inserts, status,
 * priority and waiting changes through the desk functions and plain updates, deletes (direct and cascading from
 * auth.users) and truncate; admin_list_tickets' total equals count(*) for every filter, its pages (walked from
 * either end of the queue index) join up into the full queue order, and searches under filters (read from the search
 * rows' copies of the queue columns) match the tickets' own columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db, Queryable } from '../../supabase/local/db/types';
import { LARGE_SEED_EMAIL_DOMAIN, parseSeedLargeArgs, seedLarge } from '../../scripts/seed-large';
import { seedUsers } from './support/seed-ids';

let db: Db;

const rows = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await db.query<T>(sql, params)).rows;

/** Keys whose maintained count differs from count(*) (a missing row counts as 0). */
async function drift(): Promise<unknown[]> {
  return rows(
    `select coalesce(c.status, t.status) as status, coalesce(c.priority, t.priority) as priority,
            coalesce(c.waiting_on, t.waiting_on) as waiting_on, coalesce(c.n, 0)::int as kept, coalesce(t.n, 0)::int as counted
       from private.support_queue_counts c
       full join (select status, priority, waiting_on, count(*) as n from public.support_tickets group by 1, 2, 3) t
         on (t.status, t.priority, t.waiting_on) = (c.status, c.priority, c.waiting_on)
      where coalesce(c.n, 0) <> coalesce(t.n, 0)`,
  );
}

const ticketCount = async () => (await rows<{ n: number }>('select count(*)::int as n from public.support_tickets'))[0]?.n;

/** Runs SQL as the demo admin through the same request path the data API uses. */
function asAdmin<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.asRequest(
    { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.admin.id, aud: 'authenticated' }, readOnly: false },
    fn,
  );
}

async function fileTickets(userId: string, specs: { status: string; priority: string; ageHours: number }[]): Promise<string[]> {
  const inserted = await rows<{ id: string }>(
    `insert into public.support_tickets (user_id, subject, message, status, priority, created_at)
     select $1, 'Queue test ' || s.n, 'Please help.', s.status, s.priority, now() - make_interval(hours => s.age)
       from unnest($2::text[], $3::text[], $4::int[]) with ordinality as s (status, priority, age, n)
     returning id::text`,
    [userId, specs.map((s) => s.status), specs.map((s) => s.priority), specs.map((s) => s.ageHours)],
  );
  return inserted.map((r) => r.id);
}

beforeAll(async () => {
  db = await openDb({ memory: true });
}, 300_000);

afterAll(async () => {
  await db?.close();
});

describe('seed:large tickets', () => {
  it('arrive complete: owner email, waiting since filed, a search row each, and exact queue counts', async () => {
    const options = parseSeedLargeArgs(['--users', '120', '--billing', '0', '--tickets', '60', '--retail-variants', '0',
      '--sale-lines', '0']);
    const report = await seedLarge(db, options);
    expect(report.tickets).toBe(60);
    const [seeded] = await rows<{ n: number; no_email: number; not_waiting: number; no_search: number }>(
      `select count(*)::int as n,
              count(*) filter (where t.owner_email is distinct from u.email)::int as no_email,
              count(*) filter (where t.waiting_since <> t.created_at or t.waiting_on <> 'us')::int as not_waiting,
              count(*) filter (where s.ticket_id is null)::int as no_search
         from public.support_tickets t
         join auth.users u on u.id = t.user_id
         left join private.support_ticket_search s on s.ticket_id = t.id
        where u.email like $1`,
      [`%@${LARGE_SEED_EMAIL_DOMAIN}`],
    );
    expect(seeded).toEqual({ n: 60, no_email: 0, not_waiting: 0, no_search: 0 });
    expect(await drift()).toEqual([]);
  });
});

describe('support_queue_counts', () => {
  it('follows inserts, desk replies and status changes, plain updates, deletes and truncate', async () => {
    const before = await ticketCount();
    const owner1 = await fileTickets(seedUsers.owner1.id, [
      { status: 'open', priority: 'medium', ageHours: 30 }, { status: 'open', priority: 'urgent', ageHours: 5 },
      { status: 'open', priority: 'low', ageHours: 50 }, { status: 'open', priority: 'high', ageHours: 2 },
    ]);
    const [single] = await fileTickets(seedUsers.owner2.id, [{ status: 'open', priority: 'medium', ageHours: 1 }]);
    expect(await drift()).toEqual([]);
    expect(await ticketCount()).toBe((before ?? 0) + 5);

    // The desk functions: a staff answer (waiting on the customer, pending), a resolution, a customer's reopening.
    await asAdmin((tx) => tx.query(`select public.admin_reply($1, 'Looking into it')`, [owner1[0]]));
    await asAdmin((tx) => tx.query(`select public.admin_set_ticket($1, _status => 'resolved', _priority => 'high')`, [owner1[1]]));
    expect(await drift()).toEqual([]);
    await db.asRequest(
      { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.owner1.id, aud: 'authenticated' }, readOnly: false },
      (tx) => tx.query(`select public.customer_reply($1, 'Still broken')`, [owner1[1]]),
    );
    expect(await drift()).toEqual([]);

    // Plain updates: several rows in one statement, a status that moves back and forth, an unrelated column.
    await db.query(`update public.support_tickets set status = 'closed' where id = any($1::uuid[])`, [owner1.slice(2)]);
    await db.query(`update public.support_tickets set priority = 'urgent', waiting_on = 'customer' where id = $1`, [single]);
    expect(await drift()).toEqual([]);
    const countsBefore = await rows<{ xmin: string }>('select xmin::text from private.support_queue_counts order by 1');
    await db.query(`update public.support_tickets set subject = 'Renamed' where id = any($1::uuid[])`, [owner1]);
    expect(await rows('select xmin::text from private.support_queue_counts order by 1')).toEqual(countsBefore);

    // Deletes: one ticket, then every ticket of a deleted account (cascade from auth.users).
    await db.query('delete from public.support_tickets where id = $1', [owner1[3]]);
    expect(await drift()).toEqual([]);
    const [gone] = await rows<{ id: string }>(
      `select u.id::text from auth.users u where u.email like $1 and exists (select 1 from public.support_tickets t where t.user_id = u.id)
        order by u.email limit 1`,
      [`%@${LARGE_SEED_EMAIL_DOMAIN}`],
    );
    await db.query('delete from auth.users where id = $1', [gone?.id]);
    expect(await drift()).toEqual([]);
    expect(await ticketCount()).toBeLessThan((before ?? 0) + 4);
  });

  it('gives admin_list_tickets the total of every filter, and pages from either end join up', async () => {
    const filters: { _status?: string; _priority?: string; _waiting_on?: string }[] = [
      {}, { _status: 'active' }, { _status: 'open' }, { _status: 'resolved' }, { _status: 'in_progress' },
      { _priority: 'urgent' }, { _waiting_on: 'us' }, { _waiting_on: 'customer' },
      { _status: 'active', _priority: 'high' }, { _status: 'open', _waiting_on: 'us' }, { _priority: 'medium', _waiting_on: 'customer' },
    ];
    for (const filter of filters) {
      const all = await asAdmin((tx) =>
        tx.query<{ id: string; total_count: number }>(
          `select id::text, total_count from public.admin_list_tickets(_status => $1, _priority => $2, _waiting_on => $3, _limit => 100)`,
          [filter._status ?? null, filter._priority ?? null, filter._waiting_on ?? null],
        ));
      const [expected] = await rows<{ n: number; ids: string[] | null }>(
        `select count(*)::int as n, array_agg(t.id::text order by t.queue_rank, t.waiting_since, t.id) as ids
           from public.support_tickets t
          where ($1::text is null or t.status = $1 or ($1 = 'active' and t.status not in ('resolved', 'closed')))
            and ($2::text is null or t.priority = $2)
            and ($3::text is null or (t.waiting_on = $3 and t.status not in ('resolved', 'closed')))`,
        [filter._status ?? null, filter._priority ?? null, filter._waiting_on ?? null],
      );
      const label = JSON.stringify(filter);
      expect(all.rows.length, label).toBe(Math.min(expected?.n ?? 0, 100));
      expect(all.rows.every((r) => r.total_count === expected?.n), label).toBe(true);
      expect(all.rows.map((r) => r.id), label).toEqual((expected?.ids ?? []).slice(0, 100));

      // Pages of 7: those past the middle walk the index backwards; together they are the queue in order.
      const paged: string[] = [];
      for (let offset = 0; offset < Math.min(expected?.n ?? 0, 100); offset += 7) {
        const page = await asAdmin((tx) =>
          tx.query<{ id: string }>(
            `select id::text from public.admin_list_tickets(_status => $1, _priority => $2, _waiting_on => $3,
                                                             _limit => 7, _offset => $4)`,
            [filter._status ?? null, filter._priority ?? null, filter._waiting_on ?? null, offset],
          ));
        paged.push(...page.rows.map((r) => r.id));
      }
      expect(paged.slice(0, 100), label).toEqual((expected?.ids ?? []).slice(0, 100));
    }
    // Searches read the queue columns from the search rows: after the status changes above they must still match
    // the tickets' own.
    for (const search of ['queue test', 'barcode', 'shop1']) {
      for (const filter of filters.slice(0, 8)) {
        const found = await asAdmin((tx) =>
          tx.query<{ id: string; total_count: number }>(
            `select id::text, total_count from public.admin_list_tickets(_search => $4, _status => $1, _priority => $2,
                                                                          _waiting_on => $3, _limit => 100)`,
            [filter._status ?? null, filter._priority ?? null, filter._waiting_on ?? null, search],
          ));
        const [expected] = await rows<{ n: number; ids: string[] | null }>(
          `select count(*)::int as n, array_agg(t.id::text order by t.queue_rank, t.waiting_since, t.id) as ids
             from public.support_tickets t
             join public.profiles p on p.id = t.user_id
            where (t.subject ilike '%' || $4 || '%' or t.owner_email ilike '%' || $4 || '%' or p.full_name ilike '%' || $4 || '%')
              and ($1::text is null or t.status = $1 or ($1 = 'active' and t.status not in ('resolved', 'closed')))
              and ($2::text is null or t.priority = $2)
              and ($3::text is null or (t.waiting_on = $3 and t.status not in ('resolved', 'closed')))`,
          [filter._status ?? null, filter._priority ?? null, filter._waiting_on ?? null, search],
        );
        const label = `${search} ${JSON.stringify(filter)}`;
        expect(found.rows.map((r) => r.id), label).toEqual(expected?.ids ?? []);
        expect(found.rows.every((r) => r.total_count === expected?.n), label).toBe(true);
      }
    }
    const [some] = await rows<{ n: number }>(`select count(*)::int as n from public.support_tickets where subject ilike '%queue test%'`);
    expect(some?.n).toBeGreaterThan(0);

    const past = await asAdmin((tx) => tx.query('select * from public.admin_list_tickets(_offset => 100000)'));
    expect(past.rows).toEqual([]);
  });

  it('recounts after truncate', async () => {
    await db.query('truncate public.support_tickets cascade');
    expect(await drift()).toEqual([]);
    expect(await rows('select * from private.support_queue_counts where n <> 0')).toEqual([]);
  });
});
