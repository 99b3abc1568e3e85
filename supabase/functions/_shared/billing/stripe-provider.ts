/**
 * Stripe as the billing provider. The same code talks to real Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)
 * and, with STRIPE_API_URL, to the local stack's TEST MODE stand-in through the official client's host, port
 * and protocol options. Objects are always re-fetched, never trusted from an event body (an event may be old).
 */
import Stripe from 'stripe';
import { planOfLookupKey, sellablePlans } from './plans.ts';
import {
  NotOurs, ProviderRefusal, ProviderUnavailable, SignatureError, type BillingEvent, type BillingInvoice, type BillingPaymentMethod,
  type BillingProvider, type BillingSubscription, type CheckoutSummary, type EventSubject, type PlanName, type SubscriptionStatus,
} from './provider.ts';

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** e.g. http://127.0.0.1:54330 for the local provider; unset for api.stripe.com. */
  apiUrl?: string;
}

/** Stripe's default tolerance for a signature's timestamp, in seconds. */
const TOLERANCE = 300;

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id ?? null);

const statuses: SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused'];
// A status this code does not know (a newer API version) is treated as incomplete: it grants nothing.
const knownStatus = (status: string): SubscriptionStatus => statuses.find((s) => s === status) ?? 'incomplete';

function cardType(brand: string | undefined): BillingPaymentMethod['type'] {
  return brand === 'visa' || brand === 'mastercard' ? brand : 'other';
}

function refusal(error: unknown): never {
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError
    || error instanceof Stripe.errors.StripeRateLimitError) {
    throw new ProviderUnavailable('The payment provider cannot be reached right now.');
  }
  if (error instanceof Stripe.errors.StripeCardError) throw new ProviderRefusal(error.message, 402);
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.code === 'idempotency_key_in_use' || error.type === 'StripeIdempotencyError') {
      throw new ProviderRefusal('Another checkout for this business is being prepared; try again in a moment.', 409);
    }
    throw new ProviderRefusal(error.message, error.statusCode === 404 ? 404 : 400);
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    throw new ProviderRefusal('Another checkout for this business is being prepared; try again in a moment.', 409);
  }
  throw error;
}

export function createStripeProvider(config: StripeConfig): BillingProvider {
  const local = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const stripe = new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(local ? { host: local.hostname, port: Number(local.port || (local.protocol === 'https:' ? 443 : 80)),
      protocol: local.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });

  const prices = new Map<PlanName, Stripe.Price>();
  async function priceOf(plan: PlanName): Promise<Stripe.Price> {
    const cached = prices.get(plan);
    if (cached) return cached;
    const lookupKey = sellablePlans.find((p) => p.plan === plan)?.lookup_key;
    const found = lookupKey ? (await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })).data[0] : undefined;
    if (!found) throw new ProviderRefusal(`The ${plan} plan has no price at the payment provider yet (run the billing setup script).`, 400);
    prices.set(plan, found);
    return found;
  }

  async function toSubscription(sub: Stripe.Subscription): Promise<BillingSubscription> {
    const item = sub.items.data[0];
    const price = item?.price;
    const plan = planOfLookupKey(price?.lookup_key) ?? (price?.metadata?.plan as PlanName | undefined);
    if (!item || !price || !plan) throw new NotOurs(`subscription ${sub.id} has no Storewise plan price`);
    let pastDueSince: string | null = null;
    if (sub.status === 'past_due' && sub.latest_invoice) {
      const invoice = typeof sub.latest_invoice === 'string' ? await stripe.invoices.retrieve(sub.latest_invoice) : sub.latest_invoice;
      pastDueSince = iso(invoice.created);
    }
    let clock: BillingSubscription['clock'] = null;
    const clockId = idOf(sub.test_clock);
    if (clockId) {
      const testClock = await stripe.testHelpers.testClocks.retrieve(clockId);
      clock = { id: clockId, now: iso(testClock.frozen_time) ?? new Date().toISOString() };
    }
    return {
      id: sub.id, customer: idOf(sub.customer) ?? '', business_id: sub.metadata?.business_id ?? null, plan,
      status: knownStatus(sub.status), cancel_at_period_end: sub.cancel_at_period_end,
      amount_cents: price.unit_amount ?? 0, currency: price.currency, interval: price.recurring?.interval === 'month' ? 'month' : 'year',
      current_period_start: iso(item.current_period_start), current_period_end: iso(item.current_period_end),
      trial_start: iso(sub.trial_start), trial_end: iso(sub.trial_end), canceled_at: iso(sub.canceled_at),
      ended_at: iso(sub.ended_at), past_due_since: pastDueSince, created: iso(sub.created) ?? new Date().toISOString(), clock,
    };
  }

  function toInvoice(invoice: Stripe.Invoice): BillingInvoice {
    // A paid invoice given back in full through credit notes is refunded (Stripe keeps its status "paid").
    const refunded = invoice.status === 'paid' && invoice.amount_paid > 0
      && (invoice.post_payment_credit_notes_amount ?? 0) >= invoice.amount_paid;
    const status: BillingInvoice['status'] = refunded ? 'refunded' : invoice.status === 'paid' ? 'paid'
      : invoice.status === 'open' && invoice.attempt_count > 0 ? 'failed'
      : invoice.status === 'void' || invoice.status === 'uncollectible' ? 'failed' : 'pending';
    const line = invoice.lines?.data?.[0]?.description;
    return {
      id: invoice.id ?? '', customer: idOf(invoice.customer) ?? '',
      subscription: idOf(invoice.parent?.subscription_details?.subscription ?? null),
      amount_cents: status === 'paid' ? invoice.amount_paid : invoice.amount_due, status,
      description: invoice.description ?? line ?? `Invoice ${invoice.number ?? ''}`.trim(),
      url: invoice.hosted_invoice_url ?? null, created: iso(invoice.created) ?? new Date().toISOString(),
    };
  }

  function subjectOf(event: Stripe.Event): EventSubject {
    const object = event.data.object as unknown as { id?: string; object?: string; customer?: string | { id: string } | null; frozen_time?: number };
    if (event.type.startsWith('customer.subscription.')) return object.id ? { kind: 'subscription', id: object.id } : { kind: 'other' };
    // invoice.upcoming describes an invoice that does not exist yet (no id): nothing to fetch.
    if (event.type.startsWith('invoice.')) return object.id ? { kind: 'invoice', id: object.id } : { kind: 'other' };
    if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
      return { kind: 'checkout', id: object.id ?? '' };
    }
    if (event.type === 'payment_method.attached' || event.type === 'payment_method.detached') {
      const customer = idOf(object.customer ?? null) ?? idOf(((event.data.previous_attributes ?? {}) as { customer?: string }).customer ?? null);
      return customer ? { kind: 'payment_methods', customer } : { kind: 'other' };
    }
    if (event.type === 'customer.updated') return { kind: 'payment_methods', customer: object.id ?? '' };
    if (event.type === 'test_helpers.test_clock.ready' && object.id && object.frozen_time) {
      return { kind: 'clock', id: object.id, now: iso(object.frozen_time) ?? '' };
    }
    return { kind: 'other' };
  }

  return {
    name: 'stripe',

    async ensureCustomer({ businessId, email, name, idempotencyKey }) {
      const customer = await stripe.customers.create(
        { email: email ?? undefined, name, metadata: { business_id: businessId } },
        { idempotencyKey },
      ).catch(refusal);
      return customer.id;
    },

    async createCheckout({ customer, businessId, plan, trialDays, successUrl, cancelUrl, idempotencyKey }) {
      const price = await priceOf(plan).catch(refusal);
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription', customer, client_reference_id: businessId,
        line_items: [{ price: price.id, quantity: 1 }],
        subscription_data: { metadata: { business_id: businessId, plan }, ...(trialDays > 0 ? { trial_period_days: trialDays } : {}) },
        metadata: { business_id: businessId, plan },
        success_url: successUrl, cancel_url: cancelUrl,
      }, { idempotencyKey }).catch(refusal);
      if (!session.url) throw new Error('the provider returned a checkout session without a URL');
      return { id: session.id, url: session.url };
    },

    async createPortalSession({ customer, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }).catch(refusal);
      return { url: session.url };
    },

    async parseWebhook(rawBody, headers) {
      const signature = headers.get('stripe-signature');
      if (!signature) throw new SignatureError('missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret, TOLERANCE);
      } catch (error) {
        throw new SignatureError(error instanceof Error ? error.message : 'signature check failed');
      }
      const object = event.data.object as unknown as { id?: string };
      return { id: event.id, type: event.type, created: iso(event.created) ?? new Date().toISOString(),
        object_id: object.id ?? null, subject: subjectOf(event) } satisfies BillingEvent;
    },

    async fetchSubscription(id) {
      return toSubscription(await stripe.subscriptions.retrieve(id).catch(refusal)).catch((error: unknown) => {
        if (error instanceof NotOurs) throw error;
        return refusal(error);
      });
    },

    async fetchCheckout(id): Promise<CheckoutSummary> {
      const session = await stripe.checkout.sessions.retrieve(id).catch(refusal);
      return { id: session.id, status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
        customer: idOf(session.customer) ?? '',
        subscription: idOf(session.subscription), business_id: session.metadata?.business_id ?? null };
    },

    async fetchInvoice(id) {
      return toInvoice(await stripe.invoices.retrieve(id).catch(refusal));
    },

    async listSubscriptions(customer) {
      const list = await stripe.subscriptions.list({ customer, status: 'all', limit: 20 }).catch(refusal);
      // Only Storewise's subscriptions (the same customer may hold others in a shared account).
      const mapped = await Promise.all(list.data.map((sub) => toSubscription(sub).catch((error: unknown) => {
        if (error instanceof NotOurs) return null;
        throw error;
      })));
      return mapped.filter((sub): sub is BillingSubscription => sub !== null);
    },

    async listInvoices(customer) {
      const list = await stripe.invoices.list({ customer, limit: 100 }).catch(refusal);
      return list.data.map(toInvoice);
    },

    async listPaymentMethods(customer) {
      const [owner, list] = await Promise.all([
        stripe.customers.retrieve(customer),
        stripe.paymentMethods.list({ customer, type: 'card', limit: 100 }),
      ]).catch(refusal);
      const defaultId = 'deleted' in owner && owner.deleted ? null : idOf((owner as Stripe.Customer).invoice_settings?.default_payment_method ?? null);
      return list.data.map((pm) => ({
        id: pm.id, type: cardType(pm.card?.brand), last_four: pm.card?.last4 ?? '0000',
        expiry: pm.card ? `${String(pm.card.exp_month).padStart(2, '0')}/${String(pm.card.exp_year % 100).padStart(2, '0')}` : null,
        is_default: pm.id === defaultId,
      }));
    },

    async previewPlanChange(subscription, plan) {
      const current = await stripe.subscriptions.retrieve(subscription).catch(refusal);
      const item = current.items.data[0];
      if (!item) throw new Error(`subscription ${subscription} has no items`);
      const price = await priceOf(plan).catch(refusal);
      const preview = await stripe.invoices.createPreview({
        customer: idOf(current.customer) ?? undefined, subscription,
        subscription_details: { items: [{ id: item.id, price: price.id }], proration_behavior: 'always_invoice' },
      }).catch(refusal);
      return Math.max(0, preview.amount_due);
    },

    async changePlan(subscription, plan, when) {
      const current = await stripe.subscriptions.retrieve(subscription).catch(refusal);
      const item = current.items.data[0];
      if (!item) throw new Error(`subscription ${subscription} has no items`);
      const price = await priceOf(plan);
      const updated = await stripe.subscriptions.update(subscription, {
        items: [{ id: item.id, price: price.id }],
        // Upgrade: charge the prorated difference now and refuse the change if the card fails; downgrade:
        // nothing is credited, the lower price applies from the next renewal.
        proration_behavior: when === 'now' ? 'always_invoice' : 'none',
        payment_behavior: when === 'now' ? 'error_if_incomplete' : 'allow_incomplete',
        metadata: { plan },
      }).catch(refusal);
      return toSubscription(updated);
    },

    async setCancelAtPeriodEnd(subscription, cancel) {
      return toSubscription(await stripe.subscriptions.update(subscription, { cancel_at_period_end: cancel }).catch(refusal));
    },

    async cancelNow(subscription) {
      const current = await stripe.subscriptions.retrieve(subscription).catch(refusal);
      // Stripe refuses to cancel a canceled subscription: a deletion resumed after this step finds it ended.
      if (current.status === 'canceled' || current.status === 'incomplete_expired') return toSubscription(current);
      return toSubscription(await stripe.subscriptions.cancel(subscription).catch(refusal));
    },

    async refundInvoice(id, reason) {
      const invoice = await stripe.invoices.retrieve(id).catch(refusal);
      const left = invoice.amount_paid - (invoice.post_payment_credit_notes_amount ?? 0);
      if (invoice.status !== 'paid' || left <= 0) throw new ProviderRefusal('This invoice has nothing left to refund.', 409);
      // The idempotency key makes a double click one refund; the reason stays in Storewise's trail, not at Stripe.
      await stripe.creditNotes.create({ invoice: id, amount: left, refund_amount: left, reason: 'requested_by_customer' },
        { idempotencyKey: `storewise-refund-${id}-${left}-${reason.length}` }).catch(refusal);
      return left;
    },

    async detachPaymentMethod(customer, id) {
      const [owner, list] = await Promise.all([
        stripe.customers.retrieve(customer),
        stripe.paymentMethods.list({ customer, type: 'card', limit: 100 }),
      ]).catch(refusal);
      const defaultId = 'deleted' in owner && owner.deleted ? null : idOf((owner as Stripe.Customer).invoice_settings?.default_payment_method ?? null);
      const other = list.data.find((pm) => pm.id !== id);
      if (defaultId === id && other) {
        await stripe.customers.update(customer, { invoice_settings: { default_payment_method: other.id } }).catch(refusal);
      }
      await stripe.paymentMethods.detach(id).catch(refusal);
    },
  };
}
