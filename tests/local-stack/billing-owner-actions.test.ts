/**
 * What an owner does with billing, and what nobody else may: two tabs checking out at once make one customer,
 * one checkout and one subscription; an upgrade changes that subscription with a prorated invoice, a downgrade
 * keeps the paid plan until the period ends; auto-renew is cancel-at-period-end; the only card of a live
 * subscription cannot be removed; bad input gets a sentence; another business's billing can be neither read,
 * written nor driven through the functions; an older state never overwrites a newer one.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, cards, DAY, invoke, localStripe, onTestClock, payCheckout, portalAddCard, signedIn } from '../helpers/billing';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';

let stack: StackHandle;
let stripe: Stripe;
let owner: SupabaseClient;
let other: SupabaseClient;
let business = '';
let customer = '';
let clock = '';
let sessionId = '';

beforeAll(async () => {
  stack = await startStack();
  stripe = localStripe(stack.stack);
  owner = createTestClient(stack);
  other = createTestClient(stack);
  await signedIn(owner, seedUsers.owner3.email, seedUsers.owner3.password);
  await signedIn(other, seedUsers.owner1.email, seedUsers.owner1.password);
  business = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [seedUsers.owner3.id])).rows[0]?.id ?? '';
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const limits = async () => (await stack.db.query<{ plan: string }>('select plan from private.plan_limits($1)', [business])).rows[0]?.plan;
const providerSubs = () => Object.values(stack.stack.payments?.state.subscriptions ?? {}).filter((s) => s.customer === customer);

describe('billing as the owner', () => {
  it('two tabs checking out at once: one customer, one checkout, one subscription', async () => {
    const [a, b] = await Promise.all([
      invoke<{ url: string }>(owner, 'billing-checkout', { plan: 'Starter' }),
      invoke<{ url: string }>(owner, 'billing-checkout', { plan: 'Starter' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.url).toBe(b.body.url);
    const customers = Object.values(stack.stack.payments?.state.customers ?? {}).filter((c) => c.metadata.business_id === business);
    expect(customers).toHaveLength(1);
    customer = customers[0]?.id ?? '';
    clock = (await onTestClock(stripe, customer)).id;
    const paid = await payCheckout(a.body.url, cards.ok);
    sessionId = new URL(paid.location ?? '').searchParams.get('session_id') ?? '';
    expect((await payCheckout(b.body.url, cards.ok)).status).toBe(402);
    await stack.stack.payments?.idle();
    expect(providerSubs()).toHaveLength(1);
    const { count } = await owner.from('billing_subscriptions').select('id', { count: 'exact', head: true });
    expect(count).toBe(1);
    // A checkout for the plan already held is refused with a sentence.
    const again = await invoke(owner, 'billing-checkout', { plan: 'Starter' });
    expect(again).toEqual({ status: 409, body: { error: 'You are already on the Starter plan.' } });
  });

  it('upgrades the same subscription with a prorated invoice; a downgrade waits for the period end', async () => {
    await advance(stack.stack, stripe, clock, 8 * DAY);
    expect(await limits()).toBe('Starter');
    // The chooser's "due now" comes from the provider before anything changes.
    const preview = await invoke<{ kind: string; amount_due_cents: number }>(owner, 'billing-checkout', { plan: 'Pro', preview: true });
    expect(preview.body.kind).toBe('preview');
    expect(providerSubs()[0]?.items.data[0]?.price.lookup_key).toBe('storewise_starter_annual');
    const up = await invoke<{ kind: string }>(owner, 'billing-checkout', { plan: 'Pro' });
    expect(up.body.kind).toBe('upgraded');
    await stack.stack.payments?.idle();
    expect(providerSubs()).toHaveLength(1);
    expect(await limits()).toBe('Pro');
    const { data: prorated } = await owner.from('billing_history').select('amount, status, description')
      .like('description', '%prorated%');
    expect(prorated).toHaveLength(1);
    expect(prorated?.[0]?.status).toBe('paid');
    // (99.99 - 9.99) x 12 for the 358 of 365 days left: 1059.43, give or take the clock's seconds.
    expect(prorated?.[0]?.amount).toBeGreaterThan(1050);
    expect(prorated?.[0]?.amount).toBeLessThan(1080);
    // The test clock stood still between preview and change: the charge is exactly what was shown.
    expect(Math.round(Number(prorated?.[0]?.amount) * 100)).toBe(preview.body.amount_due_cents);

    const down = await invoke<{ kind: string; effective_at: string }>(owner, 'billing-checkout', { plan: 'Growth' });
    expect(down.body.kind).toBe('downgrade_scheduled');
    await stack.stack.payments?.idle();
    expect(await limits()).toBe('Pro');
    const { data: card } = await owner.from('user_plans').select('plan_name, price').single();
    expect(card).toEqual({ plan_name: 'Growth', price: 29.99 });
    await advance(stack.stack, stripe, clock, 366 * DAY);
    expect(await limits()).toBe('Growth');
    expect(providerSubs()).toHaveLength(1);
  });

  it('auto-renew is cancel at period end at the provider, and back', async () => {
    const off = await invoke(owner, 'billing-portal', { action: 'auto_renew', auto_renew: false });
    expect(off).toEqual({ status: 200, body: { auto_renew: false } });
    expect(providerSubs()[0]?.cancel_at_period_end).toBe(true);
    expect((await owner.from('user_plans').select('auto_renew').single()).data).toEqual({ auto_renew: false });
    const on = await invoke(owner, 'billing-portal', { action: 'auto_renew', auto_renew: true });
    expect(on.body).toEqual({ auto_renew: true });
    expect(providerSubs()[0]?.cancel_at_period_end).toBe(false);
  });

  it('keeps the only card of a live subscription; removes one when another is on file', async () => {
    const { data: only } = await owner.from('payment_methods').select('provider_payment_method_id');
    const first = only?.[0]?.provider_payment_method_id ?? '';
    const refused = await invoke(owner, 'billing-portal', { action: 'remove_method', payment_method_id: first });
    expect(refused).toEqual({ status: 409, body: { error: 'This is the only payment method of your subscription. Add another before removing it.' } });
    const portal = await invoke<{ url: string }>(owner, 'billing-portal', { action: 'portal' });
    expect(await portalAddCard(portal.body.url, cards.mastercard)).toBe(303);
    const removed = await invoke(owner, 'billing-portal', { action: 'remove_method', payment_method_id: first });
    expect(removed.status).toBe(200);
    const { data: left } = await owner.from('payment_methods').select('type, last_four, is_default');
    expect(left).toEqual([{ type: 'mastercard', last_four: '4444', is_default: true }]);
  });

  it('bad input gets a 4xx with a sentence', async () => {
    const enterprise = await invoke(owner, 'billing-checkout', { plan: 'Enterprise' });
    expect(enterprise.status).toBe(400);
    expect(enterprise.body.error).toContain('Enterprise is sold by our sales team');
    const raw = await fetch(`${stack.apiUrl}/functions/v1/billing-checkout`, {
      method: 'POST', body: '{not json', headers: { Authorization: `Bearer ${stack.anonKey}`, 'Content-Type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: 'The request body is not valid JSON.' });
    const anon = await invoke(createTestClient(stack), 'billing-checkout', { plan: 'Pro' });
    expect(anon).toEqual({ status: 401, body: { error: 'Sign in again to manage billing.' } });
    const noJwt = await fetch(`${stack.apiUrl}/functions/v1/billing-portal`, { method: 'POST', body: '{}' });
    expect(noJwt.status).toBe(401);
    const badSession = await invoke(owner, 'billing-reconcile', { session_id: 'not-a-session' });
    expect(badSession.status).toBe(400);
  });
});

describe('another business', () => {
  it('cannot drive, read or write this business\'s billing', async () => {
    const checkout = await invoke(other, 'billing-checkout', { plan: 'Pro', business_id: business });
    expect(checkout).toEqual({ status: 403, body: { error: 'Only the owner of this business can manage its billing.' } });
    const reconcile = await invoke(other, 'billing-reconcile', { session_id: sessionId });
    expect(reconcile.status).toBe(404);
    expect((await other.from('billing_subscriptions').select('id').eq('business_id', business)).data).toEqual([]);
    expect((await other.from('billing_customers').select('business_id').eq('business_id', business)).data).toEqual([]);
    const write = await owner.from('billing_subscriptions').update({ status: 'active', plan: 'Pro' }).eq('business_id', business).select();
    expect(write.error?.code).toBe('42501');
    const insert = await owner.from('billing_customers').insert({ business_id: business });
    expect(insert.error?.code).toBe('42501');
    const rpc = await owner.rpc('billing_apply_subscription', { _sub: {}, _synced_at: new Date().toISOString() });
    expect(rpc.error).not.toBeNull();
    const anon = await createTestClient(stack).from('billing_subscriptions').select('id');
    expect(anon.error?.code).toBe('42501');
  });

  it('an older state never overwrites a newer one', async () => {
    const service = createTestClient(stack, 'service');
    const before = (await stack.db.query('select plan, status, synced_at from public.billing_subscriptions')).rows;
    const sub = providerSubs()[0];
    const stale = await service.rpc('billing_apply_subscription', {
      _sub: { id: sub?.id, customer, plan: 'Starter', status: 'canceled', created: new Date().toISOString() },
      _synced_at: '2020-01-01T00:00:00Z',
    });
    expect(stale).toMatchObject({ data: false, error: null });
    expect((await stack.db.query('select plan, status, synced_at from public.billing_subscriptions')).rows).toEqual(before);
  });
});

describe('admin collections', () => {
  it('counts the trial, its conversion and what was collected from the provider\'s invoices; owners are refused', async () => {
    const admin = createTestClient(stack);
    await signedIn(admin, seedUsers.admin.email, seedUsers.admin.password);
    const { data, error } = await admin.rpc('admin_billing_collections', { _days: 30 });
    expect(error).toBeNull();
    const paid = (await stack.db.query<{ total: number }>(
      `select sum(amount)::float8 as total from public.billing_history where provider_invoice_id is not null and status = 'paid'`)).rows[0]?.total;
    expect(data).toMatchObject({ days: 30, trials_started: 1, trials_converted: 1, past_due: 0, failed_payments: 0, refunds: 0,
      webhook_failures: 0, collected: paid });
    const refused = await owner.rpc('admin_billing_collections', { _days: 30 });
    expect(refused.error?.code).toBe('42501');
  });
});

describe('admin refund', () => {
  it('refunds a paid invoice through the provider once, shows it refunded and writes the audit line; owners cannot', async () => {
    const admin = createTestClient(stack);
    await signedIn(admin, seedUsers.admin.email, seedUsers.admin.password);
    const { data: paid } = await admin.from('billing_history').select('provider_invoice_id, amount')
      .eq('business_id', business).eq('status', 'paid').gt('amount', 0).order('date').limit(1).single();
    const invoice = paid?.provider_invoice_id ?? '';
    const byOwner = await invoke(owner, 'billing-refund', { invoice_id: invoice, reason: 'I want my money' });
    expect(byOwner).toEqual({ status: 403, body: { error: 'Only administrators can refund invoices.' } });
    const noReason = await invoke(admin, 'billing-refund', { invoice_id: invoice, reason: '' });
    expect(noReason.status).toBe(400);
    // billing_admin_invoice raises PT404 for an invoice it does not know: the function's not found (ADR 0331).
    const unknown = await invoke(admin, 'billing-refund', { invoice_id: 'in_unknown', reason: 'Charged twice by mistake' });
    expect(unknown).toEqual({ status: 404, body: { error: 'That invoice was not found.' } });

    const refunded = await invoke<{ refunded_cents: number }>(admin, 'billing-refund', { invoice_id: invoice, reason: 'Charged twice by mistake' });
    expect(refunded).toEqual({ status: 200, body: { refunded_cents: Math.round(Number(paid?.amount) * 100) } });
    await stack.stack.payments?.idle();
    const { data: row } = await owner.from('billing_history').select('status').eq('provider_invoice_id', invoice).single();
    expect(row).toEqual({ status: 'refunded' });
    const trail = (await stack.db.query<{ actor_id: string; reason: string }>(
      `select actor_id, after ->> 'reason' as reason from public.activity where kind = 'billing.invoice_refunded'`)).rows;
    expect(trail).toEqual([{ actor_id: seedUsers.admin.id, reason: 'Charged twice by mistake' }]);
    const again = await invoke(admin, 'billing-refund', { invoice_id: invoice, reason: 'Charged twice by mistake' });
    expect(again).toEqual({ status: 409, body: { error: 'This invoice is already refunded.' } });
    const { data: figures } = await admin.rpc('admin_billing_collections', { _days: 30 });
    expect(figures).toMatchObject({ refunds: 1, refunded_amount: Number(paid?.amount) });
  });
});

describe('the provider down', () => {
  it('says so with a 503 and a sentence, and takes nothing away', async () => {
    const before = await limits();
    stack.stack.payments?.setOutage(true);
    try {
      const portal = await invoke(owner, 'billing-portal', { action: 'portal' });
      expect(portal.status).toBe(503);
      expect(portal.body.error).toBe('The payment provider cannot be reached right now. Nothing was changed; try again in a minute.');
      const change = await invoke(owner, 'billing-checkout', { plan: 'Starter' });
      expect(change.status).toBe(503);
    } finally {
      stack.stack.payments?.setOutage(false);
    }
    expect(await limits()).toBe(before);
    expect((await owner.from('billing_subscriptions').select('status').single()).data).toEqual({ status: 'active' });
  });
});

describe('the trial rule without a provider subscription', () => {
  it('a plan chosen before billing: a trial past its end counts as Free, an active plan keeps its limits', async () => {
    const planOf = async (owner: string) => (await stack.db.query<{ plan: string }>(
      'select l.plan from public.businesses b cross join lateral private.plan_limits(b.id) l where b.owner_id = $1', [owner])).rows[0]?.plan;
    expect(await planOf(seedUsers.owner2.id)).toBe('Starter');
    await stack.db.query(`update public.user_plans set next_billing_date = now() - interval '1 minute' where user_id = $1`, [seedUsers.owner2.id]);
    expect(await planOf(seedUsers.owner2.id)).toBe('Free');
    expect(await planOf(seedUsers.owner1.id)).toBe('Growth');
  });
});
