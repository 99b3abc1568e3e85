/**
 * billing-webhook's faults, against the Deno function on the real stack: a wrong, stale or missing signature is
 * a 400 whose log line carries no body; a verified event of a type nobody handles still gets a 2xx and is
 * stored; a replayed event changes nothing; and the events of a whole purchase delivered newest first (an
 * invoice before its checkout, an update before the creation) end in the provider's state.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signPayload } from '../../supabase/local/payments/webhooks';
import { cards, invoke, localStripe, payCheckout, signedIn } from '../helpers/billing';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';

let stack: StackHandle;
let stripe: Stripe;
let owner: SupabaseClient;
let webhookUrl = '';
const logs: string[] = [];

beforeAll(async () => {
  stack = await startStack({ functionLog: (line) => logs.push(line) });
  stripe = localStripe(stack.stack);
  owner = createTestClient(stack);
  await signedIn(owner, seedUsers.owner2.email, seedUsers.owner2.password);
  webhookUrl = `${stack.apiUrl}/functions/v1/billing-webhook`;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const secret = () => stack.stack.payments?.webhookSecret ?? '';
const post = (body: string, signature?: string) => fetch(webhookUrl, {
  method: 'POST', body, headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
});
const snapshot = async () => ({
  subs: (await stack.db.query('select id, plan, status, cancel_at_period_end, synced_at from public.billing_subscriptions order by id')).rows,
  history: (await stack.db.query('select provider_invoice_id, amount::float8 as amount, status from public.billing_history where provider_invoice_id is not null order by 1')).rows,
  plan: (await stack.db.query('select plan_name, status, auto_renew from public.user_plans where user_id = $1', [seedUsers.owner2.id])).rows,
  methods: (await stack.db.query('select provider_payment_method_id, is_default from public.payment_methods where provider_payment_method_id is not null order by 1')).rows,
});

it('refuses a wrong, stale or missing signature with 400 and logs no body', async () => {
  const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'customer.subscription.updated', created: 1,
    data: { object: { id: 'sub_x', email: 'private.person@example.com' } } });
  const wrong = await post(body, signPayload(body, 'whsec_not_the_secret'));
  expect(wrong.status).toBe(400);
  expect(await wrong.json()).toEqual({ error: 'Webhook signature verification failed.' });
  const stale = await post(body, signPayload(body, secret(), Math.floor(Date.now() / 1000) - 600));
  expect(stale.status).toBe(400);
  expect((await post(body)).status).toBe(400);
  // A body changed after signing fails too.
  expect((await post(body.replace('sub_x', 'sub_y'), signPayload(body, secret()))).status).toBe(400);
  expect(logs.filter((line) => line.includes('signature check failed'))).toHaveLength(4);
  expect(logs.join('\n')).not.toContain('private.person@example.com');
  expect(logs.join('\n')).not.toContain(secret());
  const { rows } = await stack.db.query('select id from public.billing_events');
  expect(rows).toEqual([]);
  // The admin's Billing Overview shows them (a rotated secret does not fail silently).
  const admin = createTestClient(stack);
  await signedIn(admin, seedUsers.admin.email, seedUsers.admin.password);
  const { data } = await admin.rpc('admin_billing_collections', { _days: 30 });
  expect(data).toMatchObject({ signature_failures: 4 });
});

it('answers 2xx to a verified event of a type it does not use, and stores it once', async () => {
  const body = JSON.stringify({ id: 'evt_unused_type', object: 'event', type: 'product.created', created: Math.floor(Date.now() / 1000),
    data: { object: { id: 'prod_new', object: 'product' } } });
  const answer = await post(body, signPayload(body, secret()));
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ received: true, handled: false });
  const { rows } = await stack.db.query<{ type: string; processed: boolean }>(
    'select type, processed_at is not null as processed from public.billing_events where id = $1', ['evt_unused_type']);
  expect(rows).toEqual([{ type: 'product.created', processed: true }]);
});

it('an event about an object that does not exist (yet) is acknowledged, not retried forever', async () => {
  for (const [id, type, object] of [
    ['evt_upcoming', 'invoice.upcoming', { object: 'invoice', customer: 'cus_x' }],
    ['evt_gone', 'invoice.deleted', { id: 'in_gone_forever', object: 'invoice' }],
  ] as const) {
    const body = JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
    const answer = await post(body, signPayload(body, secret()));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, handled: false });
  }
});

it('events of a purchase delivered newest first end in the provider\'s state; a replay changes nothing', async () => {
  const payments = stack.stack.payments;
  if (!payments) throw new Error('no local provider');
  const held = payments.endpoints.splice(0);
  const firstEvent = payments.state.events.length;
  const started = await invoke<{ url: string }>(owner, 'billing-checkout', { plan: 'Growth' });
  expect((await payCheckout(started.body.url, cards.ok)).status).toBe(303);
  const customer = Object.values(payments.state.customers).find((c) => c.metadata.business_id)?.id ?? '';
  const sub = Object.values(payments.state.subscriptions).find((s) => s.customer === customer);
  await stripe.subscriptions.update(sub?.id ?? '', { cancel_at_period_end: true });
  const events = payments.state.events.slice(firstEvent);
  expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['checkout.session.completed', 'invoice.paid',
    'customer.subscription.created', 'customer.subscription.updated']));

  for (const event of [...events].reverse()) {
    const body = JSON.stringify(event);
    expect((await post(body, signPayload(body, secret()))).status).toBe(200);
  }
  const after = await snapshot();
  expect(after.subs).toEqual([expect.objectContaining({ id: sub?.id, plan: 'Growth', status: 'active', cancel_at_period_end: true })]);
  expect(after.history).toEqual([expect.objectContaining({ amount: 359.88, status: 'paid' })]);
  expect(after.plan).toEqual([{ plan_name: 'Growth', status: 'active', auto_renew: false }]);
  expect(after.methods).toEqual([expect.objectContaining({ is_default: true })]);

  // The same events again (the provider retrying, or an attacker replaying signed bodies): nothing changes.
  for (const event of events) {
    const body = JSON.stringify(event);
    const answer = await post(body, signPayload(body, secret()));
    expect(await answer.json()).toEqual({ received: true, duplicate: true });
  }
  expect(await snapshot()).toEqual(after);
  payments.endpoints.push(...held);
});
