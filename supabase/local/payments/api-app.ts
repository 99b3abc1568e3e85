/**
 * The part of Stripe's REST API (https://docs.stripe.com/api) that Storewise's billing module and its setup
 * script use, answered from the local provider's state: form-encoded requests, JSON answers, Stripe's error
 * shape, Bearer secret key, Idempotency-Key replays, `expand[]` of top-level ids, and lists with has_more.
 */
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { sameKey } from '../gateway/api-key';
import { PaymentError, type BillingEngine } from './engine';
import { parseForm, str, type FormValue } from './form-body';
import {
  newId, publicPaymentMethod, publicSession, publicSubscription, type ProviderState, type StripeEvent, type WebhookEndpoint,
} from './objects';

export interface ApiDeps {
  state: ProviderState;
  engine: BillingEngine;
  secretKey: string;
  baseUrl: () => string;
  endpoints: WebhookEndpoint[];
  changed: () => void;
}

type Body = Record<string, FormValue>;

function stripeError(c: Context, status: 400 | 401 | 402 | 404 | 409, message: string, extra: Record<string, unknown> = {}) {
  const type = status === 402 ? 'card_error' : status === 409 ? 'idempotency_error' : 'invalid_request_error';
  return c.json({ error: { type, message, ...extra } }, status);
}

const list = <T>(url: string, data: T[]) => ({ object: 'list', url, has_more: false, data });
const meta = (value: FormValue | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
const arr = (value: FormValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];

export function createPaymentsApi(deps: ApiDeps): Hono {
  const { state, engine } = deps;
  const app = new Hono();
  const replays = new Map<string, { hash: string; answer: Promise<{ status: number; body: unknown } | null> }>();

  const lookup = (id: string): unknown => {
    const sources: Record<string, Record<string, unknown>> = {
      cus_: state.customers, pm_: state.paymentMethods, prod_: state.products, price_: state.prices, sub_: state.subscriptions,
      in_: state.invoices, cs_: state.checkoutSessions,
    };
    const prefix = Object.keys(sources).find((p) => id.startsWith(p));
    const found = prefix ? sources[prefix]?.[id] : undefined;
    if (!found) return id;
    if (prefix === 'pm_') return publicPaymentMethod(found as ProviderState['paymentMethods'][string]);
    if (prefix === 'sub_') return publicSubscription(found as ProviderState['subscriptions'][string]);
    if (prefix === 'cs_') return publicSession(found as ProviderState['checkoutSessions'][string]);
    return found;
  };
  const expand = (object: object, fields: string[]) => {
    const out: Record<string, unknown> = { ...object };
    for (const field of fields) {
      const value = out[field];
      if (typeof value === 'string') out[field] = lookup(value);
    }
    return out;
  };

  app.use('/v1/*', async (c, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer || !sameKey(bearer, deps.secretKey)) {
      return stripeError(c, 401, 'Invalid API Key provided. The local test provider accepts only its own test key.');
    }
    const body: Body = c.req.method === 'POST' ? parseForm(await c.req.text()) : parseForm(new URL(c.req.url).search.slice(1));
    c.set('body' as never, body as never);
    const key = c.req.method === 'POST' ? c.req.header('idempotency-key') : undefined;
    if (!key) return next();
    const hash = createHash('sha256').update(`${c.req.path}\n${JSON.stringify(body)}`).digest('hex');
    const seen = replays.get(key);
    if (seen) {
      if (seen.hash !== hash) {
        return stripeError(c, 400, `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`, { code: 'idempotency_key_in_use' });
      }
      // A request with this key is running or done: its answer is this one's (two tabs, one customer).
      const first = await seen.answer;
      if (first) return c.json(first.body as object, first.status as 200, { 'Idempotent-Replayed': 'true' });
      return next();
    }
    let settle: (value: { status: number; body: unknown } | null) => void = () => {};
    replays.set(key, { hash, answer: new Promise((resolve) => { settle = resolve; }) });
    try {
      await next();
      if (c.res.status < 500) settle({ status: c.res.status, body: await c.res.clone().json() });
      else {
        replays.delete(key);
        settle(null);
      }
    } catch (error) {
      replays.delete(key);
      settle(null);
      throw error;
    }
  });
  const body = (c: Context) => c.get('body' as never) as Body;

  app.onError((error, c) => {
    if (error instanceof PaymentError) {
      const status = error.code === 'resource_missing' ? 404 : error.code.startsWith('card') ? 402 : 400;
      return stripeError(c, status, error.message, { code: error.code, decline_code: error.declineCode });
    }
    console.error('local payments: unexpected error', error);
    return c.json({ error: { type: 'api_error', message: 'An unexpected error occurred in the local test provider.' } }, 500);
  });

  // Customers
  app.post('/v1/customers', (c) => {
    const b = body(c);
    const clock = str(b, 'test_clock') ?? null;
    if (clock && !state.testClocks[clock]) return stripeError(c, 404, `No such test clock: '${clock}'`, { code: 'resource_missing' });
    const customer = { id: newId('cus'), object: 'customer' as const, created: Math.floor(Date.now() / 1000), livemode: false as const,
      email: str(b, 'email') ?? null, name: str(b, 'name') ?? null, metadata: meta(b.metadata), test_clock: clock,
      invoice_settings: { default_payment_method: null } };
    state.customers[customer.id] = customer;
    deps.changed();
    return c.json(customer);
  });
  app.get('/v1/customers/:id', (c) => {
    const customer = state.customers[c.req.param('id')];
    return customer ? c.json(expand(customer, arr(body(c).expand))) : stripeError(c, 404, `No such customer: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });
  app.post('/v1/customers/:id', (c) => {
    const customer = state.customers[c.req.param('id')];
    if (!customer) return stripeError(c, 404, `No such customer: '${c.req.param('id')}'`, { code: 'resource_missing' });
    const b = body(c);
    const pm = str(b, 'invoice_settings', 'default_payment_method');
    if (pm) {
      if (state.paymentMethods[pm]?.customer !== customer.id) return stripeError(c, 400, `No such PaymentMethod: '${pm}'`);
      engine.setDefault(customer, pm);
    }
    // Local extension (Stripe sets a test clock only at creation): lets a test put an existing customer on a clock.
    const clock = str(b, 'test_clock');
    if (clock) customer.test_clock = state.testClocks[clock] ? clock : customer.test_clock;
    Object.assign(customer.metadata, meta(b.metadata));
    if (str(b, 'email')) customer.email = str(b, 'email') ?? null;
    deps.changed();
    return c.json(customer);
  });

  // Payment methods
  const methodsOf = (customer: string) => Object.values(state.paymentMethods).filter((pm) => pm.customer === customer)
    .sort((a, b) => b.created - a.created).map(publicPaymentMethod);
  app.get('/v1/customers/:id/payment_methods', (c) => c.json(list(c.req.path, methodsOf(c.req.param('id')))));
  app.get('/v1/payment_methods', (c) => c.json(list(c.req.path, methodsOf(str(body(c), 'customer') ?? ''))));
  app.get('/v1/payment_methods/:id', (c) => {
    const pm = state.paymentMethods[c.req.param('id')];
    return pm ? c.json(publicPaymentMethod(pm)) : stripeError(c, 404, `No such PaymentMethod: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });
  app.post('/v1/payment_methods/:id/detach', (c) => {
    const pm = state.paymentMethods[c.req.param('id')];
    if (!pm) return stripeError(c, 404, `No such PaymentMethod: '${c.req.param('id')}'`, { code: 'resource_missing' });
    if (!pm.customer) return stripeError(c, 400, 'The payment method you provided is not attached to a customer so detachment is impossible.');
    return c.json(engine.detach(pm));
  });

  // Products and prices (the setup script creates them from the plan catalog)
  app.post('/v1/products', (c) => {
    const b = body(c);
    const name = str(b, 'name');
    if (!name) return stripeError(c, 400, 'Missing required param: name.', { param: 'name' });
    const product = { id: newId('prod'), object: 'product' as const, created: Math.floor(Date.now() / 1000), livemode: false as const,
      name, active: true, metadata: meta(b.metadata) };
    state.products[product.id] = product;
    deps.changed();
    return c.json(product);
  });
  app.get('/v1/products', (c) => c.json(list(c.req.path, Object.values(state.products))));
  app.post('/v1/prices', (c) => {
    const b = body(c);
    const product = str(b, 'product');
    const amount = Number(str(b, 'unit_amount'));
    const interval = str(b, 'recurring', 'interval');
    if (!product || !state.products[product]) return stripeError(c, 400, `No such product: '${product ?? ''}'`, { param: 'product' });
    if (!Number.isInteger(amount) || amount < 0) return stripeError(c, 400, 'Invalid integer: unit_amount.', { param: 'unit_amount' });
    if (interval !== 'year' && interval !== 'month') return stripeError(c, 400, 'Invalid recurring[interval].', { param: 'recurring[interval]' });
    const lookupKey = str(b, 'lookup_key') ?? null;
    if (lookupKey && str(b, 'transfer_lookup_key') === 'true') {
      for (const other of Object.values(state.prices)) if (other.lookup_key === lookupKey) other.lookup_key = null;
    } else if (lookupKey && Object.values(state.prices).some((p) => p.lookup_key === lookupKey)) {
      return stripeError(c, 400, `A price (\`${lookupKey}\`) already uses that lookup key.`, { param: 'lookup_key' });
    }
    const price = { id: newId('price'), object: 'price' as const, created: Math.floor(Date.now() / 1000), livemode: false as const,
      active: true, type: 'recurring' as const, product, unit_amount: amount, currency: str(b, 'currency') ?? 'usd',
      lookup_key: lookupKey, recurring: { interval: interval as 'year' | 'month', interval_count: 1 as const }, metadata: meta(b.metadata) };
    state.prices[price.id] = price;
    deps.changed();
    return c.json(price);
  });
  app.get('/v1/prices', (c) => {
    const keys = arr(body(c).lookup_keys);
    const prices = Object.values(state.prices).filter((p) => p.active && (keys.length === 0 || (p.lookup_key && keys.includes(p.lookup_key))));
    return c.json(list(c.req.path, prices));
  });
  app.get('/v1/prices/:id', (c) => {
    const price = state.prices[c.req.param('id')];
    return price ? c.json(price) : stripeError(c, 404, `No such price: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });

  // Checkout
  app.post('/v1/checkout/sessions', (c) => {
    const b = body(c);
    const customer = str(b, 'customer');
    const mode = str(b, 'mode');
    const successUrl = str(b, 'success_url');
    if (!customer || !state.customers[customer]) return stripeError(c, 400, `No such customer: '${customer ?? ''}'`, { param: 'customer' });
    if (mode !== 'subscription' && mode !== 'setup') return stripeError(c, 400, 'Invalid mode: must be subscription or setup.', { param: 'mode' });
    if (!successUrl || !/^https?:\/\//.test(successUrl)) return stripeError(c, 400, 'Not a valid URL', { param: 'success_url' });
    const price = str(b, 'line_items', 0, 'price');
    if (mode === 'subscription' && (!price || !state.prices[price])) return stripeError(c, 400, `No such price: '${price ?? ''}'`, { param: 'line_items[0][price]' });
    const trial = Number(str(b, 'subscription_data', 'trial_period_days') ?? 0);
    const id = newId('cs_test');
    const now = Math.floor(Date.now() / 1000);
    const session: ProviderState['checkoutSessions'][string] = {
      id, object: 'checkout.session' as const, created: now, livemode: false as const, expires_at: now + 86_400,
      mode: mode as 'subscription' | 'setup', customer, status: 'open' as const, payment_status: 'unpaid' as const, subscription: null, setup_intent: null,
      url: `${deps.baseUrl()}/checkout/${id}`, success_url: successUrl, cancel_url: str(b, 'cancel_url') ?? null,
      client_reference_id: str(b, 'client_reference_id') ?? null, metadata: meta(b.metadata),
      _price: price ?? null, _trial_days: trial > 0 ? trial : null,
      _subscription_metadata: meta(b.subscription_data && typeof b.subscription_data === 'object' && !Array.isArray(b.subscription_data) ? b.subscription_data.metadata : undefined),
    };
    state.checkoutSessions[id] = session;
    deps.changed();
    return c.json(publicSession(session));
  });
  app.get('/v1/checkout/sessions/:id', (c) => {
    const session = state.checkoutSessions[c.req.param('id')];
    if (!session) return stripeError(c, 404, `No such checkout.session: '${c.req.param('id')}'`, { code: 'resource_missing' });
    return c.json(expand(publicSession(session), arr(body(c).expand)));
  });

  // Subscriptions
  app.get('/v1/subscriptions', (c) => {
    const b = body(c);
    const customer = str(b, 'customer');
    const status = str(b, 'status');
    const subs = Object.values(state.subscriptions)
      .filter((s) => (!customer || s.customer === customer) && (status === 'all' || (status ? s.status === status : s.status !== 'canceled')))
      .sort((x, y) => y.created - x.created).map(publicSubscription);
    return c.json(list(c.req.path, subs));
  });
  app.get('/v1/subscriptions/:id', (c) => {
    const sub = state.subscriptions[c.req.param('id')];
    return sub ? c.json(expand(publicSubscription(sub), arr(body(c).expand)))
      : stripeError(c, 404, `No such subscription: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });
  app.post('/v1/subscriptions/:id', (c) => {
    const sub = state.subscriptions[c.req.param('id')];
    if (!sub) return stripeError(c, 404, `No such subscription: '${c.req.param('id')}'`, { code: 'resource_missing' });
    if (sub.status === 'canceled') return stripeError(c, 400, 'A canceled subscription can only update its cancellation_details and metadata.');
    const b = body(c);
    const cancel = str(b, 'cancel_at_period_end');
    engine.update(sub, {
      price: str(b, 'items', 0, 'price'), proration: str(b, 'proration_behavior') ?? 'create_prorations',
      paymentBehavior: str(b, 'payment_behavior'), cancelAtPeriodEnd: cancel === undefined ? undefined : cancel === 'true',
      metadata: b.metadata ? meta(b.metadata) : undefined, defaultPaymentMethod: str(b, 'default_payment_method'),
    });
    return c.json(publicSubscription(sub));
  });
  app.delete('/v1/subscriptions/:id', (c) => {
    const sub = state.subscriptions[c.req.param('id')];
    if (!sub) return stripeError(c, 404, `No such subscription: '${c.req.param('id')}'`, { code: 'resource_missing' });
    engine.cancelNow(sub);
    return c.json(publicSubscription(sub));
  });

  // Invoices
  app.get('/v1/invoices', (c) => {
    const b = body(c);
    const customer = str(b, 'customer');
    const subscription = str(b, 'subscription');
    const invoices = Object.values(state.invoices)
      .filter((i) => (!customer || i.customer === customer) && (!subscription || i.parent?.subscription_details.subscription === subscription))
      .sort((x, y) => y.created - x.created);
    return c.json(list(c.req.path, invoices));
  });
  // The invoice a subscription change would make (amount due now), without changing anything.
  app.post('/v1/invoices/create_preview', (c) => {
    const b = body(c);
    const sub = state.subscriptions[str(b, 'subscription') ?? ''];
    if (!sub) return stripeError(c, 400, `No such subscription: '${str(b, 'subscription') ?? ''}'`, { param: 'subscription' });
    const price = str(b, 'subscription_details', 'items', 0, 'price') ?? sub.items.data[0]?.price.id ?? '';
    const amount = engine.previewChange(sub, price, str(b, 'subscription_details', 'proration_behavior') ?? 'create_prorations');
    return c.json({ object: 'invoice', id: null, customer: sub.customer, currency: sub.currency, amount_due: amount, total: amount,
      subtotal: amount, status: 'draft', livemode: false, lines: { object: 'list', data: [], has_more: false, url: '/v1/invoices/upcoming/lines' } });
  });
  app.get('/v1/invoices/:id', (c) => {
    const invoice = state.invoices[c.req.param('id')];
    return invoice ? c.json(invoice) : stripeError(c, 404, `No such invoice: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });

  // Credit notes: how an invoice is refunded (refund_amount goes back to the card).
  app.post('/v1/credit_notes', (c) => {
    const b = body(c);
    const invoice = state.invoices[str(b, 'invoice') ?? ''];
    if (!invoice) return stripeError(c, 404, `No such invoice: '${str(b, 'invoice') ?? ''}'`, { code: 'resource_missing', param: 'invoice' });
    const amount = Number(str(b, 'amount'));
    const refund = Number(str(b, 'refund_amount') ?? amount);
    return c.json(engine.creditNote(invoice, amount, refund, str(b, 'reason') ?? null));
  });

  // Customer portal
  app.post('/v1/billing_portal/sessions', (c) => {
    const b = body(c);
    const customer = str(b, 'customer');
    if (!customer || !state.customers[customer]) return stripeError(c, 400, `No such customer: '${customer ?? ''}'`, { param: 'customer' });
    const id = newId('bps');
    const session = { id, object: 'billing_portal.session' as const, created: Math.floor(Date.now() / 1000), livemode: false as const,
      customer, return_url: str(b, 'return_url') ?? deps.baseUrl(), url: `${deps.baseUrl()}/portal/${id}` };
    state.portalSessions[id] = session;
    deps.changed();
    return c.json(session);
  });

  // Test clocks
  app.post('/v1/test_helpers/test_clocks', (c) => {
    const b = body(c);
    const frozen = Number(str(b, 'frozen_time'));
    if (!Number.isInteger(frozen)) return stripeError(c, 400, 'Missing required param: frozen_time.', { param: 'frozen_time' });
    const clock = { id: newId('clock'), object: 'test_clock' as const, created: Math.floor(Date.now() / 1000), livemode: false as const,
      frozen_time: frozen, name: str(b, 'name') ?? null, status: 'ready' as const };
    state.testClocks[clock.id] = clock;
    deps.changed();
    return c.json(clock);
  });
  app.get('/v1/test_helpers/test_clocks/:id', (c) => {
    const clock = state.testClocks[c.req.param('id')];
    return clock ? c.json(clock) : stripeError(c, 404, `No such test clock: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });
  app.post('/v1/test_helpers/test_clocks/:id/advance', (c) => {
    const to = Number(str(body(c), 'frozen_time'));
    if (!Number.isInteger(to)) return stripeError(c, 400, 'Missing required param: frozen_time.', { param: 'frozen_time' });
    engine.advance(c.req.param('id'), to);
    return c.json(state.testClocks[c.req.param('id')]);
  });

  // Events and webhook endpoints
  app.get('/v1/events/:id', (c) => {
    const event = state.events.find((e: StripeEvent) => e.id === c.req.param('id'));
    return event ? c.json(event) : stripeError(c, 404, `No such event: '${c.req.param('id')}'`, { code: 'resource_missing' });
  });
  app.get('/v1/webhook_endpoints', (c) => c.json(list(c.req.path, deps.endpoints.map(({ secret: _s, ...rest }) => rest))));
  app.post('/v1/webhook_endpoints', (c) => {
    const b = body(c);
    const url = str(b, 'url');
    if (!url || !/^https?:\/\//.test(url)) return stripeError(c, 400, 'Invalid URL: must be http or https.', { param: 'url' });
    const endpoint = { id: newId('we'), object: 'webhook_endpoint' as const, url, status: 'enabled' as const,
      secret: `whsec_${newId('x').slice(2)}`, enabled_events: arr(b.enabled_events).length ? arr(b.enabled_events) : ['*'] };
    deps.endpoints.push(endpoint);
    return c.json(endpoint);
  });

  app.all('/v1/*', (c) => stripeError(c, 404, `Unrecognized request URL (${c.req.method}: ${c.req.path}). The local test provider implements only the endpoints Storewise uses.`));
  return app;
}
