/**
 * Billing (issue 24) on the local stack with PGlite, through the real paths: the billing Edge Functions under
 * Deno, the local TEST MODE provider via the official `stripe` client, supabase-js over HTTP.
 *   npm run bench -- billing
 * 1. Webhook handling: a signed customer.subscription.updated POSTed to /functions/v1/billing-webhook, answered
 *    after the signature check, the inbox insert, the re-fetch from the provider and the guarded upsert.
 *    Target p95 < 100 ms on PGlite.
 * 2. Checkout return: from the provider's redirect to the success URL until the owner's my_billing shows the
 *    paid plan, as the return page does it (billing-reconcile, then read). Target < 2 s.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Stripe from 'stripe';
import { settleCheckoutReturn } from '../shared/features/dashboard/billing/checkout-return';
import { startLocalStack } from '../supabase/local/server';
import { signPayload } from '../supabase/local/payments/webhooks';
import { invoke, payCheckout } from '../tests/helpers/billing';
import { createNodeSupabaseClient } from '../tests/helpers/node-supabase-client';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const line = (name: string, values: number[], target: number) =>
  console.log(`${name.padEnd(34)} n=${values.length} p50 ${percentile(values, 50).toFixed(0)} ms  p95 ${percentile(values, 95).toFixed(0)} ms` +
    `  max ${Math.max(...values).toFixed(0)} ms  (target ${target} ms: ${percentile(values, 95) < target ? 'met' : 'MISSED'})`);

const stack = await startLocalStack({ memory: true, seed: true, apiPort: 0, inboxPort: 0, outboxRelay: false, warmFunctions: true,
  auth: { autoconfirm: true } });
const payments = stack.payments;
if (!payments) throw new Error('the bench needs the local payment provider (unset STRIPE_SECRET_KEY)');
const providerUrl = new URL(payments.url);
const stripe = new Stripe(payments.secretKey, { host: providerUrl.hostname, port: Number(providerUrl.port), protocol: 'http' });

async function newOwner() {
  const client = createNodeSupabaseClient(stack.apiUrl, stack.anonKey);
  const email = `bench-${randomUUID().slice(0, 8)}@bench.storewise.test`;
  const { error } = await client.auth.signUp({ email, password: `Pw-${randomUUID()}`, options: { data: { full_name: 'Bench Owner', business_name: 'Bench Shop', business_type: 'Others' } } });
  if (error) throw new Error(error.message);
  return client;
}

try {
  // 2. Checkout return (timed from the redirect, as the owner's browser would follow it).
  const returns: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const owner = await newOwner();
    const started = await invoke<{ url: string }>(owner, 'billing-checkout', { plan: i % 2 ? 'Growth' : 'Starter' });
    if (started.status !== 200) throw new Error(`checkout: ${started.status} ${started.body.error ?? ''}`);
    const paid = await payCheckout(started.body.url, '4242424242424242');
    const t0 = performance.now();
    const sessionId = new URL(paid.location ?? '').searchParams.get('session_id');
    const outcome = await settleCheckoutReturn({
      reconcile: async () => {
        const answer = await invoke<{ checkout: string | null }>(owner, 'billing-reconcile', { session_id: sessionId });
        if (answer.status !== 200) throw new Error(answer.body.error ?? String(answer.status));
        return answer.body;
      },
      summary: async () => {
        const { data, error } = await owner.rpc('my_billing');
        if (error) throw new Error(error.message);
        return (data as { plan: string; status: string }[])[0] ?? null;
      },
      wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    if (outcome.kind !== 'active') throw new Error(`return ${i}: ${JSON.stringify(outcome)}`);
    if (i > 1) returns.push(performance.now() - t0);
    await payments.idle();
  }

  // 1. Webhook handling: events made by real subscription updates, delivered by this bench (the provider's own
  // deliveries are held back so only these are timed).
  const held = payments.endpoints.splice(0);
  const sub = Object.values(payments.state.subscriptions)[0];
  if (!sub) throw new Error('no subscription');
  const first = payments.state.events.length;
  for (let i = 0; i < 60; i += 1) await stripe.subscriptions.update(sub.id, { metadata: { bench: String(i) } });
  const events = payments.state.events.slice(first).filter((e) => e.type === 'customer.subscription.updated');
  const url = `${stack.apiUrl}/functions/v1/billing-webhook`;
  const webhook: number[] = [];
  for (const [i, event] of events.entries()) {
    const body = JSON.stringify(event);
    const t0 = performance.now();
    const answer = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signPayload(body, payments.webhookSecret) } });
    await answer.text();
    if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}`);
    if (i >= 5) webhook.push(performance.now() - t0);
  }
  payments.endpoints.push(...held);

  console.log(`billing bench on ${stack.db.kind}`);
  line('webhook handling (HTTP round trip)', webhook, 100);
  line('checkout return -> active plan', returns, 2000);
} finally {
  await stack.stop();
}
