/*
 * Issue 11, admin Activity Logs (admin_platform_events in 20261122150000_workspace_more.sql, ADR 0107): sign-ups,
 * plan changes and suspensions, newest first, keyset-paged with one extra row; admins only, over HTTP.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

const password = 'Events-pass-1234';
let stack: StackHandle;
let admin: SupabaseClient;
let owner: SupabaseClient;
let service: SupabaseClient;

interface Event { event_id: string; kind: string; at: string; subject: string; detail: string }

async function signedIn(email: string, metadata: Record<string, unknown>): Promise<{ client: SupabaseClient; id: string }> {
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: metadata });
  if (created.error) throw new Error(created.error.message);
  const client = createTestClient(stack);
  const signed = await client.auth.signInWithPassword({ email, password });
  if (signed.error) throw new Error(signed.error.message);
  return { client, id: created.data.user.id };
}

beforeAll(async () => {
  stack = await startStack({ seed: false });
  service = createTestClient(stack, 'service');
  const a = await signedIn('root@events.test', { full_name: 'Ada Admin', invited: true });
  await stack.db.query(`insert into private.user_roles (user_id, role) values ($1, 'admin')`, [a.id]);
  admin = a.client;
  const o = await signedIn('shop@events.test', { full_name: 'Sam Shop', business_name: 'Sam Goods' });
  owner = o.client;
  expect((await service.from('user_plans').insert({ user_id: o.id, plan_name: 'Starter', price: 9.99, status: 'trialing' })).error).toBeNull();
  expect((await service.from('user_plans').update({ plan_name: 'Pro', status: 'active' }).eq('user_id', o.id)).error).toBeNull();
  const { data: business } = await owner.from('businesses').select('id').single();
  const suspended = await admin.rpc('admin_set_business_suspension', { _business_id: (business as { id: string }).id,
    _suspended: true, _reason: 'Unpaid invoices' });
  expect(suspended.error).toBeNull();
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('admin_platform_events', () => {
  it('lists sign-ups, plan changes and suspensions newest first', async () => {
    const { data, error } = await admin.rpc('admin_platform_events', {});
    expect(error).toBeNull();
    const events = data as Event[];
    expect(events.map((e) => `${e.kind}: ${e.subject}: ${e.detail}`)).toEqual([
      'suspension: Sam Goods: Suspended: Unpaid invoices',
      'plan: Sam Shop: Starter (trialing) -> Pro (active)',
      'plan: Sam Shop: Starter (trialing)',
      'signup: Sam Shop: Sam Goods',
      'signup: Ada Admin: ',
    ]);
    const plans = await admin.rpc('admin_platform_events', { _kind: 'plan' });
    expect((plans.data as Event[]).map((e) => e.kind)).toEqual(['plan', 'plan']);
  }, 120_000);

  it('pages by keyset with one extra row, and the pages do not overlap', async () => {
    const first = (await admin.rpc('admin_platform_events', { _limit: 2 })).data as Event[];
    expect(first).toHaveLength(3); // two shown, one more means "there is a next page"
    const last = first[1]!;
    const second = (await admin.rpc('admin_platform_events', { _limit: 2, _before_at: last.at, _before_id: last.event_id })).data as Event[];
    expect(second.map((e) => e.event_id)).toEqual([first[2]!.event_id, expect.any(String), expect.any(String)]);
    expect(second.some((e) => first.slice(0, 2).some((f) => f.event_id === e.event_id))).toBe(false);
    const third = (await admin.rpc('admin_platform_events', { _limit: 2, _before_at: second[1]!.at, _before_id: second[1]!.event_id })).data as Event[];
    expect(third).toHaveLength(1);
  }, 120_000);

  it('refuses everyone but admins, and bad input with 4xx codes', async () => {
    expect((await owner.rpc('admin_platform_events', {})).error?.code).toBe('42501');
    expect((await createTestClient(stack).rpc('admin_platform_events', {})).error?.code).toBe('42501');
    expect((await admin.rpc('admin_platform_events', { _kind: 'nope' })).error?.code).toBe('22023');
    expect((await admin.rpc('admin_platform_events', { _before_at: new Date().toISOString() })).error?.code).toBe('22023');
  }, 120_000);
});
