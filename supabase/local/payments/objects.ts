/**
 * The Stripe objects the local provider keeps, in Stripe's own JSON shape (API version of the pinned `stripe`
 * client, 2026-10-28: billing periods live on subscription items, an invoice names its subscription under
 * parent.subscription_details). Only the fields Storewise's billing module reads, plus the ids and
 * timestamps every object has. Times are Unix seconds, money is in cents, as in Stripe.
 */
import { randomBytes } from 'node:crypto';

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

export interface Customer {
  id: string; object: 'customer'; created: number; livemode: false;
  email: string | null; name: string | null; metadata: Record<string, string>;
  test_clock: string | null;
  invoice_settings: { default_payment_method: string | null };
}

export interface PaymentMethod {
  id: string; object: 'payment_method'; created: number; livemode: false; type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit' };
  billing_details: { name: string | null };
}

export interface Product {
  id: string; object: 'product'; created: number; livemode: false; name: string; active: boolean;
  metadata: Record<string, string>;
}

export interface Price {
  id: string; object: 'price'; created: number; livemode: false; active: boolean; type: 'recurring';
  product: string; unit_amount: number; currency: string; lookup_key: string | null;
  recurring: { interval: 'month' | 'year'; interval_count: 1 };
  metadata: Record<string, string>;
}

export interface SubscriptionItem {
  id: string; object: 'subscription_item'; created: number; quantity: 1; price: Price;
  current_period_start: number; current_period_end: number;
}

export interface Subscription {
  id: string; object: 'subscription'; created: number; livemode: false; start_date: number;
  customer: string; status: 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; url: string };
  cancel_at_period_end: boolean; canceled_at: number | null; ended_at: number | null;
  trial_start: number | null; trial_end: number | null;
  default_payment_method: string | null; latest_invoice: string | null; currency: string;
  metadata: Record<string, string>;
  test_clock: string | null;
}

export interface Invoice {
  id: string; object: 'invoice'; created: number; livemode: false;
  customer: string; number: string; currency: string;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  amount_due: number; amount_paid: number; amount_remaining: number; total: number; subtotal: number;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  description: string | null; period_start: number; period_end: number;
  hosted_invoice_url: string; invoice_pdf: string;
  attempt_count: number; attempted: boolean; next_payment_attempt: number | null;
  /** What credit notes gave back after payment (a refund through a credit note raises it). */
  post_payment_credit_notes_amount: number;
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } } | null;
  lines: { object: 'list'; data: { id: string; object: 'line_item'; amount: number; description: string }[]; has_more: false; url: string };
  status_transitions: { finalized_at: number | null; paid_at: number | null };
  last_finalization_error: null;
}

export interface CreditNote {
  id: string; object: 'credit_note'; created: number; livemode: false; invoice: string; customer: string;
  amount: number; currency: string; reason: string | null; status: 'issued'; type: 'post_payment';
  refunds: { amount_refunded: number; refund: string }[];
}

export interface CheckoutSession {
  id: string; object: 'checkout.session'; created: number; livemode: false; expires_at: number;
  mode: 'subscription' | 'setup'; customer: string; status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  subscription: string | null; setup_intent: null; url: string | null;
  success_url: string; cancel_url: string | null;
  client_reference_id: string | null; metadata: Record<string, string>;
  /** Not in Stripe's session JSON: what the session will create (Stripe keeps it as line_items). */
  _price: string | null; _trial_days: number | null; _subscription_metadata: Record<string, string>;
}

export interface PortalSession {
  id: string; object: 'billing_portal.session'; created: number; livemode: false;
  customer: string; return_url: string; url: string;
}

export interface TestClock {
  id: string; object: 'test_clock'; created: number; livemode: false;
  frozen_time: number; name: string | null; status: 'ready';
}

export interface StripeEvent {
  id: string; object: 'event'; created: number; livemode: false; api_version: string; pending_webhooks: number;
  type: string; data: { object: unknown; previous_attributes?: Record<string, unknown> };
  request: { id: null; idempotency_key: null };
}

export interface WebhookEndpoint {
  id: string; object: 'webhook_endpoint'; url: string; secret: string; enabled_events: string[]; status: 'enabled';
}

/** Everything the provider knows; written to one JSON file so a restart of `npm start` keeps it. */
export interface ProviderState {
  customers: Record<string, Customer>;
  paymentMethods: Record<string, PaymentMethod & { _chargesFail?: boolean }>;
  products: Record<string, Product>;
  prices: Record<string, Price>;
  subscriptions: Record<string, Subscription & { _past_due_attempts_started?: number | null }>;
  invoices: Record<string, Invoice>;
  checkoutSessions: Record<string, CheckoutSession>;
  portalSessions: Record<string, PortalSession>;
  testClocks: Record<string, TestClock>;
  creditNotes: Record<string, CreditNote>;
  events: StripeEvent[];
  invoiceCounter: number;
}

export const emptyState = (): ProviderState => ({
  customers: {}, paymentMethods: {}, products: {}, prices: {}, subscriptions: {}, invoices: {},
  checkoutSessions: {}, portalSessions: {}, testClocks: {}, creditNotes: {}, events: [], invoiceCounter: 0,
});

/** The public copy of a payment method (without the local flag). */
export function publicPaymentMethod(pm: PaymentMethod & { _chargesFail?: boolean }): PaymentMethod {
  const { _chargesFail: _ignored, ...rest } = pm;
  return rest;
}

export function publicSubscription(sub: Subscription & { _past_due_attempts_started?: number | null }): Subscription {
  const { _past_due_attempts_started: _ignored, ...rest } = sub;
  return rest;
}

export function publicSession(session: CheckoutSession): Omit<CheckoutSession, '_price' | '_trial_days' | '_subscription_metadata'> {
  const { _price: _p, _trial_days: _t, _subscription_metadata: _m, ...rest } = session;
  return rest;
}
