/*
 * Issue 11, the bell's workspace items (supabase/migrations/20261122150000_workspace_more.sql, ADR 0106): the
 * owner is notified when an invitation is accepted, an account when its plan changes, and a trial ending within
 * 3 days is computed by my_trial_notice(). Over HTTP with supabase-js, as the dashboard reads them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

const password = 'Member-pass-1234';
let stack: StackHandle;
let admin: SupabaseClient;
const ids: Record<string, string> = {};
const clients: Record<string, SupabaseClient> = {};

async function account(name: string, metadata: Record<string, unknown>): Promise<void> {
  const created = await admin.auth.admin.createUser({ email: `${name}@bell.test`, password, email_confirm: true, user_metadata: metadata });
  if (created.error) throw new Error(created.error.message);
  ids[name] = created.data.user.id;
  const client = createTestClient(stack);
  const signed = await client.auth.signInWithPassword({ email: `${name}@bell.test`, password });
  if (signed.error) throw new Error(signed.error.message);
  clients[name] = client;
}

const kinds = async (who: string) =>
  ((await clients[who]!.from('notifications').select('kind, title, link')).data ?? []) as { kind: string; title: string; link: string }[];

beforeAll(async () => {
  stack = await startStack({ seed: false });
  admin = createTestClient(stack, 'service');
  await account('owner', { full_name: 'Bea Bell', business_name: 'Bell Hardware' });
  await account('cashier', { full_name: 'Cal Cashier', invited: true });
  const plan = await admin.from('user_plans').insert({ user_id: ids.owner, plan_name: 'Starter', price: 9.99, status: 'trialing',
    next_billing_date: new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString() });
  if (plan.error) throw new Error(plan.error.message);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('workspace notifications', () => {
  it('the owner is told when an invitation is accepted; the invitee is not, and nobody else reads it', async () => {
    const { data: business } = await clients.owner!.from('businesses').select('id').single();
    const invited = await clients.owner!.rpc('create_invitation', { _business_id: (business as { id: string }).id,
      _email: 'cashier@bell.test', _role: 'cashier', _all_stores: true, _store_ids: [] });
    expect(invited.error).toBeNull();
    expect(await kinds('owner')).toEqual([]);
    const token = (invited.data as { token: string }[])[0]?.token ?? '';
    expect((await clients.cashier!.rpc('accept_invitation', { _token: token })).error).toBeNull();
    expect(await kinds('owner')).toEqual([
      { kind: 'invitation.accepted', title: 'cashier@bell.test joined Bell Hardware', link: '/dashboard/business/team' },
    ]);
    expect(await kinds('cashier')).toEqual([]);
    // The API roles cannot write one themselves (functions and triggers only).
    const forged = await clients.cashier!.from('notifications').insert({ user_id: ids.cashier, kind: 'x', title: 'x' });
    expect(forged.error?.code).toBe('42501');
  }, 120_000);

  it('a plan change notifies the account; an auto-renew switch does not', async () => {
    expect((await clients.owner!.from('user_plans').update({ auto_renew: false }).eq('user_id', ids.owner)).error).toBeNull();
    expect((await kinds('owner')).filter((n) => n.kind === 'plan.changed')).toEqual([]);
    expect((await admin.from('user_plans').update({ plan_name: 'Growth' }).eq('user_id', ids.owner)).error).toBeNull();
    const changed = (await kinds('owner')).filter((n) => n.kind === 'plan.changed');
    expect(changed).toEqual([{ kind: 'plan.changed', title: 'Your plan changed from Starter to Growth', link: '/dashboard/billing' }]);
    // Marking it read is the one change a user may make.
    const read = await clients.owner!.from('notifications').update({ read_at: new Date().toISOString() }).eq('kind', 'plan.changed').select('id');
    expect(read.data).toHaveLength(1);
  }, 120_000);

  it('a trial ending within 3 days is computed for its own account only, and anon cannot ask', async () => {
    const notice = await clients.owner!.rpc('my_trial_notice');
    expect(notice.error).toBeNull();
    expect(notice.data).toMatchObject([{ plan_name: 'Growth', days_left: 3 }]);
    expect((await clients.cashier!.rpc('my_trial_notice')).data).toEqual([]);
    const anon = await createTestClient(stack).rpc('my_trial_notice');
    expect(anon.error?.code).toBe('42501');
    expect((await admin.from('user_plans').update({ next_billing_date: new Date(Date.now() + 10 * 86_400_000).toISOString() })
      .eq('user_id', ids.owner)).error).toBeNull();
    expect((await clients.owner!.rpc('my_trial_notice')).data).toEqual([]);
  }, 120_000);
});
