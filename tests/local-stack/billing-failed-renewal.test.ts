/**
 * A renewal that fails, on owner1's Fresh Corner Market (two stores, a register with an open shift): the owner
 * buys Growth with a good card (no trial: the business already had a plan), later makes Stripe's
 * 4000 0000 0000 0341 (attaches, every charge fails) the default card in the provider's portal, and the test
 * clock runs to the renewal. The plan is past due with a grace date (the banner's data), the provider retries,
 * the register keeps selling, and once the 14 days of grace are over the business has Free limits: no new
 * store, nothing deleted, and the register still sells.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { advance, cards, DAY, invoke, localStripe, onTestClock, payCheckout, portalAddCard } from '../helpers/billing';
import { startCatalogWorld, type CatalogWorld } from '../db/support/catalog-world';

let w: CatalogWorld;
let stripe: Stripe;
let shift = '';
let register = '';

beforeAll(async () => {
  w = await startCatalogWorld();
  stripe = localStripe(w.stack.stack);
  register = (await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`))[0]?.id ?? '';
  const { data, error } = await w.clients.cashier.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (error) throw new Error(error.message);
  shift = (data as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const limits = async () => (await w.rows<{ plan: string; max_stores: number }>(
  'select plan, max_stores from private.plan_limits($1)', [w.businessA]))[0];
const sell = () => w.clients.cashier.rpc('post_sale', { _payload: {
  id: randomUUID(), register_id: register, shift_id: shift,
  lines: [{ variant_id: w.f.variant, qty: 2, unit_price: 1400 }],
  tenders: [{ kind: 'cash', amount: 3049, tendered: 5000 }],
} });

it('a failing renewal is past due with grace, the register sells throughout, and after grace the limits are Free', async () => {
  const started = await invoke<{ url: string; trial_days: number }>(w.clients.owner, 'billing-checkout', { plan: 'Growth' });
  expect(started.body.trial_days).toBe(0);
  const customer = (await w.rows<{ c: string }>(
    'select provider_customer_id as c from public.billing_customers where business_id = $1', [w.businessA]))[0]?.c ?? '';
  const clock = await onTestClock(stripe, customer);
  // Stripe's declining cards are refused on the checkout page itself, with the provider's sentence.
  const declined = await payCheckout(started.body.url, cards.insufficient);
  expect(declined.status).toBe(402);
  expect(declined.html).toContain('Your card has insufficient funds.');
  expect((await payCheckout(started.body.url, cards.ok)).status).toBe(303);
  await w.stack.stack.payments?.idle();
  const { data: active } = await w.clients.owner.rpc('my_billing');
  expect(active).toEqual([expect.objectContaining({ plan: 'Growth', status: 'active', grace_until: null })]);

  const portal = await invoke<{ url: string }>(w.clients.owner, 'billing-portal', { action: 'portal' });
  expect(portal.status).toBe(200);
  expect(await portalAddCard(portal.body.url, cards.failsLater)).toBe(303);
  await w.stack.stack.payments?.idle();
  const { data: methods } = await w.clients.owner.from('payment_methods').select('last_four, is_default')
    .not('provider_payment_method_id', 'is', null).order('last_four');
  expect(methods).toEqual([{ last_four: '0341', is_default: true }, { last_four: '4242', is_default: false }]);

  await advance(w.stack.stack, stripe, clock.id, 366 * DAY);
  const { data: pastDue } = await w.clients.owner.rpc('my_billing');
  expect(pastDue).toEqual([expect.objectContaining({ plan: 'Growth', status: 'past_due' })]);
  expect(pastDue?.[0]?.grace_until).not.toBeNull();
  expect(await limits()).toMatchObject({ plan: 'Growth', max_stores: 3 });
  const { data: failed } = await w.clients.owner.from('billing_history').select('amount, status').eq('status', 'failed')
    .not('provider_invoice_id', 'is', null);
  expect(failed).toEqual([{ amount: 359.88, status: 'failed' }]);
  expect((await sell()).error).toBeNull();
  // One bell notification and one email for the failed invoice (not one per webhook or retry).
  const { data: bell } = await w.clients.owner.from('notifications').select('kind, link').eq('kind', 'billing.payment_failed');
  expect(bell).toEqual([{ kind: 'billing.payment_failed', link: '/dashboard/billing' }]);
  const mail = await w.rows<{ template: string; plan: string; amount: number }>(
    `select template, params ->> 'plan' as plan, (params ->> 'amount')::float8 as amount from public.email_outbox
      where template = 'billing_payment_failed'`);
  expect(mail).toEqual([{ template: 'billing_payment_failed', plan: 'Growth', amount: 359.88 }]);

  // Retries on days 3, 5 and 7 fail too; at day 15 the grace is over.
  await advance(w.stack.stack, stripe, clock.id, 15 * DAY);
  const invoice = Object.values(w.stack.stack.payments?.state.invoices ?? {}).find((i) => i.status === 'open');
  expect(invoice?.attempt_count).toBe(4);
  expect(await limits()).toMatchObject({ plan: 'Free', max_stores: 1 });
  const { data: grace } = await w.clients.owner.rpc('my_billing');
  expect(grace).toEqual([expect.objectContaining({ plan: 'Free', status: 'past_due' })]);
  const stores = await w.rows<{ n: number }>('select count(*)::int as n from public.stores where business_id = $1 and archived_at is null', [w.businessA]);
  expect(stores[0]?.n).toBe(2);
  const third = await w.clients.owner.from('stores').insert({ business_id: w.businessA, name: 'Third', time_zone: 'UTC', currency: 'USD' }).select('id');
  expect(third.error?.code).toBe('SW001');
  expect((await sell()).error).toBeNull();
  expect(await w.rows(`select 1 from public.email_outbox where template = 'billing_payment_failed'`)).toHaveLength(1);
});
