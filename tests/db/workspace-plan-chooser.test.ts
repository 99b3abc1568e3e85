/*
 * Issue 11, the plan chooser's and the transfer screen's functions (20261123100100_workspace_plan_chooser.sql,
 * ADR 0108), over HTTP with supabase-js as the dashboard calls them: plan_catalog shows the limits the database
 * enforces, my_plan_usage counts what an owner uses, a downgrade deletes nothing but blocks creation, and
 * transfer_ownership_confirmed wants the business name typed back and writes its line to the trail.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

const password = 'Chooser-pass-1234';
let stack: StackHandle;
let admin: SupabaseClient;
const ids: Record<string, string> = {};
const clients: Record<string, SupabaseClient> = {};
let businessId = '';

async function account(name: string, metadata: Record<string, unknown>): Promise<void> {
  const email = `${name}@chooser.test`;
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: metadata });
  if (created.error) throw new Error(created.error.message);
  ids[name] = created.data.user.id;
  const client = createTestClient(stack);
  const signed = await client.auth.signInWithPassword({ email, password });
  if (signed.error) throw new Error(signed.error.message);
  clients[name] = client;
}

beforeAll(async () => {
  stack = await startStack({ seed: false });
  admin = createTestClient(stack, 'service');
  await account('owner', { full_name: 'Olga Owner', business_name: 'Chooser Books' });
  await account('manager', { full_name: 'Max Manager', invited: true });
  const { data, error } = await admin.from('businesses').select('id').eq('owner_id', ids.owner).single();
  if (error) throw new Error(error.message);
  businessId = (data as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('plan chooser functions', () => {
  it('plan_catalog lists every plan with the price and limits; anon cannot ask', async () => {
    const { data, error } = await clients.owner!.rpc('plan_catalog');
    expect(error).toBeNull();
    expect(data).toEqual([
      { plan: 'Free', price: 0, max_stores: 1, max_products: 25, max_members: 1, self_service: false },
      { plan: 'Starter', price: 9.99, max_stores: 1, max_products: 100, max_members: null, self_service: true },
      { plan: 'Growth', price: 29.99, max_stores: 3, max_products: 300, max_members: null, self_service: true },
      { plan: 'Pro', price: 99.99, max_stores: 10, max_products: null, max_members: null, self_service: true },
      { plan: 'Enterprise', price: null, max_stores: null, max_products: null, max_members: null, self_service: false },
    ]);
    expect((await createTestClient(stack).rpc('plan_catalog')).error?.code).toBe('42501');
  });

  it('choosing Growth from Free starts its trial at the catalog price, and the limits follow', async () => {
    const chosen = await clients.owner!.rpc('choose_plan', { _plan_name: 'Growth' });
    expect(chosen.error).toBeNull();
    expect(chosen.data).toMatchObject({ plan_name: 'Growth', price: 29.99, status: 'trialing' });
    const { data } = await clients.owner!.rpc('my_workspaces');
    expect(data).toEqual([expect.objectContaining({ plan: 'Growth', max_stores: 3, max_products: 300 })]);
  });

  it('my_plan_usage counts the owner\'s stores, products and members; a downgrade deletes nothing and blocks creation', async () => {
    for (const name of ['North', 'South']) {
      expect((await clients.owner!.from('stores').insert({ business_id: businessId, name })).error).toBeNull();
    }
    const usage = await clients.owner!.rpc('my_plan_usage');
    expect(usage.data).toEqual([{ business_id: businessId, business_name: 'Chooser Books', stores_used: 2,
      products_used: 0, members_used: 1 }]);
    expect((await clients.manager!.rpc('my_plan_usage')).data).toEqual([]);

    expect((await clients.owner!.rpc('choose_plan', { _plan_name: 'Starter' })).error).toBeNull();
    const stores = await clients.owner!.from('stores').select('id').eq('business_id', businessId);
    expect(stores.data).toHaveLength(2);
    const refused = await clients.owner!.from('stores').insert({ business_id: businessId, name: 'East' });
    expect(refused.error?.code).toBe('SW001');
    expect(refused.error?.message).toContain('Your Starter plan allows 1 store.');
    expect((await clients.owner!.rpc('choose_plan', { _plan_name: 'Growth' })).error).toBeNull();
  });
});

describe('ownership transfer with the name typed back', () => {
  it('refuses a wrong name and a non-owner, then hands over and records one trail line', async () => {
    const invited = await clients.owner!.rpc('create_invitation', { _business_id: businessId,
      _email: 'manager@chooser.test', _role: 'manager', _all_stores: true, _store_ids: [] });
    expect(invited.error).toBeNull();
    const token = (invited.data as { token: string }[])[0]?.token ?? '';
    expect((await clients.manager!.rpc('accept_invitation', { _token: token })).error).toBeNull();

    const wrong = await clients.owner!.rpc('transfer_ownership_confirmed',
      { _business_id: businessId, _new_owner: ids.manager, _confirm_name: 'Chooser Book' });
    expect(wrong.error?.code).toBe('22023');
    const stolen = await clients.manager!.rpc('transfer_ownership_confirmed',
      { _business_id: businessId, _new_owner: ids.manager, _confirm_name: 'Chooser Books' });
    expect(stolen.error?.code).toBe('42501');
    expect((await createTestClient(stack).rpc('transfer_ownership_confirmed',
      { _business_id: businessId, _new_owner: ids.manager, _confirm_name: 'Chooser Books' })).error?.code).toBe('42501');

    const done = await clients.owner!.rpc('transfer_ownership_confirmed',
      { _business_id: businessId, _new_owner: ids.manager, _confirm_name: '  chooser books ' });
    expect(done.error).toBeNull();
    const business = await admin.from('businesses').select('owner_id').eq('id', businessId).single();
    expect(business.data).toEqual({ owner_id: ids.manager });
    const trail = await clients.manager!.from('activity').select('kind, actor_id, before, after')
      .eq('business_id', businessId).eq('kind', 'business.ownership_transferred');
    expect(trail.data).toEqual([{ kind: 'business.ownership_transferred', actor_id: ids.owner,
      before: { owner_id: ids.owner }, after: { owner_id: ids.manager, owner_label: 'Max Manager' } }]);
  });
});
