/**
 * The local Storewise stack from the command line:
 *   start   the stack (API :54321, inbox :54324, test payments :54330) and the built web app (:5173)   (npm start)
 *   status  API_URL, ANON_KEY, SERVICE_ROLE_KEY, INBOX_URL for the default data folder (npm run status)
 *   dev     the stack plus Vite's dev server with hot reload                       (npm run dev)
 */
import { serve, type ServerType } from '@hono/node-server';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readDemoAccounts } from './cli/demo-accounts';
import { createWebApp } from './cli/web-server';
import { defaultDataDir, repoRoot } from './db/paths';
import { DataDirLockedError } from './db/lock-file';
import { deriveApiKeys } from './keys/api-keys';
import { loadJwtSecret } from './keys/jwt-secret';
import { logUnexpected } from './log-unexpected';
import { startLocalStack, type RunningStack } from './server';

const quiet = process.env.STOREWISE_QUIET === '1';
const say = (line = '') => {
  if (!quiet) console.log(line);
};

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    memory: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    'api-port': { type: 'string', default: '54321' },
    'inbox-port': { type: 'string', default: '54324' },
    'payments-port': { type: 'string', default: '54330' },
    'web-port': { type: 'string', default: '5173' },
    'web-dir': { type: 'string', default: 'dist/web' },
    'desktop-dir': { type: 'string', default: 'out/renderer' },
  },
});

function port(name: 'api-port' | 'inbox-port' | 'web-port' | 'payments-port'): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`Storewise: --${name} must be a port number`);
  return value;
}

async function startStackFromArgs(webPort: number): Promise<RunningStack> {
  const webOrigin = `http://127.0.0.1:${webPort}`;
  return startLocalStack({
    memory: values.memory,
    dataDir: resolve(values['data-dir'] ?? defaultDataDir),
    apiPort: port('api-port'),
    inboxPort: port('inbox-port'),
    paymentsPort: port('payments-port'),
    siteUrl: webOrigin,
    // The Vite dev server may be reached as localhost too.
    extraOrigins: [`http://localhost:${webPort}`],
    // Edge Functions (billing) answer the first click without Deno's start-up pause.
    warmFunctions: true,
  });
}

function printBanner(stack: RunningStack, webUrl: string): void {
  if (quiet) {
    console.log(`Storewise is running at ${webUrl} (API ${stack.apiUrl}, inbox ${stack.inboxUrl})`);
    return;
  }
  say('');
  say('Storewise local stack is running');
  say(`  Web app     ${webUrl}`);
  say(`  API         ${stack.apiUrl}   (/auth/v1, /rest/v1, /storage/v1, /realtime/v1, /functions/v1)`);
  say(stack.payments
    ? `  Payments    ${stack.payments.url}   (TEST MODE local stand-in for Stripe; test card 4242 4242 4242 4242)`
    : '  Payments    Stripe (STRIPE_SECRET_KEY is set)');
  say(`  Inbox       ${stack.inboxUrl}   (every email the stack sends)`);
  say(`  Database    ${stack.db.kind} (${stack.db.location})`);
  say(`  Emails      ${stack.authConfig.autoconfirm ? 'auto-confirmed (STOREWISE_AUTOCONFIRM=1)' : 'confirmation required (STOREWISE_AUTOCONFIRM=1 to skip)'}`);
  const accounts = readDemoAccounts();
  if (accounts.length > 0) {
    say('');
    say('Demo accounts');
    for (const account of accounts) say(`  ${account.email.padEnd(26)} ${account.password.padEnd(18)} ${account.description}`);
  }
  say('');
  say('Keys: npm run status    Stop: Ctrl-C');
}

function listenWeb(app: { fetch: (request: Request, env: unknown) => Response | Promise<Response> }, webPort: number) {
  return new Promise<ServerType>((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: webPort }, () => resolvePromise(server));
    server.once('error', reject);
  });
}

function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`\nStorewise: ${signal}, stopping...`);
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logUnexpected('Storewise: stopping failed', error);
        process.exit(1);
      });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

async function start(): Promise<void> {
  const webPort = port('web-port');
  const stack = await startStackFromArgs(webPort);
  let web: ServerType | undefined;
  try {
    web = await listenWeb(
      createWebApp({
        apiUrl: stack.apiUrl,
        anonKey: stack.anonKey,
        webDir: resolve(values['web-dir'] ?? 'dist/web'),
        desktopDir: resolve(values['desktop-dir'] ?? 'out/renderer'),
      }),
      webPort,
    );
  } catch (error) {
    await stack.stop();
    throw error;
  }
  const webServer = web;
  printBanner(stack, `http://127.0.0.1:${webPort}`);
  onShutdown(async () => {
    if ('closeAllConnections' in webServer) webServer.closeAllConnections();
    await new Promise<void>((done) => webServer.close(() => done()));
    await stack.stop();
  });
}

async function status(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir);
  const keys = await deriveApiKeys(loadJwtSecret(databaseUrl ? undefined : dataDir));
  const lines = {
    API_URL: `http://127.0.0.1:${port('api-port')}`,
    ANON_KEY: keys.anonKey,
    SERVICE_ROLE_KEY: keys.serviceRoleKey,
    INBOX_URL: `http://127.0.0.1:${port('inbox-port')}`,
    DB_KIND: databaseUrl ? 'postgres' : 'pglite',
    DATA_DIR: databaseUrl ? '' : dataDir,
  };
  for (const [key, value] of Object.entries(lines)) console.log(`${key}="${value}"`);
}

async function dev(): Promise<void> {
  const webPort = port('web-port');
  const stack = await startStackFromArgs(webPort);
  const { createServer } = await import('vite');
  const config = { url: stack.apiUrl, anonKey: stack.anonKey };
  const vite = await createServer({
    configFile: resolve(repoRoot, 'vite.config.ts'),
    server: { host: '127.0.0.1', port: webPort, strictPort: true },
    plugins: [
      {
        name: 'storewise-local-config',
        configureServer(server) {
          server.middlewares.use('/config.json', (_req, res) => {
            res.setHeader('content-type', 'application/json');
            res.setHeader('cache-control', 'no-store');
            res.end(JSON.stringify(config));
          });
        },
      },
    ],
  });
  await vite.listen();
  printBanner(stack, `http://127.0.0.1:${webPort}`);
  onShutdown(async () => {
    await vite.close();
    await stack.stop();
  });
}

const commands: Record<string, () => Promise<void>> = { start, status, dev };
const command = commands[positionals[0] ?? ''];
if (!command) {
  console.error('Usage: tsx supabase/local/cli.ts start|status|dev [--memory] [--data-dir D] [--api-port N] [--inbox-port N] [--web-port N] [--web-dir D] [--desktop-dir D]');
  process.exit(2);
}
command().catch((error: unknown) => {
  if (error instanceof DataDirLockedError) console.error(error.message);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Storewise: a port is already in use (${(error as Error).message}). Is Storewise already running? Use --api-port/--web-port/--inbox-port.`);
  } else logUnexpected('Storewise: could not start', error);
  process.exit(1);
});

