/**
 * Issue 24's first purchase, end to end on the real stack: owner3 (no plan yet) asks billing-checkout for
 * Starter, pays on the local provider's TEST MODE checkout page with 4242..., comes back, and billing-reconcile
 * makes the plan active at once (trialing, before any webhook is processed). The test clock then moves to the
 * trial's end: the provider invoices and charges the card, its signed webhooks reach billing-webhook under Deno,
 * and billing history shows the paid invoice with its URL while the Starter limits hold.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { advance, cards, DAY, invoke, localStripe, onTestClock, payCheckout, signedIn } from '../helpers/billing';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';

let stack: StackHandle;
let stripe: Stripe;
let owner: SupabaseClient;
let business = '';

beforeAll(async () => {
  stack = await startStack();
  stripe = localStripe(stack.stack);
  owner = createTestClient(stack);
  await signedIn(owner, seedUsers.owner3.email, seedUsers.owner3.password);
  business = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [seedUsers.owner3.id])).rows[0]?.id ?? '';
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const limits = async () => (await stack.db.query<{ plan: string; max_stores: number; max_products: number }>(
  'select plan, max_stores, max_products from private.plan_limits($1)', [business])).rows[0];

it('checkout with a test card, back in Storewise the trial is active at once, and at its end a paid invoice', async () => {
  expect(await limits()).toMatchObject({ plan: 'Free', max_products: 25 });
  const started = await invoke<{ kind: string; url: string; trial_days: number }>(owner, 'billing-checkout', { plan: 'Starter' });
  expect(started.status).toBe(200);
  expect(started.body).toMatchObject({ kind: 'checkout', trial_days: 7 });
  expect(started.body.url).toContain(stack.stack.payments?.url);

  const customer = (await stack.db.query<{ provider_customer_id: string }>(
    'select provider_customer_id from public.billing_customers where business_id = $1', [business])).rows[0]?.provider_customer_id ?? '';
  expect(customer).toMatch(/^cus_/);
  const clock = await onTestClock(stripe, customer);

  // Webhooks are held back until after the return, so this shows what reconcile alone achieves.
  const endpoints = stack.stack.payments?.endpoints.splice(0) ?? [];
  const paid = await payCheckout(started.body.url, cards.ok);
  expect(paid.status).toBe(303);
  const sessionId = new URL(paid.location ?? '').searchParams.get('session_id');
  expect(paid.location).toContain('/dashboard/billing/return?session_id=cs_');
  const back = await invoke<{ checkout: string }>(owner, 'billing-reconcile', { session_id: sessionId });
  expect(back.body).toMatchObject({ checkout: 'complete' });
  const { data: summary } = await owner.rpc('my_billing');
  expect(summary).toEqual([expect.objectContaining({ plan: 'Starter', status: 'trialing' })]);
  expect(await limits()).toMatchObject({ plan: 'Starter', max_products: 100 });
  const { data: plan } = await owner.from('user_plans').select('plan_name, status, price, auto_renew').single();
  expect(plan).toEqual({ plan_name: 'Starter', status: 'trialing', price: 9.99, auto_renew: true });

  // The held webhooks arrive late (the provider replays them); nothing changes for the worse.
  stack.stack.payments?.endpoints.push(...endpoints);
  for (const event of stack.stack.payments?.state.events ?? []) stack.stack.payments?.dispatcher.enqueue(event);
  await stack.stack.payments?.idle();
  expect(await limits()).toMatchObject({ plan: 'Starter' });

  await advance(stack.stack, stripe, clock.id, 7 * DAY + 3600);
  const { data: after } = await owner.rpc('my_billing');
  expect(after).toEqual([expect.objectContaining({ plan: 'Starter', status: 'active' })]);
  const { data: history } = await owner.from('billing_history').select('amount, status, description, invoice_url').order('date');
  expect(history).toEqual([
    expect.objectContaining({ amount: 0, status: 'paid' }),
    expect.objectContaining({ amount: 119.88, status: 'paid', description: '1 × Storewise Starter (billed annually)' }),
  ]);
  expect(history?.[1]?.invoice_url).toMatch(/\/invoice\/in_/);
  const { data: methods } = await owner.from('payment_methods').select('type, last_four, expiry, is_default');
  expect(methods).toEqual([{ type: 'visa', last_four: '4242', expiry: '12/34', is_default: true }]);
  // Every delivery was answered 2xx (handled types and the rest alike).
  expect(stack.stack.payments?.dispatcher.deliveries.filter((d) => d.status !== 200)).toEqual([]);
});
