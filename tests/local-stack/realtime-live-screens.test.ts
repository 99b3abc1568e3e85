/**
 * The live screens' Realtime parts over HTTP and websockets with the official supabase-js client (issue 28), on the
 * catalog world (owner1's business with a manager and a Downtown cashier; owner2 of another business; the admin):
 * - a register reports its outbox (report_register_outbox) and owners and managers of the store receive it live;
 *   a cashier and a member of another business receive nothing, with filters or without;
 * - a cashier receives their own sales without any cost or profit column;
 * - admins tail the trail's platform entries (suspensions), nothing else of a business;
 * - a revoked session and a removed member lose their channels at once, not at token expiry;
 * - commit_timestamp is the commit's time, not the transaction's start.
 * "Receives nothing" is asserted with a sentinel the subscriber may see, committed after the forbidden change.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from '../db/support/catalog-world';
import { createTestClient } from '../helpers/stack';
import { received, watch, type Watch } from './realtime-helpers';

let w: CatalogWorld;
let registerDowntown = '';
let registerRiverside = '';

beforeAll(async () => {
  w = await startCatalogWorld();
  const register = async (store: string, prefix: string) => (await w.rows<{ id: string }>(
    `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
    [w.businessA, store, `Live ${prefix}`, prefix]))[0]!.id;
  registerDowntown = await register(downtown, 'LV1');
  registerRiverside = await register(riverside, 'LV2');
}, 300_000);

afterAll(async () => {
  for (const client of Object.values(w?.clients ?? {})) await client.removeAllChannels();
  await w?.stack.stop();
});

/** A support ticket of `who`'s own: a change they may see, as a sentinel. */
async function sentinel(who: 'other' | 'owner' | 'cashier' | 'manager', subject: string): Promise<void> {
  const { error } = await w.clients[who].from('support_tickets').insert({ user_id: w.userIds[who], subject, message: 'sentinel' });
  expect(error).toBeNull();
}

const sawSentinel = (watchOf: Watch, subject: string) => received(watchOf, (c) => c.table === 'support_tickets' && c.new.subject === subject);

/**
 * Moves stock and waits until the owner has received that change: the server sends a change to every subscriber
 * in one pass, so a channel that should have had it would have it by then (plus a moment for its own socket).
 */
async function moveAndSettle(store: string): Promise<void> {
  const owner = await watch(w.clients.owner, [{ event: 'UPDATE', schema: 'public', table: 'stock_balances', filter: `store_id=eq.${store}` }]);
  await w.rows(`select private.apply_movement($1, $2, $3, null, 'adjust', 1, 'correction')`, [w.businessA, store, w.f.variant]);
  await received(owner, (c) => c.new.store_id === store);
  await owner.stop();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

async function signedIn(email: string, password: string): Promise<{ client: SupabaseClient; token: string; user: string }> {
  const client = createTestClient(w.stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(error?.message ?? 'no session');
  return { client, token: data.session.access_token, user: data.user.id };
}

describe('registers waiting to sync', () => {
  it('owners and managers of the store receive a register\'s outbox report; a cashier and another business receive nothing', async () => {
    const owner = await watch(w.clients.owner, [{ event: '*', schema: 'public', table: 'register_sync_states', filter: `business_id=eq.${w.businessA}` }]);
    const manager = await watch(w.clients.manager, [{ event: '*', schema: 'public', table: 'register_sync_states' }]);
    const cashier = await watch(w.clients.cashier, [
      { event: '*', schema: 'public', table: 'register_sync_states' },
      { event: '*', schema: 'public', table: 'support_tickets' },
    ]);
    const attacker = await watch(w.clients.other, [
      { event: '*', schema: 'public' },
      { event: '*', schema: 'public', table: 'register_sync_states', filter: `business_id=eq.${w.businessA}` },
      { event: '*', schema: 'public', table: 'register_sync_states', filter: `register_id=eq.${registerDowntown}` },
      { event: '*', schema: 'public', table: 'refunds', filter: `business_id=eq.${w.businessA}` },
    ]);

    const oldest = new Date(Date.now() - 60_000).toISOString();
    const report = await w.clients.cashier.rpc('report_register_outbox', { _register_id: registerDowntown, _waiting: 3, _oldest_waiting_at: oldest });
    expect(report.error).toBeNull();
    for (const watcher of [owner, manager]) {
      const change = await received(watcher, (c) => c.table === 'register_sync_states' && c.new.register_id === registerDowntown);
      expect(change.new).toMatchObject({ waiting: 3, store_id: downtown, business_id: w.businessA });
      expect(Date.parse(String(change.new.oldest_waiting_at))).toBe(Date.parse(oldest));
    }
    // The count going back to 0 clears the time of the oldest entry.
    expect((await w.clients.cashier.rpc('report_register_outbox', { _register_id: registerDowntown, _waiting: 0 })).error).toBeNull();
    await received(owner, (c) => c.new.register_id === registerDowntown && c.new.waiting === 0 && c.new.oldest_waiting_at === null);

    await sentinel('cashier', 'cashier live sentinel');
    await sentinel('other', 'attacker live sentinel');
    await sawSentinel(cashier, 'cashier live sentinel');
    await sawSentinel(attacker, 'attacker live sentinel');
    expect(cashier.changes.map((c) => c.table)).toEqual(['support_tickets']);
    expect(attacker.changes.map((c) => `${c.table}:${String(c.new.subject ?? '')}`)).toEqual(['support_tickets:attacker live sentinel']);
    for (const watcher of [owner, manager, cashier, attacker]) await watcher.stop();
  });

  it('only members who may use the register\'s store report for it, with a count in range', async () => {
    const outsider = await w.clients.other.rpc('report_register_outbox', { _register_id: registerDowntown, _waiting: 1 });
    expect(outsider.error?.code).toBe('42501');
    // The cashier is listed on Downtown only.
    const otherStore = await w.clients.cashier.rpc('report_register_outbox', { _register_id: registerRiverside, _waiting: 1 });
    expect(otherStore.error?.code).toBe('42501');
    const negative = await w.clients.cashier.rpc('report_register_outbox', { _register_id: registerDowntown, _waiting: -1 });
    expect(negative.error?.code).toBe('22023');
    const unknown = await w.clients.cashier.rpc('report_register_outbox', { _register_id: randomUUID(), _waiting: 1 });
    expect(unknown.error?.code).toBe('42501');
    // Nobody writes the table directly, and a cashier cannot read it.
    const direct = await w.clients.owner.from('register_sync_states').insert({ register_id: registerRiverside, business_id: w.businessA, store_id: riverside, waiting: 5 });
    expect(direct.error).not.toBeNull();
    const read = await w.clients.cashier.from('register_sync_states').select('register_id');
    expect(read.error).toBeNull();
    expect(read.data).toEqual([]);
    const anon = await w.clients.anon.rpc('report_register_outbox', { _register_id: registerDowntown, _waiting: 1 });
    expect(anon.error).not.toBeNull();
  });
});

describe('sales and the admin log', () => {
  it('a cashier receives their own sale without cost or profit columns; the manager receives it too', async () => {
    const shift = await w.clients.cashier.rpc('open_shift', { _register_id: registerDowntown, _opening_float: 0 });
    expect(shift.error).toBeNull();
    const shiftId = (shift.data as { id: string }).id;
    const cashier = await watch(w.clients.cashier, [{ event: 'INSERT', schema: 'public', table: 'sales' }]);
    const manager = await watch(w.clients.manager, [{ event: 'INSERT', schema: 'public', table: 'sales', filter: `store_id=eq.${downtown}` }]);
    const id = randomUUID();
    const post = (amount: number) => w.clients.cashier.rpc('post_sale', { _payload: {
      id, register_id: registerDowntown, shift_id: shiftId, lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1400 }], tenders: [{ kind: 'card', amount }],
    } });
    let sale = await post(1400);
    const total = Number(/the sale totals (\d+)/.exec(sale.error?.message ?? '')?.[1] ?? NaN);
    if (sale.error && Number.isFinite(total)) sale = await post(total);
    expect(sale.error).toBeNull();
    const mine = await received(cashier, (c) => c.new.id === id);
    expect(Object.keys(mine.new).filter((column) => /cost|profit|margin/i.test(column))).toEqual([]);
    expect(mine.new).toMatchObject({ cashier_id: w.userIds.cashier, store_id: downtown });
    await received(manager, (c) => c.new.id === id);
    await cashier.stop();
    await manager.stop();
  });

  it('admins tail the platform entries of the trail (suspensions) and nothing else of a business', async () => {
    const admin = await watch(w.clients.admin, [{ event: 'INSERT', schema: 'public', table: 'activity' }, { event: '*', schema: 'public', table: 'support_tickets' }]);
    const owner2 = await watch(w.clients.other, [{ event: 'INSERT', schema: 'public', table: 'activity' }, { event: '*', schema: 'public', table: 'support_tickets' }]);
    await w.rows(`insert into public.activity (business_id, kind, entity_type, actor_label) values ($1, 'product.updated', 'product', 'test')`, [w.businessA]);
    await w.rows(`insert into public.activity (business_id, kind, entity_type, actor_label, after) values ($1, 'business.suspended', 'business', 'test', '{"suspended_reason":"live test"}')`, [w.businessA]);
    const entry = await received(admin, (c) => c.table === 'activity');
    expect(entry.new).toMatchObject({ kind: 'business.suspended', business_id: w.businessA });
    // Over the data API too: the same rows, and only those kinds.
    const read = await w.clients.admin.from('activity').select('kind').eq('business_id', w.businessA);
    expect(read.error).toBeNull();
    expect(new Set((read.data ?? []).map((row) => row.kind))).toEqual(new Set(['business.suspended']));
    await sentinel('other', 'owner2 admin-log sentinel');
    await w.rows(`insert into public.support_tickets (user_id, subject, message) values ($1, 'admin sentinel', 'x')`, [w.userIds.owner]);
    await received(admin, (c) => c.table === 'support_tickets' && c.new.subject === 'admin sentinel');
    expect(admin.changes.filter((c) => c.table === 'activity').map((c) => c.new.kind)).toEqual(['business.suspended']);
    await sawSentinel(owner2, 'owner2 admin-log sentinel');
    expect(owner2.changes.filter((c) => c.table === 'activity')).toEqual([]);
    await admin.stop();
    await owner2.stop();
  });

  it('commit_timestamp is the commit\'s time, not the transaction\'s start', async () => {
    const owner = await watch(w.clients.owner, [{ event: 'INSERT', schema: 'public', table: 'activity', filter: `kind=eq.realtime.commit` }]);
    await w.stack.db.transaction(async (tx) => {
      await tx.query(`insert into public.activity (business_id, kind, entity_type, actor_label) values ($1, 'realtime.commit', 'test', 'test')`, [w.businessA]);
      await tx.query('select pg_sleep(0.4)');
    });
    const change = await received(owner, (c) => c.new.kind === 'realtime.commit');
    // `at` is now(), the transaction's start; the commit came at least 400 ms later.
    expect(Date.parse(change.commit_timestamp) - Date.parse(String(change.new.at))).toBeGreaterThanOrEqual(350);
    await owner.stop();
  });
});

describe('revoked sessions and removed members', () => {
  it('a revoked session loses its channels at once, and its token no longer joins', async () => {
    const session = await signedIn('manager@catalog.storewise.test', 'catalog-matrix-pw');
    const live = await watch(session.client, [{ event: '*', schema: 'public', table: 'stock_balances' }]);
    const service = createTestClient(w.stack, 'service');
    const { error } = await service.auth.admin.signOut(session.token, 'local');
    expect(error).toBeNull();
    await expect.poll(() => live.system.some((s) => s.status === 'error' && s.message === 'Token has been revoked'), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => live.statuses.includes('CLOSED'), { timeout: 10_000 }).toBe(true);
    // Nothing more arrives on it.
    await moveAndSettle(downtown);
    expect(live.changes).toEqual([]);
    // The same token (still unexpired) cannot join again.
    await expect(watch(session.client, [{ event: '*', schema: 'public', table: 'stock_balances' }])).rejects.toThrow(/revoked/);
    // The other sessions of the same person are untouched.
    const still = await watch(w.clients.manager, [{ event: 'UPDATE', schema: 'public', table: 'stock_balances', filter: `store_id=eq.${downtown}` }]);
    await w.rows(`select private.apply_movement($1, $2, $3, null, 'adjust', 1, 'correction')`, [w.businessA, downtown, w.f.variant]);
    await received(still, (c) => c.new.store_id === downtown);
    await still.stop();
    await session.client.removeAllChannels();
  });

  it('a member removed from the business loses their channels at once', async () => {
    const email = `live-removed-${randomUUID().slice(0, 8)}@catalog.storewise.test`;
    const password = `Pw-${randomUUID()}`;
    const service = createTestClient(w.stack, 'service');
    const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { full_name: 'Removed Member' } });
    expect(created.error).toBeNull();
    const userId = created.data.user!.id;
    await w.rows(`insert into public.business_members (business_id, user_id, role, all_stores) values ($1, $2, 'manager', true)`, [w.businessA, userId]);
    const member = await signedIn(email, password);
    const live = await watch(member.client, [{ event: '*', schema: 'public', table: 'stock_balances', filter: `business_id=eq.${w.businessA}` }]);
    await w.rows(`select private.apply_movement($1, $2, $3, null, 'adjust', 1, 'correction')`, [w.businessA, riverside, w.f.variant]);
    await received(live, (c) => c.new.store_id === riverside);
    const removed = await w.clients.owner.rpc('remove_member', { _business_id: w.businessA, _user_id: userId });
    expect(removed.error).toBeNull();
    await expect.poll(() => live.statuses.includes('CLOSED'), { timeout: 10_000 }).toBe(true);
    const before = live.changes.length;
    await moveAndSettle(riverside);
    expect(live.changes.length).toBe(before);
    // Joining again works (the session is valid) but RLS now shows nothing of the business.
    const again = await watch(member.client, [{ event: '*', schema: 'public', table: 'stock_balances' }, { event: '*', schema: 'public', table: 'support_tickets' }]);
    await w.rows(`select private.apply_movement($1, $2, $3, null, 'adjust', 1, 'correction')`, [w.businessA, riverside, w.f.variant]);
    const { error } = await member.client.from('support_tickets').insert({ user_id: userId, subject: 'removed sentinel', message: 'x' });
    expect(error).toBeNull();
    await sawSentinel(again, 'removed sentinel');
    expect(again.changes.map((c) => c.table)).toEqual(['support_tickets']);
    await member.client.removeAllChannels();
  });
});
