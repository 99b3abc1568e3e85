/**
 * The workspace's permission table (docs/permissions.md), cell by cell over HTTP with supabase-js: every
 * workspace table x verb x (anon, owner, manager, cashier, member of another business, removed member, admin),
 * then plan limits at the boundary and under concurrency, invitations, removal and suspension.
 *
 * Business A is owner1's Fresh Corner Market (Growth: 3 stores, 2 seeded). The manager (all stores), the
 * cashier (only the Downtown store) and the removed member join it through real invitations.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import type { Actor, ApiResult } from './support/actors';
import { httpActor } from './support/http-actors';
import { seedUsers } from './support/seed-ids';

const downtown = '5a000000-0000-4000-8000-000000000001';
const riverside = '5a000000-0000-4000-8000-000000000002';
const password = 'workspace-matrix-pw';

const tables = ['businesses', 'business_members', 'member_store_access', 'stores', 'registers', 'invitations',
  'activity'] as const;
type Table = (typeof tables)[number];
const who = ['anon', 'owner', 'manager', 'cashier', 'other', 'removed', 'admin'] as const;
type Who = (typeof who)[number];

let stack: StackHandle;
let businessA: string;
const actors = {} as Record<Who, Actor>;
const clients = {} as Record<Who, SupabaseClient>;
const userIds = {} as Record<Who, string>;

async function signIn(email: string, pw: string): Promise<{ client: SupabaseClient; id: string }> {
  const client = createTestClient(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password: pw });
  if (error || !data.user) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
  return { client, id: data.user.id };
}

/** Creates a confirmed account that joined through an invitation (no business of its own). */
async function createInvitee(email: string): Promise<void> {
  const { error } = await createTestClient(stack, 'service').auth.admin.createUser({
    email, password, email_confirm: true, user_metadata: { full_name: `Member ${email.split('@')[0]}`, invited: true },
  });
  if (error) throw new Error(error.message);
}

async function invite(email: string, role: string, allStores: boolean, storeIds: string[]): Promise<string> {
  const { data, error } = await clients.owner.rpc('create_invitation', {
    _business_id: businessA, _email: email, _role: role, _all_stores: allStores, _store_ids: storeIds,
  });
  if (error) throw new Error(error.message);
  return (data as { token: string }[])[0]?.token ?? '';
}

async function join(name: Who, email: string, role: string, allStores: boolean, storeIds: string[]): Promise<void> {
  await createInvitee(email);
  const token = await invite(email, role, allStores, storeIds);
  const { client, id } = await signIn(email, password);
  const { error } = await client.rpc('accept_invitation', { _token: token });
  if (error) throw new Error(error.message);
  clients[name] = client;
  userIds[name] = id;
  actors[name] = httpActor(name, client, id);
}

async function dbRows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await stack.db.query<T>(sql, params)).rows;
}

/** A stable key per row (tables without an id use their composite key). */
function keyOf(table: Table, row: Record<string, unknown>): string {
  if (table === 'business_members') return `${String(row.business_id)}/${String(row.user_id)}`;
  if (table === 'member_store_access') return `${String(row.user_id)}/${String(row.store_id)}`;
  return String(row.id);
}

const keys = (table: Table, rows: Record<string, unknown>[]) => rows.map((row) => keyOf(table, row)).sort();

/** Business A's rows of a table as the database owner sees them. */
async function rowsOfA(table: Table): Promise<Record<string, unknown>[]> {
  const column = table === 'businesses' ? 'id' : 'business_id';
  return dbRows(`select to_jsonb(t) as r from public.${table} t where ${column} = $1`, [businessA])
    .then((rows) => rows.map((row) => (row as { r: Record<string, unknown> }).r));
}

function expectRefused(result: ApiResult | { error: { code: string } | null }, code = '42501'): void {
  expect(result.error, 'expected the database to refuse').not.toBeNull();
  expect(result.error?.code).toBe(code);
}

beforeAll(async () => {
  stack = await startStack();
  const owner = await signIn(seedUsers.owner1.email, seedUsers.owner1.password);
  const other = await signIn(seedUsers.owner2.email, seedUsers.owner2.password);
  const admin = await signIn(seedUsers.admin.email, seedUsers.admin.password);
  Object.assign(clients, { owner: owner.client, other: other.client, admin: admin.client, anon: createTestClient(stack) });
  Object.assign(userIds, { owner: owner.id, other: other.id, admin: admin.id });
  actors.anon = httpActor('anon', clients.anon, null);
  actors.owner = httpActor('owner', owner.client, owner.id);
  actors.other = httpActor('other', other.client, other.id);
  actors.admin = httpActor('admin', admin.client, admin.id);
  [{ id: businessA = '' } = { id: '' }] = await dbRows<{ id: string }>(
    'select id from public.businesses where owner_id = $1', [seedUsers.owner1.id]);

  await join('manager', 'manager@matrix.storewise.test', 'manager', true, []);
  await join('cashier', 'cashier@matrix.storewise.test', 'cashier', false, [downtown]);
  await join('removed', 'removed@matrix.storewise.test', 'cashier', true, []);
  const { error } = await clients.owner.rpc('remove_member', { _business_id: businessA, _user_id: userIds.removed });
  if (error) throw new Error(error.message);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

/**
 * The whole trail a caller may read, page by page: the seeded catalog's trail (products, variants, prices, costs)
 * is longer than one response's max_rows.
 */
async function readAllActivity(name: Who): Promise<ApiResult> {
  const rows: Record<string, unknown>[] = [];
  for (let from = 0; ; from += 1000) {
    const { data, error } = await clients[name].from('activity').select('*').order('id').range(from, from + 999);
    if (error) return { rows: [], error: { code: error.code, message: error.message } };
    rows.push(...(data as Record<string, unknown>[]));
    if ((data ?? []).length < 1000) return { rows, error: null };
  }
}

/** What each caller reads of business A, per table (as keys of rows). */
async function expectedReadOfA(table: Table, actor: Who): Promise<string[]> {
  const all = await rowsOfA(table);
  const mine = (rows: Record<string, unknown>[]) => rows.filter((row) => row.user_id === userIds[actor]);
  switch (actor) {
    case 'owner':
      return keys(table, all);
    case 'manager':
      // Invitations, and the trail's invitation entries (email and role), are the owner's (docs/permissions.md).
      if (table === 'activity') return keys(table, all.filter((row) => row.entity_type !== 'invitation'));
      return keys(table, table === 'invitations' ? [] : all);
    case 'cashier':
      if (table === 'businesses') return keys(table, all);
      if (table === 'business_members' || table === 'member_store_access') return keys(table, mine(all));
      if (table === 'stores') return keys(table, all.filter((row) => row.id === downtown));
      if (table === 'registers') return keys(table, all.filter((row) => row.store_id === downtown));
      return [];
    default:
      return [];
  }
}

describe.each(tables)('%s', (table) => {
  it('anon is refused', async () => {
    expectRefused(await actors.anon.select(table));
  });

  it.each(who.filter((name) => name !== 'anon'))('%s reads exactly its share of business A', async (name) => {
    const result = table === 'activity' ? await readAllActivity(name) : await actors[name].select(table);
    expect(result.error).toBeNull();
    const ofA = result.rows.filter((row) => (table === 'businesses' ? row.id : row.business_id) === businessA);
    expect(keys(table, ofA)).toEqual(await expectedReadOfA(table, name));
  });

  it.each(who)('%s cannot delete business A\'s rows', async (name) => {
    const before = await rowsOfA(table);
    expect(before.length).toBeGreaterThan(0);
    const match = table === 'businesses' ? { id: businessA } : { business_id: businessA };
    // No select after the delete: two of these tables have no id column to return.
    expectRefused(await clients[name].from(table).delete().match(match));
    expect(await rowsOfA(table)).toEqual(before);
  });
});

describe('inserts', () => {
  const rows: Record<Exclude<Table, 'stores' | 'registers'>, () => Record<string, unknown>> = {
    businesses: () => ({ name: 'Forged Business', owner_id: userIds.owner }),
    business_members: () => ({ business_id: businessA, user_id: userIds.other, role: 'manager' }),
    member_store_access: () => ({ business_id: businessA, user_id: userIds.cashier, store_id: riverside }),
    invitations: () => ({ business_id: businessA, email: 'forged@matrix.storewise.test', role: 'manager' }),
    activity: () => ({ business_id: businessA, kind: 'store.created', entity_type: 'store' }),
  };

  it.each(Object.keys(rows).flatMap((table) => who.map((name) => [table, name] as const)))(
    '%s: %s cannot insert (only functions and triggers write it)', async (table, name) => {
      const before = await rowsOfA(table as Table);
      expectRefused(await actors[name].insert(table, rows[table as keyof typeof rows]()));
      expect(await rowsOfA(table as Table)).toEqual(before);
    });

  it.each(['manager', 'cashier', 'other', 'removed', 'admin'] as const)('%s cannot create a store in business A',
    async (name) => {
      const before = await rowsOfA('stores');
      expectRefused(await actors[name].insert('stores', { business_id: businessA, name: `Store by ${name}` }));
      expect(await rowsOfA('stores')).toEqual(before);
    });

  it('anon cannot create a store', async () => {
    expectRefused(await actors.anon.insert('stores', { business_id: businessA, name: 'Anon store' }));
  });

  it.each(['owner', 'manager'] as const)('%s adds a register to a store it may use', async (name) => {
    const prefix = name === 'owner' ? 'OWN1' : 'MGR1';
    const result = await actors[name].insert('registers',
      { business_id: businessA, store_id: riverside, name: `${name} till`, receipt_prefix: prefix });
    expect(result.error).toBeNull();
    expect(result.rows[0]).toMatchObject({ store_id: riverside, receipt_prefix: prefix });
  });

  it.each(['cashier', 'other', 'removed', 'admin'] as const)('%s cannot add a register', async (name) => {
    const before = await rowsOfA('registers');
    expectRefused(await actors[name].insert('registers',
      { business_id: businessA, store_id: downtown, name: 'Forged till', receipt_prefix: 'FRG1' }));
    expect(await rowsOfA('registers')).toEqual(before);
  });

  it('a register cannot be planted in another business\'s store', async () => {
    const [{ id: storeB = '' } = { id: '' }] = await dbRows<{ id: string }>(
      `select id from public.stores where business_id <> $1 limit 1`, [businessA]);
    const result = await actors.owner.insert('registers',
      { business_id: businessA, store_id: storeB, name: 'Cross till', receipt_prefix: 'X1' });
    expect(result.error).not.toBeNull();
    expect(await dbRows('select 1 from public.registers where store_id = $1 and receipt_prefix = $2', [storeB, 'X1']))
      .toEqual([]);
  });
});

describe('updates', () => {
  it('the owner renames the business; nobody else changes it', async () => {
    const result = await actors.owner.update('businesses', { name: 'Fresh Corner Market Co' }, { id: businessA });
    expect(result.error).toBeNull();
    expect(result.rows).toHaveLength(1);
    for (const name of ['manager', 'cashier', 'other', 'removed', 'admin'] as const) {
      const attempt = await actors[name].update('businesses', { name: `Renamed by ${name}` }, { id: businessA });
      expect(attempt.rows, name).toEqual([]);
    }
    expectRefused(await actors.anon.update('businesses', { name: 'Anon' }, { id: businessA }));
    expect((await rowsOfA('businesses'))[0]?.name).toBe('Fresh Corner Market Co');
  });

  it.each([
    ['owner_id', seedUsers.owner2.id], ['suspended_at', '2020-01-01T00:00:00Z'], ['suspended_reason', 'self'],
  ])('the owner cannot set businesses.%s', async (column, value) => {
    const before = await rowsOfA('businesses');
    expectRefused(await actors.owner.update('businesses', { [column]: value }, { id: businessA }));
    expect(await rowsOfA('businesses')).toEqual(before);
  });

  it.each(['owner', 'manager'] as const)('%s edits a store\'s settings', async (name) => {
    const result = await actors[name].update('stores', { receipt_footer: `Footer by ${name}` }, { id: downtown });
    expect(result.error).toBeNull();
    expect(result.rows).toHaveLength(1);
  });

  it.each(['cashier', 'other', 'removed', 'admin'] as const)('%s changes no store', async (name) => {
    const before = await rowsOfA('stores');
    const result = await actors[name].update('stores', { name: 'Hijacked' }, { id: downtown });
    expect(result.rows).toEqual([]);
    expect(await rowsOfA('stores')).toEqual(before);
  });

  it('a manager cannot archive a store; the owner can, and restore it', async () => {
    expectRefused(await actors.manager.update('stores', { archived_at: new Date().toISOString() }, { id: riverside }));
    expect((await actors.owner.update('stores', { archived_at: new Date().toISOString() }, { id: riverside })).error)
      .toBeNull();
    expect((await actors.owner.update('stores', { archived_at: null }, { id: riverside })).error).toBeNull();
    const kinds = await dbRows<{ kind: string }>(
      `select kind from public.activity where entity_id = $1 order by id`, [riverside]);
    expect(kinds.map((row) => row.kind)).toEqual(expect.arrayContaining(['store.archived', 'store.restored']));
  });

  it.each(who)('%s cannot rewrite the activity trail', async (name) => {
    const [entry] = await rowsOfA('activity');
    const result = await actors[name].update('activity', { kind: 'forged' }, { id: String(entry?.id) });
    expectRefused(result);
  });

  it('not even the service role or the database owner rewrites or deletes activity', async () => {
    const service = httpActor('service', createTestClient(stack, 'service'), null);
    const [entry] = await rowsOfA('activity');
    expectRefused(await service.update('activity', { kind: 'forged' }, { id: String(entry?.id) }));
    expectRefused(await service.remove('activity', { id: String(entry?.id) }));
    await expect(stack.db.query('delete from public.activity where id = $1', [entry?.id])).rejects.toThrow(/append-only/);
    expect((await rowsOfA('activity')).some((row) => row.id === entry?.id)).toBe(true);
  });
});

describe('team functions', () => {
  it.each(['manager', 'cashier', 'other', 'removed', 'admin'] as const)('%s cannot invite, change roles or remove',
    async (name) => {
      const client = clients[name];
      expectRefused(await client.rpc('create_invitation',
        { _business_id: businessA, _email: 'x@matrix.storewise.test', _role: 'cashier' }));
      expectRefused(await client.rpc('set_member_role',
        { _business_id: businessA, _user_id: userIds.cashier, _role: 'manager' }));
      expectRefused(await client.rpc('remove_member', { _business_id: businessA, _user_id: userIds.cashier }));
    });

  it('managers read the team with names and emails; cashiers cannot', async () => {
    const { data, error } = await clients.manager.rpc('business_team', { _business_id: businessA });
    expect(error).toBeNull();
    const team = data as { email: string; role: string; store_ids: string[] }[];
    // The seed's demo staff of Fresh Corner Market are on the team too (supabase/seed.sql, ADR 0350).
    const demoStaff: string[] = [seedUsers.manager1.email, seedUsers.cashier1.email];
    expect(team.filter((m) => demoStaff.includes(m.email)).map((m) => m.role).sort()).toEqual(['cashier', 'manager']);
    expect(team.filter((m) => !demoStaff.includes(m.email)).map((m) => m.role)).toEqual(['owner', 'cashier', 'manager']);
    expect(team.find((m) => m.role === 'cashier' && !demoStaff.includes(m.email))).toMatchObject({ email: 'cashier@matrix.storewise.test',
      store_ids: [downtown] });
    expectRefused(await clients.cashier.rpc('business_team', { _business_id: businessA }));
  });

  it('the owner cannot be removed or demoted', async () => {
    expectRefused(await clients.owner.rpc('remove_member', { _business_id: businessA, _user_id: userIds.owner }));
    expectRefused(await clients.owner.rpc('set_member_role',
      { _business_id: businessA, _user_id: userIds.owner, _role: 'cashier' }));
  });

  it('the removed member\'s open session reads nothing of business A any more', async () => {
    for (const table of ['businesses', 'stores', 'registers'] as const) {
      const result = await actors.removed.select(table);
      expect(result.rows.filter((row) => (table === 'businesses' ? row.id : row.business_id) === businessA)).toEqual([]);
    }
    const kinds = await dbRows<{ kind: string }>(
      `select kind from public.activity where business_id = $1 and entity_id = $2 order by id`, [businessA, userIds.removed]);
    expect(kinds.map((row) => row.kind)).toEqual(['member.added', 'member.removed']);
  });

  it('narrowing the cashier to no store hides every store at once, and widening restores them', async () => {
    expect((await clients.owner.rpc('set_member_role', { _business_id: businessA, _user_id: userIds.cashier,
      _role: 'cashier', _all_stores: false, _store_ids: [] })).error).toBeNull();
    expect((await actors.cashier.select('stores')).rows).toEqual([]);
    expect((await clients.owner.rpc('set_member_role', { _business_id: businessA, _user_id: userIds.cashier,
      _role: 'cashier', _all_stores: false, _store_ids: [downtown] })).error).toBeNull();
    expect((await actors.cashier.select('stores')).rows.map((row) => row.id)).toEqual([downtown]);
  });
});

describe('invitations', () => {
  it('works once, for the invited address only, and not after revoke or expiry', async () => {
    await createInvitee('invitee@matrix.storewise.test');
    const token = await invite('invitee@matrix.storewise.test', 'cashier', true, []);
    // Another signed-in account cannot use it.
    expectRefused(await clients.other.rpc('accept_invitation', { _token: token }));
    const invitee = await signIn('invitee@matrix.storewise.test', password);
    const preview = await invitee.client.rpc('invitation_preview', { _token: token });
    expect(preview.data).toEqual([expect.objectContaining({ role: 'cashier', status: 'pending' })]);
    expect((await invitee.client.rpc('accept_invitation', { _token: token })).data).toBe(businessA);
    expectRefused(await invitee.client.rpc('accept_invitation', { _token: token }), '22023');

    const revokedToken = await invite('late@matrix.storewise.test', 'cashier', true, []);
    await createInvitee('late@matrix.storewise.test');
    const [{ id: invitationId = '' } = { id: '' }] = await dbRows<{ id: string }>(
      `select id from public.invitations where email = 'late@matrix.storewise.test'`);
    expect((await clients.owner.rpc('revoke_invitation', { _invitation_id: invitationId })).error).toBeNull();
    const late = await signIn('late@matrix.storewise.test', password);
    expectRefused(await late.client.rpc('accept_invitation', { _token: revokedToken }), '22023');

    const expiredToken = await invite('late@matrix.storewise.test', 'cashier', true, []);
    await stack.db.query(`update public.invitations set expires_at = now() - interval '1 minute'
                           where email = 'late@matrix.storewise.test' and revoked_at is null`);
    const expired = await late.client.rpc('accept_invitation', { _token: expiredToken });
    expectRefused(expired, '22023');
    expect(expired.error?.message).toContain('expired');
    expectRefused(await late.client.rpc('accept_invitation', { _token: 'not-a-token' }), 'PT404');
    expect(await dbRows('select 1 from public.business_members where user_id = $1', [late.id])).toEqual([]);
  });

  it('expires seven days after it is sent and keeps no token in clear', async () => {
    const token = await invite('week@matrix.storewise.test', 'manager', true, []);
    const rows = await dbRows<{ days: number; stored: number }>(
      `select round(extract(epoch from i.expires_at - i.created_at) / 86400)::int as days,
              (select count(*)::int from private.invitation_tokens t where t.token_hash = $1) as stored
         from public.invitations i where i.email = 'week@matrix.storewise.test'`, [token]);
    expect(rows).toEqual([{ days: 7, stored: 0 }]);
  });
});

describe('plan limits', () => {
  const addStore = (client: SupabaseClient, business: string, name: string) =>
    client.from('stores').insert({ business_id: business, name }).select('id');

  it('Growth allows a third store and refuses the fourth with SW001', async () => {
    const third = await addStore(clients.owner, businessA, 'Fresh Corner Uptown');
    expect(third.error).toBeNull();
    const fourth = await addStore(clients.owner, businessA, 'Fresh Corner Harbour');
    expectRefused(fourth, 'SW001');
    expect(fourth.error?.message).toBe('Your Growth plan allows 3 stores.');
    expect(fourth.error?.hint).toContain('upgrade');
    const [{ n = 0 } = {}] = await dbRows<{ n: number }>(
      'select count(*)::int as n from public.stores where business_id = $1 and archived_at is null', [businessA]);
    expect(n).toBe(3);
  });

  it('two tabs creating the last store at once: exactly one succeeds', async () => {
    const [{ id: third = '' } = { id: '' }] = await dbRows<{ id: string }>(
      `select id from public.stores where business_id = $1 and name = 'Fresh Corner Uptown'`, [businessA]);
    expect((await clients.owner.from('stores').update({ archived_at: new Date().toISOString() }).eq('id', third)).error)
      .toBeNull();
    const secondTab = (await signIn(seedUsers.owner1.email, seedUsers.owner1.password)).client;
    const results = await Promise.all([0, 1, 2, 3].map((i) =>
      addStore(i % 2 ? secondTab : clients.owner, businessA, `Race store ${i}`)));
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    expect(results.filter((r) => r.error?.code === 'SW001')).toHaveLength(3);
    const [{ n = 0 } = {}] = await dbRows<{ n: number }>(
      'select count(*)::int as n from public.stores where business_id = $1 and archived_at is null', [businessA]);
    expect(n).toBe(3);
    // Restoring the archived store would pass the limit too.
    expectRefused(await clients.owner.from('stores').update({ archived_at: null }).eq('id', third).select('id'), 'SW001');
  });

  it('Free (no plan): one store and the owner alone', async () => {
    const owner3 = await signIn(seedUsers.owner3.email, seedUsers.owner3.password);
    const [{ id: businessC = '' } = { id: '' }] = await dbRows<{ id: string }>(
      'select id from public.businesses where owner_id = $1', [seedUsers.owner3.id]);
    expect((await addStore(owner3.client, businessC, 'CarePlus Main')).error).toBeNull();
    const second = await addStore(owner3.client, businessC, 'CarePlus Second');
    expectRefused(second, 'SW001');
    expect(second.error?.message).toContain('Your Free plan allows 1 store.');
    const invitation = await owner3.client.rpc('create_invitation',
      { _business_id: businessC, _email: 'helper@matrix.storewise.test', _role: 'cashier' });
    expectRefused(invitation, 'SW001');
    const { data } = await owner3.client.rpc('my_workspaces');
    expect(data).toEqual([expect.objectContaining({ id: businessC, role: 'owner', plan: 'Free', max_stores: 1,
      max_products: 25, max_members: 1, stores_used: 1, members_used: 1 })]);
  });

  it('a downgrade deletes nothing and blocks creation until under the limit', async () => {
    await stack.db.query(`update public.user_plans set plan_name = 'Starter' where user_id = $1`, [seedUsers.owner1.id]);
    const refused = await addStore(clients.owner, businessA, 'After downgrade');
    expectRefused(refused, 'SW001');
    expect(refused.error?.message).toContain('Your Starter plan allows 1 store.');
    const [{ n = 0 } = {}] = await dbRows<{ n: number }>(
      'select count(*)::int as n from public.stores where business_id = $1 and archived_at is null', [businessA]);
    expect(n).toBe(3);
    await stack.db.query(`update public.user_plans set plan_name = 'Growth' where user_id = $1`, [seedUsers.owner1.id]);
  });
});

describe('suspension', () => {
  it('only admins suspend; members lose access, the owner sees why; lifting it restores access', async () => {
    expectRefused(await clients.owner.rpc('admin_set_business_suspension',
      { _business_id: businessA, _suspended: true, _reason: 'self' }));
    expect((await clients.admin.rpc('admin_set_business_suspension',
      { _business_id: businessA, _suspended: true, _reason: 'Unpaid invoice' })).error).toBeNull();

    expect((await actors.manager.select('stores')).rows).toEqual([]);
    expect((await actors.manager.select('businesses')).rows.filter((row) => row.id === businessA)).toEqual([]);
    expect((await actors.owner.select('stores')).rows.filter((row) => row.business_id === businessA)).toEqual([]);
    const ownerView = (await actors.owner.select('businesses')).rows.find((row) => row.id === businessA);
    expect(ownerView).toMatchObject({ suspended_reason: 'Unpaid invoice' });
    expect((await actors.manager.update('stores', { name: 'While suspended' }, { id: downtown })).rows).toEqual([]);
    const workspaces = (await clients.owner.rpc('my_workspaces')).data as { id: string; suspended_reason: string }[];
    expect(workspaces.find((b) => b.id === businessA)?.suspended_reason).toBe('Unpaid invoice');
    expect(((await clients.manager.rpc('my_workspaces')).data as unknown[])).toEqual([]);

    expect((await clients.admin.rpc('admin_set_business_suspension',
      { _business_id: businessA, _suspended: false })).error).toBeNull();
    expect((await actors.manager.select('stores')).rows.length).toBeGreaterThan(0);
    const kinds = await dbRows<{ kind: string; actor_id: string }>(
      `select kind, actor_id from public.activity where business_id = $1 and entity_type = 'business' order by id`,
      [businessA]);
    expect(kinds.filter((row) => row.kind !== 'business.updated')).toEqual([
      { kind: 'business.suspended', actor_id: userIds.admin },
      { kind: 'business.unsuspended', actor_id: userIds.admin },
    ]);
  });

  it('admins list businesses with owner, plan, stores and members; others are refused', async () => {
    const { data, error } = await clients.admin.rpc('admin_list_businesses', { _search: 'fresh corner', _limit: 10 });
    expect(error).toBeNull();
    expect(data).toEqual([expect.objectContaining({ id: businessA, owner_email: seedUsers.owner1.email,
      plan: 'Growth', stores: 3, members: 6, total_count: 1 })]); // 4 of this world's and the seed's demo manager and cashier
    expectRefused(await clients.owner.rpc('admin_list_businesses', {}));
    expectRefused(await clients.anon.rpc('admin_list_businesses', {}));
  });

  it('admins see the plan in force: an owner\'s trial past its end reads Free, expired', async () => {
    const [before] = await dbRows<{ status: string; next_billing_date: string | null }>(
      `select status, next_billing_date::text from public.user_plans where user_id = $1`, [userIds.owner]);
    await dbRows(`update public.user_plans set status = 'trialing', next_billing_date = now() - interval '1 day'
                   where user_id = $1`, [userIds.owner]);
    try {
      const { data, error } = await clients.admin.rpc('admin_list_businesses', { _search: 'fresh corner', _limit: 10 });
      expect(error).toBeNull();
      expect(data).toEqual([expect.objectContaining({ id: businessA, plan: 'Free', plan_status: 'expired' })]);
    } finally {
      await dbRows(`update public.user_plans set status = $2, next_billing_date = $3 where user_id = $1`,
        [userIds.owner, before?.status, before?.next_billing_date]);
    }
  });
});

describe('ownership transfer', () => {
  const owners = () => dbRows<{ user_id: string; owner_id: string }>(
    `select m.user_id, b.owner_id from public.business_members m join public.businesses b on b.id = m.business_id
      where m.business_id = $1 and m.role = 'owner'`, [businessA]);

  it('only the owner hands over, only to a member; there is always exactly one owner', async () => {
    expectRefused(await clients.manager.rpc('transfer_ownership', { _business_id: businessA, _new_owner: userIds.manager }));
    expectRefused(await clients.owner.rpc('transfer_ownership', { _business_id: businessA, _new_owner: userIds.other }),
      '22023');
    expect(await owners()).toEqual([{ user_id: userIds.owner, owner_id: userIds.owner }]);

    expect((await clients.owner.rpc('transfer_ownership', { _business_id: businessA, _new_owner: userIds.manager })).error)
      .toBeNull();
    expect(await owners()).toEqual([{ user_id: userIds.manager, owner_id: userIds.manager }]);
    // The former owner stays as a manager and can no longer manage the team.
    expectRefused(await clients.owner.rpc('remove_member', { _business_id: businessA, _user_id: userIds.cashier }));
    const kinds = await dbRows<{ kind: string }>(
      `select kind from public.activity where business_id = $1 and kind = 'member.role_changed'`, [businessA]);
    expect(kinds.length).toBeGreaterThanOrEqual(2);

    expect((await clients.manager.rpc('transfer_ownership', { _business_id: businessA, _new_owner: userIds.owner })).error)
      .toBeNull();
    expect(await owners()).toEqual([{ user_id: userIds.owner, owner_id: userIds.owner }]);
  });
});
