/**
 * Local stack benchmark: starts the stack in a child process (PGlite in memory; then PostgreSQL when
 * DATABASE_URL is set) and drives it over loopback with autocannon from this process: password sign-in,
 * token refresh (real rotation, one token chain per connection), a dashboard select alone and under 10
 * concurrent sign-ins (side by side, issue 10 finding 7), and a ticket insert.
 * Rate limits are raised in the child so the limiter does not cap the figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ChildReady {
  apiUrl: string;
  anonKey: string;
  kind: string;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

// autocannon ships no types; the shape used here is declared above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const owner1 = { email: 'owner1@storewise.local', password: 'storewise-owner', id: '22222222-2222-4222-8222-222222222222' };

function startChild(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; ready: ChildReady }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line) resolve({ child, ready: JSON.parse(line) as ChildReady });
    });
    child.on('exit', (code) => reject(new Error(`stack child exited with ${code}`)));
  });
}

async function signIn(ready: ChildReady): Promise<{ access_token: string; refresh_token: string }> {
  const response = await fetch(`${ready.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ready.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: owner1.email, password: owner1.password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

function report(name: string, result: AutocannonResult): void {
  const failed = result.non2xx + result.errors;
  console.log(
    `${name.padEnd(26)} ${result.requests.average.toFixed(1).padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(5)} ms   p99 ${String(result.latency.p99).padStart(5)} ms` +
      (failed ? `   (${failed} failed of ${result.requests.total})` : ''),
  );
}

async function runCases(ready: ChildReady): Promise<void> {
  const base = { apikey: ready.anonKey, 'content-type': 'application/json' };
  console.log(`\nStorewise local stack on ${ready.kind} (${CONNECTIONS} connections, ${DURATION} s per case)`);

  // bcrypt (cost 10, pure JS) dominates sign-in: fewer connections and a longer run give stable figures.
  report(
    'password sign-in',
    await autocannon({
      url: ready.apiUrl,
      connections: 4,
      duration: DURATION * 2,
      requests: [{ method: 'POST', path: '/auth/v1/token?grant_type=password', headers: base, body: JSON.stringify({ email: owner1.email, password: owner1.password }) }],
    }),
  );

  const pool: string[] = [];
  for (let i = 0; i < CONNECTIONS; i += 1) pool.push((await signIn(ready)).refresh_token);
  report(
    'token refresh (rotation)',
    await autocannon({
      url: ready.apiUrl,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          path: '/auth/v1/token?grant_type=refresh_token',
          headers: base,
          // autocannon resets the per-connection context between iterations, so the token chains live
          // in a shared queue: a request takes one, its response puts the rotated successor back.
          setupRequest: (request, context) => {
            context.token = pool.shift();
            return { ...request, body: JSON.stringify({ refresh_token: context.token }) };
          },
          onResponse: (status, body) => {
            if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
      ],
    }),
  );

  const session = await signIn(ready);
  const asOwner = { ...base, authorization: `Bearer ${session.access_token}` };
  const select = () =>
    autocannon({
      url: ready.apiUrl,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [{ method: 'GET', path: `/rest/v1/billing_history?select=*&user_id=eq.${owner1.id}&order=date.desc&limit=2`, headers: asOwner }],
    });
  const alone = await select();
  report('dashboard select', alone);

  // Issue 10, finding 7: bcrypt must not starve the data API. The same select while 10 sign-ins run
  // without pause (hashing happens on worker threads, not the HTTP/database thread).
  const [mixed, signIns] = await Promise.all([
    select(),
    autocannon({
      url: ready.apiUrl,
      connections: 10,
      duration: DURATION,
      requests: [{ method: 'POST', path: '/auth/v1/token?grant_type=password', headers: base, body: JSON.stringify({ email: owner1.email, password: owner1.password }) }],
    }),
  ]);
  console.log('\nSelect alone and under 10 concurrent sign-ins (target: p99 under 200 ms while sign-ins run):');
  console.log(`${''.padEnd(26)} ${'select req/s'.padStart(12)} ${'select p99'.padStart(11)} ${'sign-in req/s'.padStart(24)}`);
  const row = (name: string, result: AutocannonResult, signInRate: string) =>
    console.log(`${name.padEnd(26)} ${result.requests.average.toFixed(1).padStart(12)} ${`${result.latency.p99} ms`.padStart(11)} ${signInRate.padStart(24)}`);
  row('alone', alone, '-');
  // Completed sign-ins over the run: autocannon's per-second average rounds a slow trickle down to 0.
  row('with 10 sign-ins', mixed, `${(signIns.requests.total / DURATION).toFixed(1)} (p99 ${signIns.latency.p99} ms)`);
  const failed = mixed.non2xx + mixed.errors + signIns.non2xx + signIns.errors;
  if (failed) console.log(`  (${failed} requests failed)`);
  console.log(`  p99 target ${mixed.latency.p99 < 200 ? 'met' : 'NOT met'} (${mixed.latency.p99} ms)\n`);
  report(
    'ticket insert',
    await autocannon({
      url: ready.apiUrl,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          path: '/rest/v1/support_tickets',
          headers: { ...asOwner, prefer: 'return=minimal' },
          body: JSON.stringify({ user_id: owner1.id, subject: 'Bench ticket', message: 'Load test ticket body' }),
        },
      ],
    }),
  );
}

async function main(): Promise<void> {
  const runs: NodeJS.ProcessEnv[] = [{ ...process.env, DATABASE_URL: '' }];
  if (process.env.DATABASE_URL) runs.push({ ...process.env });
  for (const env of runs) {
    const { child, ready } = await startChild(env);
    try {
      await runCases(ready);
    } finally {
      child.kill('SIGTERM');
    }
  }
}

async function serve(): Promise<void> {
  // Child: run the stack until killed, with limits far above what the bench sends.
  const { startLocalStack } = await import('../supabase/local/server');
  const stack = await startLocalStack({
    memory: !process.env.DATABASE_URL,
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    apiPort: 0,
    inboxPort: 0,
    auth: { rateLimits: { windowSeconds: 300, token: 10_000_000, signupRecover: 10_000_000, verify: 10_000_000 } },
  });
  process.stdout.write(`${JSON.stringify({ apiUrl: stack.apiUrl, anonKey: stack.anonKey, kind: stack.db.kind } satisfies ChildReady)}\n`);
  process.on('SIGTERM', () => void stack.stop().then(() => process.exit(0)));
}

// Dispatch last: the constants above must be initialised before either side runs.
if (process.argv[2] === '--serve') await serve();
else await main();
