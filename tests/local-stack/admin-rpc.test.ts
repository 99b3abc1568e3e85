/**
 * The admin functions over real HTTP (supabase-js against the local stack): the overview matches figures
 * computed independently with SQL, the running totals survive every kind of write (single rows, bulk
 * statements, upserts, cascades, truncate), search, escaping, paging, and the permission wall.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startStack, testClientOptions, type StackHandle } from '../helpers/stack';
import type { Database } from '../../shared/lib/database.types';

type Client = SupabaseClient<Database>;

let stack: StackHandle;
let admin: Client;
let owner: Client;
let anon: Client;
let service: Client;

const options = testClientOptions;

async function signedIn(email: string, password: string): Promise<Client> {
  const client = createClient<Database>(stack.apiUrl, stack.anonKey, options);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign-in as ${email} failed: ${error.message}`);
  return client;
}

interface Figures {
  total_profiles: number;
  active_users: number;
  total_revenue: string;
  open_tickets: number;
}

/** The four figures straight from the tables, as the service role (no summary involved). */
async function figuresFromTables(): Promise<Figures> {
  return stack.db.asRequest({ role: 'service_role', claims: { role: 'service_role' }, readOnly: true }, async (tx) => {
    const { rows } = await tx.query<Figures>(
      `select (select count(*) from public.profiles)::int as total_profiles,
              (select count(*) from public.user_plans where auto_renew)::int as active_users,
              (select coalesce(sum(amount), 0)::numeric(14, 2)::text from public.billing_history) as total_revenue,
              (select count(*) from public.support_tickets where status = 'open')::int as open_tickets`,
    );
    const [row] = rows;
    if (!row) throw new Error('no figures');
    return row;
  });
}

/** The overview as the admin sees it over HTTP, revenue normalised to two decimals. */
async function overview(): Promise<Figures> {
  const { data, error } = await admin.rpc('admin_overview');
  if (error) throw new Error(`admin_overview failed: ${error.message}`);
  const [row] = data;
  if (!row) throw new Error('admin_overview returned no row');
  return { ...row, total_revenue: Number(row.total_revenue).toFixed(2) };
}

async function expectOverviewMatchesTables(): Promise<void> {
  expect(await overview()).toEqual(await figuresFromTables());
}

/** Users straight into auth.users as the owner (the sign-up trigger makes the profiles). */
async function createUsers(names: string[]): Promise<string[]> {
  const { rows } = await stack.db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated',
            'admin-test-' || gen_random_uuid() || '@example.test', jsonb_build_object('full_name', n.name),
            now() - make_interval(secs => n.ord), now()
       from unnest($1::text[]) with ordinality as n (name, ord)
     returning id`,
    [names],
  );
  const ids = rows.map((row) => row.id);
  // The trigger stamps profiles with now(); give them the accounts' distinct times so the order is known.
  await stack.db.query(
    `update public.profiles p set created_at = u.created_at from auth.users u where u.id = p.id and p.id = any($1::uuid[])`,
    [ids],
  );
  return ids;
}

async function searchUsers(search: string | undefined, limit = 20, offset = 0) {
  const { data, error } = await admin.rpc('admin_list_users', { _search: search, _limit: limit, _offset: offset });
  if (error) throw new Error(`admin_list_users failed: ${error.message}`);
  return data;
}

beforeAll(async () => {
  stack = await startStack();
  admin = await signedIn('admin@storewise.local', 'storewise-admin');
  owner = await signedIn('owner1@storewise.local', 'storewise-owner');
  anon = createClient<Database>(stack.apiUrl, stack.anonKey, options);
  service = createClient<Database>(stack.apiUrl, stack.serviceRoleKey, options);
});

afterAll(async () => {
  await stack?.stop();
});

describe('admin_overview', () => {
  it('equals the figures computed from the tables for the seed', async () => {
    const figures = await figuresFromTables();
    expect(figures.total_profiles).toBeGreaterThan(0);
    expect(await overview()).toEqual(figures);
  });

  it('stays right through single-row writes over HTTP (ticket, plan upsert, auto-renew)', async () => {
    const { data: me } = await owner.auth.getUser();
    const ownerId = me.user?.id ?? '';
    const ticket = await owner
      .from('support_tickets')
      .insert({ user_id: ownerId, subject: 'Totals check', message: 'Counting open tickets', status: 'open', priority: 'medium' });
    expect(ticket.error).toBeNull();
    await expectOverviewMatchesTables();

    // choose_plan is INSERT ... ON CONFLICT DO UPDATE: a first choice inserts, a switch during the trial takes the
    // update path's transition tables (a paid plan changes through the payment provider, issue 24).
    const trialOwner = await signedIn('owner3@storewise.local', 'storewise-owner');
    expect((await trialOwner.rpc('choose_plan', { _plan_name: 'Pro' })).error).toBeNull();
    await expectOverviewMatchesTables();
    const plan = await trialOwner.rpc('choose_plan', { _plan_name: 'Growth' });
    expect(plan.error).toBeNull();
    const off = await owner.from('user_plans').update({ auto_renew: false }).eq('user_id', ownerId);
    expect(off.error).toBeNull();
    await expectOverviewMatchesTables();
    const on = await owner.from('user_plans').update({ auto_renew: true }).eq('user_id', ownerId);
    expect(on.error).toBeNull();
    await expectOverviewMatchesTables();
  });

  it('stays right through bulk inserts, updates and deletes', async () => {
    const before = await overview();
    const ids = await createUsers(Array.from({ length: 40 }, (_, n) => `Bulk Totals ${n}`));
    await stack.db.query(
      `insert into public.user_plans (user_id, plan_name, price, auto_renew)
       select id, 'Growth', 29.99, (row_number() over (order by id)) % 3 <> 0 from unnest($1::uuid[]) as id`,
      [ids],
    );
    await stack.db.query(
      `insert into public.billing_history (user_id, amount, status)
       select id, 10.01 * g, 'paid' from unnest($1::uuid[]) as id cross join generate_series(1, 5) as g`,
      [ids],
    );
    await stack.db.query(
      `insert into public.support_tickets (user_id, subject, message, status)
       select id, 'Bulk', 'Bulk ticket', case when g % 2 = 0 then 'open' else 'resolved' end
         from unnest($1::uuid[]) as id cross join generate_series(1, 2) as g`,
      [ids],
    );
    const afterInserts = await overview();
    expect(afterInserts.total_profiles).toBe(before.total_profiles + 40);
    expect(afterInserts.open_tickets).toBe(before.open_tickets + 40);
    await expectOverviewMatchesTables();

    await stack.db.query(`update public.billing_history set amount = amount + 0.5 where user_id = any($1::uuid[])`, [ids]);
    await stack.db.query(`update public.user_plans set auto_renew = not auto_renew where user_id = any($1::uuid[])`, [ids]);
    await stack.db.query(
      `update public.support_tickets set status = case status when 'open' then 'closed' else 'open' end
        where user_id = any($1::uuid[])`,
      [ids],
    );
    // A profile update that touches no total must leave them alone.
    await stack.db.query(`update public.profiles set phone = '+1 555 000 0000' where id = any($1::uuid[])`, [ids]);
    await expectOverviewMatchesTables();

    await stack.db.query(`delete from public.billing_history where user_id = any($1::uuid[]) and amount > 30`, [ids]);
    await stack.db.query(`delete from public.support_tickets where user_id = any($1::uuid[]) and status = 'open'`, [ids]);
    await expectOverviewMatchesTables();

    // Deleting the accounts cascades to profiles, plans, billing and tickets.
    await stack.db.query(`delete from auth.users where id = any($1::uuid[])`, [ids]);
    expect(await overview()).toEqual(before);
    await expectOverviewMatchesTables();
  });

  it('stays right for users created and deleted through the auth admin API', async () => {
    const before = await overview();
    const created = await service.auth.admin.createUser({
      email: `admin-api-${Date.now()}@example.test`,
      password: 'a-long-test-password',
      email_confirm: true,
      user_metadata: { full_name: 'Api Created' },
    });
    expect(created.error).toBeNull();
    expect((await overview()).total_profiles).toBe(before.total_profiles + 1);
    const deleted = await service.auth.admin.deleteUser(created.data.user?.id ?? '');
    expect(deleted.error).toBeNull();
    expect(await overview()).toEqual(before);
  });

  it('is recomputed after a truncate and by refresh_admin_totals', async () => {
    await stack.db.transaction(async (tx) => {
      await tx.query('update private.admin_totals set profiles = profiles + 1000, revenue = revenue + 1');
      await tx.query('select private.refresh_admin_totals()');
    });
    await expectOverviewMatchesTables();
    // Truncate inside a rolled-back transaction: the totals follow, then return with the rollback.
    const inside = await stack.db
      .transaction(async (tx) => {
        // cascade: ticket replies and their notifications reference tickets (all rolled back below).
        await tx.query('truncate public.support_tickets cascade');
        const { rows } = await tx.query<{ open_tickets: number }>('select open_tickets from private.admin_totals');
        throw Object.assign(new Error('rollback'), { rows });
      })
      .catch((error: { rows?: { open_tickets: number }[] }) => error.rows);
    expect(inside).toEqual([{ open_tickets: 0 }]);
    await expectOverviewMatchesTables();
  });
});

describe('admin_list_users', () => {
  it('lists profiles newest first with the summary total when there is no search', async () => {
    const rows = await searchUsers(undefined, 100);
    const figures = await figuresFromTables();
    expect(rows.length).toBe(Math.min(100, figures.total_profiles));
    expect(rows.every((row) => row.total_count === figures.total_profiles)).toBe(true);
    const times = rows.map((row) => Date.parse(row.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('finds a user by a middle fragment of the name in any case', async () => {
    await createUsers(['Zebediah Quartermaine']);
    for (const fragment of ['RTERMA', 'rterma', 'bediah quart']) {
      const rows = await searchUsers(fragment);
      expect(rows.map((row) => row.full_name)).toEqual(['Zebediah Quartermaine']);
      expect(rows[0]?.total_count).toBe(1);
    }
    expect(await searchUsers('quartermainez')).toEqual([]);
    // Two letters take the path without the trigram index: still case-insensitive, total still exact.
    const short = await searchUsers('zE', 100);
    expect(short.map((row) => row.full_name)).toContain('Zebediah Quartermaine');
    expect(short.every((row) => row.full_name?.toLowerCase().includes('ze'))).toBe(true);
    expect(short.every((row) => row.total_count === short.length)).toBe(true);
  });

  it('treats % and _ in the search as text, not wildcards', async () => {
    await createUsers(['Wildcard 100% Organic', 'Wildcard 100 Percent', 'Snake_case Grocer', 'Snakeycase Grocer']);
    expect((await searchUsers('100%')).map((row) => row.full_name)).toEqual(['Wildcard 100% Organic']);
    expect((await searchUsers('e_c')).map((row) => row.full_name)).toEqual(['Snake_case Grocer']);
    expect((await searchUsers('%')).map((row) => row.full_name)).toEqual(['Wildcard 100% Organic']);
    expect((await searchUsers('\\')).length).toBe(0);
  });

  it('pages a search with a stable total and no overlap', async () => {
    const names = Array.from({ length: 25 }, (_, n) => `Pagetest Merchant ${String(n).padStart(2, '0')}`);
    await createUsers(names);
    const pages = [await searchUsers('PAGETEST', 10, 0), await searchUsers('pagetest', 10, 10), await searchUsers('pagetest', 10, 20)];
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(pages.flat().every((row) => row.total_count === 25)).toBe(true);
    // createUsers gives the first name the newest created_at.
    expect(pages.flat().map((row) => row.full_name)).toEqual(names);
    expect(await searchUsers('pagetest', 10, 30)).toEqual([]);
  });

  it('pages the whole list in the same order from either end (the far half walks the index backwards)', async () => {
    await createUsers(Array.from({ length: 30 }, (_, n) => `Order Check ${n}`));
    const { rows: expected } = await stack.db.query<{ id: string }>(
      'select id from public.profiles order by created_at desc, id',
    );
    const pageSize = 7;
    const seen: string[] = [];
    for (let offset = 0; offset < expected.length + pageSize; offset += pageSize) {
      const page = await searchUsers(undefined, pageSize, offset);
      expect(page.length).toBe(Math.max(0, Math.min(pageSize, expected.length - offset)));
      seen.push(...page.map((row) => row.id));
    }
    expect(seen).toEqual(expected.map((row) => row.id));

    const { data: plans } = await admin.rpc('admin_list_plans', { _limit: 100 });
    const { data: lastPlans } = await admin.rpc('admin_list_plans', { _limit: 2, _offset: (plans?.length ?? 0) - 2 });
    expect(lastPlans?.map((row) => row.id)).toEqual(plans?.slice(-2).map((row) => row.id));
  });

  it('caps the page size to 1..100 and rejects over-long searches', async () => {
    expect((await searchUsers(undefined, 1000)).length).toBeLessThanOrEqual(100);
    expect((await searchUsers(undefined, 0)).length).toBe(1);
    expect((await searchUsers(undefined, -5)).length).toBe(1);
    const { error, status } = await admin.rpc('admin_list_users', { _search: 'x'.repeat(101) });
    expect(status).toBe(400);
    expect(error?.code).toBe('22023');
  });
});

describe('admin_list_plans', () => {
  it('lists plans newest first with the owner name and the plan total', async () => {
    const { data, error } = await admin.rpc('admin_list_plans', { _limit: 100 });
    expect(error).toBeNull();
    const rows = data ?? [];
    const { rows: expected } = await stack.db.query<{ id: string; full_name: string | null; total: number }>(
      `select up.id, p.full_name, count(*) over ()::int as total
         from public.user_plans up left join public.profiles p on p.id = up.user_id
        order by up.created_at desc, up.id limit 100`,
    );
    expect(rows.map((row) => [row.id, row.owner_name])).toEqual(expected.map((row) => [row.id, row.full_name]));
    expect(rows.every((row) => row.total_count === expected[0]?.total)).toBe(true);
    expect(rows.map((row) => row.owner_name)).toContain('Olivia Grocer');
  });
});

describe('permissions', () => {
  const calls = {
    admin_overview: (client: Client) => client.rpc('admin_overview'),
    admin_list_users: (client: Client) => client.rpc('admin_list_users', { _search: 'a' }),
    admin_list_plans: (client: Client) => client.rpc('admin_list_plans', {}),
  };

  for (const [name, call] of Object.entries(calls)) {
    it(`${name}: an owner gets 403 and anon gets 401`, async () => {
      const asOwner = await call(owner);
      expect(asOwner.status).toBe(403);
      expect(asOwner.error?.code).toBe('42501');
      expect(asOwner.data).toBeNull();
      const asAnon = await call(anon);
      expect(asAnon.status).toBe(401);
      expect(asAnon.error?.code).toBe('42501');
      expect(asAnon.data).toBeNull();
    });
  }

  it('the summary table and the refresh function are out of reach of the API, even for the admin', async () => {
    const { data } = await admin.auth.getSession();
    const headers = { apikey: stack.anonKey, authorization: `Bearer ${data.session?.access_token ?? ''}` };
    const refresh = await fetch(`${stack.apiUrl}/rest/v1/rpc/refresh_admin_totals`, { method: 'POST', headers, body: '{}' });
    expect(refresh.ok).toBe(false);
    const table = await fetch(`${stack.apiUrl}/rest/v1/admin_totals?select=*`, {
      headers: { ...headers, 'accept-profile': 'private' },
    });
    expect(table.ok).toBe(false);
  });
});
