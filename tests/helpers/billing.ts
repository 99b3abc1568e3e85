/**
 * The billing tests' hands: the official `stripe` client on the stack's local provider, the owner's calls to
 * the billing Edge Functions through supabase-js's functions.invoke, and the provider's hosted pages filled in
 * as a browser would post them (TEST MODE pages; Stripe's test cards only).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import Stripe from 'stripe';
import type { RunningStack } from '../../supabase/local/server';

export function localStripe(stack: RunningStack): Stripe {
  const payments = stack.payments;
  if (!payments) throw new Error('the stack runs without the local payment provider');
  const url = new URL(payments.url);
  return new Stripe(payments.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

export interface Invoked<T> {
  status: number;
  body: T & { error?: string };
}

/** Calls an Edge Function as the signed-in user; 4xx and 5xx come back as data, not thrown. */
export async function invoke<T = Record<string, unknown>>(client: SupabaseClient, name: string, body: unknown): Promise<Invoked<T>> {
  const { data, error } = await client.functions.invoke(name, { body: body as Record<string, unknown> });
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    return { status: response.status, body: (await response.json()) as T & { error?: string } };
  }
  if (error) throw error;
  return { status: 200, body: data as T & { error?: string } };
}

export const cards = {
  ok: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  failsLater: '4000000000000341',
  mastercard: '5555555555554444',
};

/** Posts the checkout page's form: the redirect to the success URL, or the page's refusal (402). */
export async function payCheckout(url: string, card: string): Promise<{ status: number; location: string | null; html: string }> {
  const answer = await fetch(url, {
    method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number: card, expiry: '12/34', cvc: '123' }),
  });
  return { status: answer.status, location: answer.headers.get('location'), html: await answer.text() };
}

/** Adds a card on the portal page (it becomes the default, as in Stripe's portal). */
export async function portalAddCard(portalUrl: string, card: string): Promise<number> {
  const answer = await fetch(`${portalUrl}/cards`, {
    method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number: card, expiry: '11/33', cvc: '123' }),
  });
  await answer.text();
  return answer.status;
}

/** Puts a customer on a new test clock at the current time (the local provider's extension of customers.update). */
export async function onTestClock(stripe: Stripe, customer: string): Promise<Stripe.TestHelpers.TestClock> {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000), name: 'billing test' });
  await stripe.customers.update(customer, { test_clock: clock.id } as Stripe.CustomerUpdateParams);
  return clock;
}

export async function advance(stack: RunningStack, stripe: Stripe, clock: string, seconds: number): Promise<void> {
  const current = await stripe.testHelpers.testClocks.retrieve(clock);
  await stripe.testHelpers.testClocks.advance(clock, { frozen_time: current.frozen_time + seconds });
  await stack.payments?.idle();
}

export const DAY = 86_400;

export async function signedIn(client: SupabaseClient, email: string, password: string): Promise<string> {
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.user) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
  return data.user.id;
}
