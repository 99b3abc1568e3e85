import { join } from 'node:path';
import type { Server as HttpServer } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createGateway } from './gateway/gateway-app';
import { defaultAuthConfig, desktopOrigin, type AuthConfig } from './config';
import { openDb, type OpenedDb, type OpenDbOptions } from './db/open-db';
import { startAutoAnalyze, vacuumBeforeServing } from './db/auto-analyze';
import { deriveApiKeys, type ApiKeys } from './keys/api-keys';
import { loadJwtSecret } from './keys/jwt-secret';
import { RateLimiter } from './auth/rate-limiter';
import { createInboxApp } from './mail/inbox-app';
import { Mailbox } from './mail/mailbox';
import { emailSenderFromDb } from './mail/email-sender';
import { createMailer, type Mailer } from './mail/mailer';
import { startOutboxRelay } from './mail/outbox-relay';
import { startDeletionSchedule } from './deletion-schedule';
import { smtpRelayFromEnv } from './mail/smtp-relay';
import { defaultDataDir, repoRoot } from './db/paths';
import { allowedHostNames } from './gateway/host-check';
import type { HeavyCallGateOptions } from './rest/heavy-calls';
import { DenoRunner } from './functions/deno-runner';
import { discoverFunctions } from './functions/function-config';
import { functionEnv, paymentKeys } from './functions/function-env';
import { createLocalPayments, type LocalPayments } from './payments/provider';
import Stripe from 'stripe';
import { ensurePlanPrices } from '../../scripts/billing-prices';
import { startStorageService, type StorageService } from './storage/storage-service';
import { sendWithFileBodies } from './storage/direct-file-body';
import { startRealtime, type RealtimeServer } from './realtime/realtime-server';
import type { RealtimeLimits } from './realtime/socket-session';

export interface StackOptions extends OpenDbOptions {
  host?: string;
  /** 0 picks a free port. */
  apiPort?: number;
  inboxPort?: number;
  /** The web app's origin: site URL for auth redirects and a CORS origin. */
  siteUrl?: string;
  auth?: Partial<AuthConfig>;
  /** Overrides STOREWISE_JWT_SECRET and the data folder's secret. */
  jwtSecret?: string;
  extraOrigins?: string[];
  /** Host names served besides loopback and the site URL's (STOREWISE_ALLOWED_HOSTS adds more). */
  allowedHosts?: string[];
  maxBodyBytes?: number;
  /** Deliver public.email_outbox rows to the inbox (default true; tests of another deliverer turn it off). */
  outboxRelay?: boolean;
  /** Run the business deletions' daily schedules (default true; deletion-schedule.ts). */
  deletionSchedule?: boolean;
  /** The per-user limit on heavy data-API calls (rest/heavy-calls.ts). */
  heavyCalls?: HeavyCallGateOptions;
  /** The local payment provider's port (0 picks a free one); default 54330, or a free one when apiPort is 0. */
  paymentsPort?: number;
  /** Start every Edge Function's Deno process now instead of on its first request (`npm start` does). */
  warmFunctions?: boolean;
  /** Where the functions' log lines go (default stderr, as `supabase functions serve` prints them). */
  functionLog?: (line: string) => void;
  /** Storage's files (default <data folder>/storage; a temporary folder for in-memory stacks). */
  storageDir?: string;
  /** Storage's upload limit in bytes (default 50 MB). */
  storageMaxFileSize?: number;
  /** Realtime's per-socket limits (tests shorten the idle timeout). */
  realtime?: Partial<RealtimeLimits>;
}

export interface RunningStack extends ApiKeys {
  apiUrl: string;
  inboxUrl: string;
  jwtSecret: string;
  db: OpenedDb;
  mailbox: Mailbox;
  /** What every local email goes through (the inbox, the SMTP relay when set), with the admin's sender (ADR 0281). */
  mailer: Mailer;
  authConfig: AuthConfig;
  /** The local payment provider (TEST MODE stand-in for Stripe), unless STRIPE_SECRET_KEY points at real Stripe. */
  payments?: LocalPayments & { url: string; secretKey: string; webhookSecret: string };
  /** The embedded Storage service (/storage/v1). */
  storage: StorageService;
  /** Realtime at /realtime/v1/websocket of apiUrl. */
  realtime: RealtimeServer;
  stop(): Promise<void>;
}

function listen(app: { fetch: (request: Request, env: unknown) => Response | Promise<Response> }, host: string, port: number) {
  return new Promise<{ server: ServerType; port: number }>((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => resolve({ server, port: info.port }));
    server.once('error', reject);
  });
}

function close(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    // Keep-alive connections would hold close() open; end them.
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Starts the database, the API gateway (/auth/v1, /rest/v1) and the inbox. */
export async function startLocalStack(options: StackOptions = {}): Promise<RunningStack> {
  const host = options.host ?? '127.0.0.1';
  const siteUrl = options.siteUrl ?? 'http://127.0.0.1:5173';
  const dataDir = options.memory || options.databaseUrl ? undefined : (options.dataDir ?? defaultDataDir);
  const jwtSecret = options.jwtSecret ?? loadJwtSecret(dataDir);
  const keys = await deriveApiKeys(jwtSecret);
  const db = await openDb(options);
  // A data folder's dead rows from its last run (PGlite has no autovacuum; see auto-analyze.ts), before anyone waits.
  if (dataDir) await vacuumBeforeServing(db);
  const authConfig: AuthConfig = { ...defaultAuthConfig(siteUrl), ...options.auth };
  const mailbox = new Mailbox(1000, dataDir ? join(dataDir, 'mailbox.json') : undefined);
  const mailer = createMailer(mailbox, smtpRelayFromEnv(), undefined, () => emailSenderFromDb(db));
  let apiUrl = '';
  const allowedOrigins = [new URL(siteUrl).origin, desktopOrigin, ...(options.extraOrigins ?? [])];
  // DNS rebinding: loopback, the site URL's and bind address's hosts, STOREWISE_ALLOWED_HOSTS.
  const allowedHosts = allowedHostNames([...allowedOrigins, host, ...(options.allowedHosts ?? [])]);
  // Edge Functions under Deno with hosted Supabase's environment; Stripe is the local provider unless the
  // environment names a real Stripe account (STRIPE_SECRET_KEY).
  const realStripe = Boolean(process.env.STRIPE_SECRET_KEY);
  const keysForPayments = realStripe ? undefined : paymentKeys(jwtSecret);
  let paymentsUrl = '';
  const functionList = discoverFunctions(join(repoRoot, 'supabase', 'functions'), join(repoRoot, 'supabase', 'config.toml'));
  const runner = new DenoRunner(() => functionEnv({ apiUrl, siteUrl, keys, payments: keysForPayments && { ...keysForPayments, url: paymentsUrl } }),
    options.functionLog);
  const storageDir = options.storageDir ?? (options.memory ? undefined : join(options.dataDir ?? defaultDataDir, 'storage'));
  const storage = startStorageService({
    db,
    jwtSecret,
    ...(storageDir ? { dir: storageDir } : {}),
    ...(options.storageMaxFileSize ? { maxFileSize: options.storageMaxFileSize } : {}),
  });
  const gateway = createGateway({
    storage: storage.app,
    functions: { list: functionList, runner },
    auth: { db, config: authConfig, jwtSecret, apiUrl: () => apiUrl, mailer, limiter: new RateLimiter() },
    keys,
    allowedOrigins,
    allowedHosts,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    ...(options.heavyCalls ? { heavyCalls: options.heavyCalls } : {}),
  });
  const servers: ServerType[] = [];
  let realtime: RealtimeServer | undefined;
  try {
    // Realtime rides on the API's port (/realtime/v1/websocket), as behind hosted Supabase's gateway.
    realtime = await startRealtime({ db, keys, jwtSecret, allowedHosts, ...(options.realtime ? { limits: options.realtime } : {}) });
    // Object downloads go from the file to the socket without the Web stream (storage/direct-file-body.ts).
    const api = await listen({ fetch: sendWithFileBodies(gateway.fetch) }, host, options.apiPort ?? 54321);
    servers.push(api.server);
    realtime.attach(api.server as HttpServer);
    apiUrl = `http://${host}:${api.port}`;
    const inbox = await listen(createInboxApp(mailbox, allowedHosts), host, options.inboxPort ?? 54324);
    servers.push(inbox.server);
    let payments: RunningStack['payments'];
    if (keysForPayments) {
      const provider = createLocalPayments({
        secretKey: keysForPayments.secretKey,
        webhook: { url: `${apiUrl}/functions/v1/billing-webhook`, secret: keysForPayments.webhookSecret },
        file: dataDir ? join(dataDir, 'payments.json') : undefined,
        baseUrl: () => paymentsUrl,
      });
      const listening = await listen(provider.app, host, options.paymentsPort ?? (options.apiPort === 0 ? 0 : 54330));
      servers.push(listening.server);
      paymentsUrl = `http://${host}:${listening.port}`;
      payments = { ...provider, url: paymentsUrl, ...keysForPayments };
      // The plan catalog's prices, as scripts/billing-setup.ts creates them on a real Stripe account.
      await ensurePlanPrices(new Stripe(keysForPayments.secretKey, { host, port: listening.port, protocol: 'http' }));
    }
    if (options.warmFunctions === true) {
      // Deno's start (a second or two) happens now instead of during someone's first checkout.
      for (const fn of functionList.values()) runner.portOf(fn).catch((error: unknown) => console.error(error instanceof Error ? error.message : error));
    }
    // Emails the database queues (support desk, docs/adr/0120).
    const outbox = options.outboxRelay === false ? { stop: async () => {} } : startOutboxRelay({ db, mailer, siteUrl, apiUrl });
    // PGlite has no autovacuum: the stack vacuums and analyzes tables as autovacuum would (auto-analyze.ts).
    const analyzer = startAutoAnalyze(db);
    // Business deletions: the hosted project's pg_cron schedules, here a task (deletion-schedule.ts).
    const deletions = options.deletionSchedule === false ? { stop: async () => {} } : startDeletionSchedule(db, () => apiUrl, keys.serviceRoleKey);
    let stopped: Promise<void> | undefined;
    return {
      ...keys,
      apiUrl,
      inboxUrl: `http://${host}:${inbox.port}`,
      jwtSecret,
      db,
      mailbox,
      mailer,
      authConfig,
      payments,
      storage,
      realtime,
      stop() {
        stopped ??= (async () => {
          await realtime?.stop();
          await runner.stop();
          await payments?.stop();
          await Promise.all(servers.map(close));
          await outbox.stop();
          await analyzer.stop();
          await deletions.stop();
          await storage.stop();
          // The inbox writes in the background; what is still pending goes to disk now.
          await mailbox.flush();
          await db.close();
        })();
        return stopped;
      },
    };
  } catch (error) {
    await realtime?.stop();
    await runner.stop();
    await Promise.all(servers.map(close));
    await storage.stop();
    await db.close();
    throw error;
  }
}
