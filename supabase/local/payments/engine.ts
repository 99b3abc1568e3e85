/**
 * The subscription lifecycle of the local payment provider, modelled on Stripe's documented behaviour:
 * checkout with an optional trial, a $0 invoice for a trial, renewal invoices at period end, charges against
 * the default card, Smart-Retries-like retries after a failed payment (3, 5 and 7 days after the first
 * failure, then the subscription is left past_due, the "leave past due" setting), cancel at period end,
 * upgrades with prorated invoices. Time is the customer's test clock when it has one, else the wall clock.
 */
import {
  newId, publicPaymentMethod, publicSession, publicSubscription, type CheckoutSession, type CreditNote, type Customer, type Invoice,
  type PaymentMethod, type ProviderState, type Subscription,
} from './objects';
import type { TestCard } from './test-cards';

export class PaymentError extends Error {
  constructor(message: string, readonly code: string, readonly declineCode?: string) {
    super(message);
  }
}

const DAY = 86_400;
const RETRY_DAYS = [3, 5, 7];

export interface EngineDeps {
  state: ProviderState;
  /** Base URL of the provider's pages (hosted invoice, checkout, portal). */
  baseUrl: () => string;
  emit: (type: string, object: unknown, previous?: Record<string, unknown>) => void;
  changed: () => void;
}

type StoredSub = ProviderState['subscriptions'][string];

export class BillingEngine {
  constructor(private readonly deps: EngineDeps) {}

  private get state() { return this.deps.state; }

  nowFor(customerId: string): number {
    const clock = this.state.customers[customerId]?.test_clock;
    const frozen = clock ? this.state.testClocks[clock]?.frozen_time : undefined;
    return frozen ?? Math.floor(Date.now() / 1000);
  }

  attachCard(customer: Customer, card: TestCard, number: string, expMonth: number, expYear: number, makeDefault: boolean): PaymentMethod {
    if (card.attachDecline) throw new PaymentError(card.attachDecline.message, card.attachDecline.code, card.attachDecline.decline_code);
    const pm = {
      id: newId('pm'), object: 'payment_method' as const, created: this.nowFor(customer.id), livemode: false as const,
      type: 'card' as const, customer: customer.id, billing_details: { name: customer.name },
      card: { brand: card.brand, last4: number.slice(-4), exp_month: expMonth, exp_year: expYear, funding: 'credit' as const },
      _chargesFail: card.chargesFail === true,
    };
    this.state.paymentMethods[pm.id] = pm;
    this.deps.emit('payment_method.attached', publicPaymentMethod(pm));
    if (makeDefault || !customer.invoice_settings.default_payment_method) this.setDefault(customer, pm.id);
    this.deps.changed();
    return publicPaymentMethod(pm);
  }

  setDefault(customer: Customer, paymentMethodId: string | null): void {
    const previous = customer.invoice_settings.default_payment_method;
    customer.invoice_settings.default_payment_method = paymentMethodId;
    this.deps.emit('customer.updated', { ...customer }, { invoice_settings: { default_payment_method: previous } });
    this.deps.changed();
  }

  /** The portal's "make default": the customer's default and that of its live subscriptions, as Stripe's portal does. */
  setDefaultEverywhere(customer: Customer, paymentMethodId: string): void {
    this.setDefault(customer, paymentMethodId);
    for (const sub of Object.values(this.state.subscriptions)) {
      if (sub.customer !== customer.id || sub.status === 'canceled' || sub.default_payment_method === paymentMethodId) continue;
      const previous = sub.default_payment_method;
      sub.default_payment_method = paymentMethodId;
      this.deps.emit('customer.subscription.updated', publicSubscription(sub), { default_payment_method: previous });
    }
  }

  detach(pm: PaymentMethod): PaymentMethod {
    const customer = pm.customer ? this.state.customers[pm.customer] : undefined;
    pm.customer = null;
    if (customer && customer.invoice_settings.default_payment_method === pm.id) {
      const other = Object.values(this.state.paymentMethods).find((m) => m.customer === customer.id);
      this.setDefault(customer, other?.id ?? null);
    }
    const out = publicPaymentMethod(this.state.paymentMethods[pm.id] ?? pm);
    this.deps.emit('payment_method.detached', out, { customer: customer?.id ?? null });
    this.deps.changed();
    return out;
  }

  private paymentMethodFor(sub: Subscription): (PaymentMethod & { _chargesFail?: boolean }) | undefined {
    const customer = this.state.customers[sub.customer];
    const id = sub.default_payment_method ?? customer?.invoice_settings.default_payment_method;
    const pm = id ? this.state.paymentMethods[id] : undefined;
    return pm && pm.customer === sub.customer ? pm : undefined;
  }

  private item(sub: Subscription) {
    const item = sub.items.data[0];
    if (!item) throw new Error('subscription without items');
    return item;
  }

  /** Creates, finalizes and tries to pay an invoice (Stripe's automatic collection). */
  private invoice(sub: StoredSub, amount: number, reason: Invoice['billing_reason'], description: string,
    periodStart: number, periodEnd: number, at: number): Invoice {
    this.state.invoiceCounter += 1;
    const id = newId('in');
    const invoice: Invoice = {
      id, object: 'invoice', created: at, livemode: false, customer: sub.customer,
      number: `SWTEST-${String(this.state.invoiceCounter).padStart(4, '0')}`, currency: sub.currency,
      status: 'open', amount_due: amount, amount_paid: 0, amount_remaining: amount, total: amount, subtotal: amount,
      billing_reason: reason, description, period_start: periodStart, period_end: periodEnd,
      hosted_invoice_url: `${this.deps.baseUrl()}/invoice/${id}`, invoice_pdf: `${this.deps.baseUrl()}/invoice/${id}/pdf`,
      attempt_count: 0, attempted: false, next_payment_attempt: null, post_payment_credit_notes_amount: 0,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
      lines: { object: 'list', data: [{ id: newId('il'), object: 'line_item', amount, description }], has_more: false, url: `/v1/invoices/${id}/lines` },
      status_transitions: { finalized_at: at, paid_at: null },
      last_finalization_error: null,
    };
    this.state.invoices[id] = invoice;
    sub.latest_invoice = id;
    this.deps.emit('invoice.created', { ...invoice });
    this.deps.emit('invoice.finalized', { ...invoice });
    if (amount === 0) this.markPaid(invoice, at);
    else this.attempt(sub, invoice, at);
    return invoice;
  }

  private markPaid(invoice: Invoice, at: number): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = at;
    this.deps.emit('invoice.paid', { ...invoice });
    this.deps.emit('invoice.payment_succeeded', { ...invoice });
  }

  /** One charge attempt on the default card; true when paid. */
  private attempt(sub: StoredSub, invoice: Invoice, at: number): boolean {
    const pm = this.paymentMethodFor(sub);
    invoice.attempt_count += 1;
    invoice.attempted = true;
    if (pm && !pm._chargesFail) {
      this.markPaid(invoice, at);
      return true;
    }
    const first = sub._past_due_attempts_started ?? at;
    sub._past_due_attempts_started = first;
    const next = RETRY_DAYS.map((days) => first + days * DAY).find((when) => when > at);
    invoice.next_payment_attempt = next ?? null;
    this.deps.emit('invoice.payment_failed', { ...invoice });
    return false;
  }

  private setStatus(sub: StoredSub, status: Subscription['status'], previous: Record<string, unknown>): void {
    const before = { status: sub.status, ...previous };
    sub.status = status;
    this.deps.emit('customer.subscription.updated', publicSubscription(sub), before);
  }

  /** Completes a checkout session with a card: customer's card, then the subscription and its first invoice. */
  completeCheckout(session: CheckoutSession, card: TestCard, number: string, expMonth: number, expYear: number): void {
    if (session.status !== 'open') throw new PaymentError('This checkout session is no longer open.', 'checkout_closed');
    const customer = this.state.customers[session.customer];
    const price = session._price ? this.state.prices[session._price] : undefined;
    if (!customer || (session.mode === 'subscription' && !price)) throw new PaymentError('This checkout session is invalid.', 'resource_missing');
    if (card.attachDecline) throw new PaymentError(card.attachDecline.message, card.attachDecline.code, card.attachDecline.decline_code);
    const now = this.nowFor(customer.id);
    if (session.mode === 'subscription' && price && !session._trial_days && card.chargesFail) {
      // Without a trial, Checkout charges at once; a failing card stays on the page and nothing is created.
      throw new PaymentError('Your card was declined.', 'card_declined', 'generic_decline');
    }
    const pm = this.attachCard(customer, card, number, expMonth, expYear, true);
    if (session.mode === 'subscription' && price) {
      const trialEnd = session._trial_days ? now + session._trial_days * DAY : null;
      const periodEnd = trialEnd ?? now + (price.recurring.interval === 'year' ? 365 : 30) * DAY;
      const sub: StoredSub = {
        id: newId('sub'), object: 'subscription', created: now, livemode: false, start_date: now, customer: customer.id,
        status: trialEnd ? 'trialing' : 'active',
        items: { object: 'list', data: [{ id: newId('si'), object: 'subscription_item', created: now, quantity: 1, price,
          current_period_start: now, current_period_end: periodEnd }], has_more: false, url: '/v1/subscription_items' },
        cancel_at_period_end: false, canceled_at: null, ended_at: null,
        trial_start: trialEnd ? now : null, trial_end: trialEnd,
        default_payment_method: pm.id, latest_invoice: null, currency: price.currency,
        metadata: { ...session._subscription_metadata }, test_clock: customer.test_clock, _past_due_attempts_started: null,
      };
      this.state.subscriptions[sub.id] = sub;
      this.deps.emit('customer.subscription.created', publicSubscription(sub));
      const name = this.state.products[price.product]?.name ?? 'Subscription';
      this.invoice(sub, trialEnd ? 0 : price.unit_amount, 'subscription_create',
        trialEnd ? `Trial period for ${name}` : `1 × ${name} (billed annually)`, now, periodEnd, now);
      session.subscription = sub.id;
      session.payment_status = trialEnd ? 'no_payment_required' : 'paid';
    } else {
      session.payment_status = 'no_payment_required';
    }
    session.status = 'complete';
    session.url = null;
    this.deps.emit('checkout.session.completed', publicSession(session));
    this.deps.changed();
  }

  /** What a price change would invoice now (invoices.createPreview): the prorated difference, or nothing. */
  previewChange(sub: StoredSub, priceId: string, proration: string): number {
    const price = this.state.prices[priceId];
    if (!price) throw new PaymentError(`No such price: '${priceId}'`, 'resource_missing');
    const item = this.item(sub);
    if (sub.status !== 'active' || proration !== 'always_invoice') return 0;
    const span = item.current_period_end - item.current_period_start;
    const left = Math.max(0, item.current_period_end - this.nowFor(sub.customer));
    return Math.max(0, Math.round((price.unit_amount - item.price.unit_amount) * (span > 0 ? left / span : 0)));
  }

  /** subscriptions.update: price change (prorated or not), cancel at period end, metadata. */
  update(sub: StoredSub, change: { price?: string; proration?: string; paymentBehavior?: string;
    cancelAtPeriodEnd?: boolean; metadata?: Record<string, string>; defaultPaymentMethod?: string }): void {
    const previous: Record<string, unknown> = {};
    const now = this.nowFor(sub.customer);
    const item = this.item(sub);
    if (change.price && change.price !== item.price.id) {
      const price = this.state.prices[change.price];
      if (!price) throw new PaymentError(`No such price: '${change.price}'`, 'resource_missing');
      const span = item.current_period_end - item.current_period_start;
      const left = Math.max(0, item.current_period_end - now);
      const prorated = sub.status === 'active' && change.proration !== 'none'
        ? Math.round((price.unit_amount - item.price.unit_amount) * (span > 0 ? left / span : 0)) : 0;
      if (prorated > 0 && change.proration === 'always_invoice') {
        const pm = this.paymentMethodFor(sub);
        if ((!pm || pm._chargesFail) && change.paymentBehavior === 'error_if_incomplete') {
          throw new PaymentError('Your card was declined.', 'card_declined', 'generic_decline');
        }
      }
      previous.items = { ...sub.items, data: [{ ...item }] };
      item.price = price;
      if (prorated > 0 && change.proration === 'always_invoice') {
        const name = this.state.products[price.product]?.name ?? 'plan';
        this.invoice(sub, prorated, 'subscription_update', `Remaining time on ${name} (prorated)`, now, item.current_period_end, now);
      }
    }
    if (change.cancelAtPeriodEnd !== undefined && change.cancelAtPeriodEnd !== sub.cancel_at_period_end) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      sub.cancel_at_period_end = change.cancelAtPeriodEnd;
    }
    if (change.metadata) {
      previous.metadata = { ...sub.metadata };
      for (const [key, value] of Object.entries(change.metadata)) {
        if (value === '') delete sub.metadata[key];
        else sub.metadata[key] = value;
      }
    }
    if (change.defaultPaymentMethod) {
      previous.default_payment_method = sub.default_payment_method;
      sub.default_payment_method = change.defaultPaymentMethod;
    }
    this.deps.emit('customer.subscription.updated', publicSubscription(sub), previous);
    this.deps.changed();
  }

  /** A post-payment credit note refunding part or all of a paid invoice to the card (Stripe's way to refund one). */
  creditNote(invoice: Invoice, amount: number, refundAmount: number, reason: string | null): CreditNote {
    if (invoice.status !== 'paid') throw new PaymentError('Only a paid invoice can be refunded with a credit note.', 'invoice_not_paid');
    const left = invoice.amount_paid - invoice.post_payment_credit_notes_amount;
    if (!Number.isInteger(amount) || amount <= 0 || amount > left || refundAmount !== amount) {
      throw new PaymentError(`The credit note amount must be between 1 and ${left} and equal its refund_amount.`, 'parameter_invalid');
    }
    const note: CreditNote = {
      id: newId('cn'), object: 'credit_note', created: this.nowFor(invoice.customer), livemode: false, invoice: invoice.id,
      customer: invoice.customer, amount, currency: invoice.currency, reason, status: 'issued', type: 'post_payment',
      refunds: [{ amount_refunded: refundAmount, refund: newId('re') }],
    };
    this.state.creditNotes[note.id] = note;
    const previous = invoice.post_payment_credit_notes_amount;
    invoice.post_payment_credit_notes_amount += amount;
    this.deps.emit('credit_note.created', { ...note });
    this.deps.emit('invoice.updated', { ...invoice }, { post_payment_credit_notes_amount: previous });
    this.deps.changed();
    return note;
  }

  cancelNow(sub: StoredSub): void {
    const now = this.nowFor(sub.customer);
    sub.status = 'canceled';
    sub.canceled_at = now;
    sub.ended_at = now;
    this.deps.emit('customer.subscription.deleted', publicSubscription(sub));
    this.deps.changed();
  }

  /** The next thing due on a subscription (trial end, period end or a retry), or null. */
  private nextDue(sub: StoredSub): number | null {
    if (['canceled', 'incomplete_expired'].includes(sub.status)) return null;
    const item = this.item(sub);
    const times: number[] = [];
    if (sub.status === 'trialing' && sub.trial_end) times.push(sub.trial_end);
    else if (['active', 'past_due'].includes(sub.status)) times.push(item.current_period_end);
    const open = sub.latest_invoice ? this.state.invoices[sub.latest_invoice] : undefined;
    if (open?.status === 'open' && open.next_payment_attempt) times.push(open.next_payment_attempt);
    return times.length ? Math.min(...times) : null;
  }

  /** One step of time for a subscription at `at` (its due time). */
  private step(sub: StoredSub, at: number): void {
    const item = this.item(sub);
    const open = sub.latest_invoice ? this.state.invoices[sub.latest_invoice] : undefined;
    if (open?.status === 'open' && open.next_payment_attempt === at) {
      if (this.attempt(sub, open, at) && sub.status === 'past_due') {
        sub._past_due_attempts_started = null;
        this.setStatus(sub, 'active', {});
      }
      return;
    }
    const periodEnd = sub.status === 'trialing' ? (sub.trial_end ?? at) : item.current_period_end;
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      sub.canceled_at = at;
      sub.ended_at = at;
      this.deps.emit('customer.subscription.deleted', publicSubscription(sub));
      return;
    }
    const previous = { items: { ...sub.items, data: [{ ...item }] }, status: sub.status };
    const wasTrial = sub.status === 'trialing';
    item.current_period_start = periodEnd;
    item.current_period_end = periodEnd + (item.price.recurring.interval === 'year' ? 365 : 30) * DAY;
    const name = this.state.products[item.price.product]?.name ?? 'Subscription';
    sub._past_due_attempts_started = null;
    const invoice = this.invoice(sub, item.price.unit_amount, wasTrial ? 'subscription_cycle' : 'subscription_cycle',
      `1 × ${name} (billed annually)`, item.current_period_start, item.current_period_end, at);
    sub.status = invoice.status === 'paid' ? 'active' : 'past_due';
    if (wasTrial) sub.trial_end = sub.trial_end ?? at;
    this.deps.emit('customer.subscription.updated', publicSubscription(sub), previous);
  }

  /** Moves a test clock forward, running every due step in time order (Stripe's test clock advance). */
  advance(clockId: string, to: number): void {
    const clock = this.state.testClocks[clockId];
    if (!clock) throw new PaymentError(`No such test clock: '${clockId}'`, 'resource_missing');
    if (to < clock.frozen_time) throw new PaymentError('A test clock can only move forward.', 'parameter_invalid');
    for (let guard = 0; guard < 1000; guard += 1) {
      const subs = Object.values(this.state.subscriptions).filter((s) => this.state.customers[s.customer]?.test_clock === clockId);
      // Stripe's trial_will_end comes 3 days before the trial ends; this stack only forwards it (an unhandled type).
      const due = subs.map((sub) => ({ sub, at: this.nextDue(sub) }))
        .filter((d): d is { sub: StoredSub; at: number } => d.at !== null && d.at <= to)
        .sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      clock.frozen_time = due.at;
      if (due.sub.status === 'trialing' && due.sub.trial_end === due.at) {
        this.deps.emit('customer.subscription.trial_will_end', publicSubscription(due.sub));
      }
      this.step(due.sub, due.at);
    }
    clock.frozen_time = to;
    this.deps.emit('test_helpers.test_clock.ready', { ...clock });
    this.deps.changed();
  }
}
