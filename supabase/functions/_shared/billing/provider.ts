/**
 * The provider-neutral billing interface (docs/adr/0190). Stripe is the provider shipped (stripe-provider.ts);
 * a merchant of record (Paddle, Lemon Squeezy) can implement the same calls later: statuses are mapped to
 * these names, amounts are integer cents, times are Date, and webhooks come in as raw bytes plus headers.
 */
export type PlanName = 'Starter' | 'Growth' | 'Pro';

export type SubscriptionStatus =
  | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';

export interface BillingSubscription {
  id: string;
  customer: string;
  /** The business id the checkout carried (metadata), when present. */
  business_id: string | null;
  plan: PlanName;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  amount_cents: number;
  currency: string;
  interval: 'month' | 'year';
  current_period_start: string | null;
  current_period_end: string | null;
  trial_start: string | null;
  trial_end: string | null;
  canceled_at: string | null;
  ended_at: string | null;
  /** When the unpaid invoice behind a past_due status was issued; the grace period runs from here. */
  past_due_since: string | null;
  created: string;
  /** Test mode only: the customer's simulated time, so entitlement compares against it. */
  clock: { id: string; now: string } | null;
}

export interface BillingInvoice {
  id: string;
  customer: string;
  subscription: string | null;
  amount_cents: number;
  /** The specification's statuses: paid, pending, failed, refunded. */
  status: 'paid' | 'pending' | 'failed' | 'refunded';
  description: string;
  url: string | null;
  created: string;
}

export interface BillingPaymentMethod {
  id: string;
  /** The specification's types: visa, mastercard, mobile, wallet, other. */
  type: 'visa' | 'mastercard' | 'mobile' | 'wallet' | 'other';
  last_four: string;
  expiry: string | null;
  is_default: boolean;
}

export type EventSubject =
  | { kind: 'subscription'; id: string }
  | { kind: 'invoice'; id: string }
  | { kind: 'checkout'; id: string }
  | { kind: 'payment_methods'; customer: string }
  | { kind: 'clock'; id: string; now: string }
  | { kind: 'other' };

export interface BillingEvent {
  id: string;
  type: string;
  /** The provider's own timestamp of the event: the order in which states are applied. */
  created: string;
  object_id: string | null;
  subject: EventSubject;
}

export class SignatureError extends Error {}

/** An object that is not Storewise's (another product in the same provider account): nothing to apply. */
export class NotOurs extends Error {}

/** A provider refusal with a sentence for the owner (a declined card, an unknown price). */
export class ProviderRefusal extends Error {
  constructor(message: string, readonly status: 400 | 402 | 404 | 409) {
    super(message);
  }
}

/** The provider cannot be reached (network, outage): nothing changed; the caller may retry. */
export class ProviderUnavailable extends Error {}

export interface CheckoutSummary {
  id: string;
  status: 'open' | 'complete' | 'expired';
  customer: string;
  subscription: string | null;
  business_id: string | null;
}

export interface BillingProvider {
  readonly name: string;
  /** Makes (or, with the same key, finds) the customer of a business. */
  ensureCustomer(input: { businessId: string; email: string | null; name: string; idempotencyKey: string }): Promise<string>;
  createCheckout(input: { customer: string; businessId: string; plan: PlanName; trialDays: number; successUrl: string;
    cancelUrl: string; idempotencyKey: string }): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customer: string; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies the signature on the raw body (with the provider's tolerance) and returns the event. */
  parseWebhook(rawBody: string, headers: Headers): Promise<BillingEvent>;
  fetchSubscription(id: string): Promise<BillingSubscription>;
  fetchCheckout(id: string): Promise<CheckoutSummary>;
  fetchInvoice(id: string): Promise<BillingInvoice>;
  listSubscriptions(customer: string): Promise<BillingSubscription[]>;
  listInvoices(customer: string): Promise<BillingInvoice[]>;
  listPaymentMethods(customer: string): Promise<BillingPaymentMethod[]>;
  /** The amount a plan change would charge now (cents), as the provider computes the proration. */
  previewPlanChange(subscription: string, plan: PlanName): Promise<number>;
  /** Upgrade now with proration (charged at once), or downgrade from the next period (no proration). */
  changePlan(subscription: string, plan: PlanName, when: 'now' | 'period_end'): Promise<BillingSubscription>;
  setCancelAtPeriodEnd(subscription: string, cancel: boolean): Promise<BillingSubscription>;
  /** Ends the subscription now, without proration or refund (a deleted business); ending an ended one returns it. */
  cancelNow(subscription: string): Promise<BillingSubscription>;
  /** Refunds what is left of a paid invoice to the card it was paid with; returns the amount refunded (cents). */
  refundInvoice(id: string, reason: string): Promise<number>;
  /** Removes a card; when it was the default, another card of the customer becomes the default first. */
  detachPaymentMethod(customer: string, id: string): Promise<void>;
}
