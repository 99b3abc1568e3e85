/**
 * Storewise's local payment provider: a stand-in for Stripe in test mode, for `npm start` and the tests
 * (payment networks cannot run here). It speaks the part of Stripe's REST API the billing module uses, so the
 * official `stripe` client talks to it unchanged (`new Stripe(key, { host, port, protocol: 'http' })`), serves
 * labelled Checkout and portal pages with Stripe's test cards, signs webhooks exactly as Stripe does, and has
 * test clocks. State is one JSON file beside the database, so a restart keeps customers and subscriptions.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Hono } from 'hono';
import { createPaymentsApi } from './api-app';
import { BillingEngine } from './engine';
import { emptyState, newId, type ProviderState, type StripeEvent, type WebhookEndpoint } from './objects';
import { createPaymentPages } from './pages';
import { WebhookDispatcher } from './webhooks';

/** The API version the pinned `stripe` client sends (node_modules/stripe/esm/apiVersion.js). */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface LocalPaymentsOptions {
  secretKey: string;
  webhook?: { url: string; secret: string };
  /** JSON file for the state; none keeps it in memory. */
  file?: string;
  baseUrl: () => string;
  log?: (line: string) => void;
}

export interface LocalPayments {
  app: Hono;
  state: ProviderState;
  engine: BillingEngine;
  dispatcher: WebhookDispatcher;
  endpoints: WebhookEndpoint[];
  /** Resolves once every webhook queued so far has been delivered (or given up). */
  idle(): Promise<void>;
  /** Simulates an outage: every API call answers 503 until set back (tests of "the provider is down"). */
  setOutage(down: boolean): void;
  stop(): Promise<void>;
}

function load(file: string | undefined): ProviderState {
  if (!file || !existsSync(file)) return emptyState();
  return { ...emptyState(), ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<ProviderState>) };
}

export function createLocalPayments(options: LocalPaymentsOptions): LocalPayments {
  const log = options.log ?? ((line: string) => console.error(line));
  const state = load(options.file);
  const endpoints: WebhookEndpoint[] = options.webhook
    ? [{ id: 'we_local', object: 'webhook_endpoint', url: options.webhook.url, secret: options.webhook.secret, enabled_events: ['*'], status: 'enabled' }]
    : [];
  const dispatcher = new WebhookDispatcher(() => endpoints, log);
  let writeTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (!options.file) return;
    mkdirSync(dirname(options.file), { recursive: true });
    // Only the last 500 events are kept (Stripe keeps 30 days); a crash mid-write leaves the old file.
    state.events = state.events.slice(-500);
    writeFileSync(`${options.file}.tmp`, JSON.stringify(state));
    renameSync(`${options.file}.tmp`, options.file);
  };
  const changed = () => {
    if (!options.file || writeTimer) return;
    writeTimer = setTimeout(() => { writeTimer = undefined; flush(); }, 200);
  };
  const emit = (type: string, object: unknown, previous?: Record<string, unknown>) => {
    const event: StripeEvent = {
      id: newId('evt'), object: 'event', created: Math.floor(Date.now() / 1000), livemode: false,
      api_version: STRIPE_API_VERSION, pending_webhooks: endpoints.length, type,
      data: previous ? { object: structuredClone(object), previous_attributes: structuredClone(previous) } : { object: structuredClone(object) },
      request: { id: null, idempotency_key: null },
    };
    state.events.push(event);
    dispatcher.enqueue(event);
    changed();
  };
  const engine = new BillingEngine({ state, baseUrl: options.baseUrl, emit, changed });
  const app = new Hono();
  let down = false;
  app.use('/v1/*', async (c, next) => {
    if (down) return c.json({ error: { type: 'api_error', message: 'The local test provider is simulating an outage.' } }, 503);
    await next();
  });
  app.route('/', createPaymentsApi({ state, engine, secretKey: options.secretKey, baseUrl: options.baseUrl, endpoints, changed }));
  app.route('/', createPaymentPages(state, engine, changed));
  app.get('/', (c) => c.text('Storewise local payment provider (TEST MODE stand-in for Stripe). API at /v1.'));
  return {
    app, state, engine, dispatcher, endpoints,
    idle: () => dispatcher.idle(),
    setOutage: (value) => { down = value; },
    async stop() {
      dispatcher.stop();
      if (writeTimer) clearTimeout(writeTimer);
      flush();
    },
  };
}
