/**
 * Realtime on PGlite (issue 28): 50 supabase-js clients subscribed over websockets (10 sessions of owner1, 5
 * clients each, as a busy back office of open tabs) while 10 registers sell through the data API (10 cashiers,
 * about one sale a second each).
 * - commit-to-screen latency of the `sales` INSERT at every subscribed client: p50/p95 of (received at the
 *   client - commit_timestamp). commit_timestamp is the commit's time (stamped as the transaction commits, as
 *   hosted takes it from the WAL), on the same machine's clock. Target p95 < 200 ms.
 * - the API's select p99 (a stock page read as the owner) under the same selling, without and then with the
 *   50 clients connected. Target: with clients within 20 % of without.
 * The stack runs in this process, as a server does; the registers with the select loop, and the 50 subscribed
 * clients, each run in a child process (their own JavaScript must not stand in the server's event loop). The
 * load average is printed with each phase: on a shared machine a figure means little above ~2 (2 cores).
 *
 *   npm run bench -- realtime        (STOREWISE_BENCH_SECONDS, default 10, per phase)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startLocalStack, type RunningStack } from '../supabase/local/server';
import { createNodeSupabaseClient } from '../tests/helpers/node-supabase-client';
import { percentile as p } from './lib/retail-bench';

const SECONDS = Number(process.env.STOREWISE_BENCH_SECONDS ?? '10');
const CLIENTS = 50;
const SESSIONS = 10;
const REGISTERS = 10;
const TARGET_P95_MS = 200;
const TARGET_SELECT_RATIO = 1.2;
const OWNER = { email: 'owner1@storewise.local', password: 'storewise-owner' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((value) => value.toFixed(2)).join(' / ');

async function signedIn(apiUrl: string, anonKey: string, email: string, password: string): Promise<SupabaseClient> {
  const client = createNodeSupabaseClient(apiUrl, anonKey);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`${email}: ${error.message}`);
  return client;
}

interface RegisterSpec { email: string; password: string; id: string; shift: string }
interface Item { id: string; price: number }
interface Job { apiUrl: string; anonKey: string; store: string; items: Item[]; registers: RegisterSpec[]; tokens: string[]; seconds: number }

// ---------------------------------------------------------------------------------------------------------------
// Child: the registers selling and the owner's select loop.
async function runLoad(job: Job): Promise<{ sold: number; selects: number[] }> {
  const registers = await Promise.all(job.registers.map(async (r) => ({ ...r, client: await signedIn(job.apiUrl, job.anonKey, r.email, r.password) })));
  const owner = await signedIn(job.apiUrl, job.anonKey, OWNER.email, OWNER.password);
  const until = Date.now() + job.seconds * 1000;
  const totals = new Map<string, number>();
  let sold = 0;
  const selling = Promise.all(registers.map(async (register, index) => {
    await sleep(index * 97);
    while (Date.now() < until) {
      const item = job.items[(sold + index) % job.items.length]!;
      // The total with the store's tax, as the database computes it (learnt from its answer the first time).
      const post = (amount: number) => register.client.rpc('post_sale', { _payload: {
        id: randomUUID(), register_id: register.id, shift_id: register.shift,
        lines: [{ variant_id: item.id, qty: 1, unit_price: item.price }],
        tenders: [{ kind: 'card', amount }],
      } });
      let { error } = await post(totals.get(item.id) ?? item.price);
      const total = Number(/the sale totals (\d+)/.exec(error?.message ?? '')?.[1] ?? NaN);
      if (error && Number.isFinite(total)) {
        totals.set(item.id, total);
        ({ error } = await post(total));
      }
      if (!error) sold += 1;
      else if (error.code !== '53300') throw new Error(error.message);
      await sleep(700 + Math.random() * 600);
    }
  }));
  const selects: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const { error } = await owner.from('stock_balances').select('variant_id, qty, updated_at').eq('store_id', job.store).order('variant_id').limit(50);
    if (error) throw new Error(error.message);
    selects.push(performance.now() - started);
    await sleep(20);
  }
  await selling;
  return { sold, selects };
}

// Child: the 50 subscribed clients; latencies are kept between 'measure' and 'stop'.
async function runSubscribers(job: Job, send: (message: unknown) => void, onMessage: (fn: (message: string) => void) => void): Promise<void> {
  const latencies: number[] = [];
  let measuring = false;
  const clients: SupabaseClient[] = [];
  await Promise.all(Array.from({ length: CLIENTS }, async (_, index) => {
    const client = createNodeSupabaseClient(job.apiUrl, job.anonKey);
    clients.push(client);
    await client.realtime.setAuth(job.tokens[index % job.tokens.length]!);
    const channel = client.channel(`bench-${index}`)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'sales', filter: `store_id=eq.${job.store}` }, (change) => {
        if (measuring) latencies.push(Date.now() - Date.parse(change.commit_timestamp));
      })
      .on('postgres_changes', { event: '*', schema: 'public', table: 'stock_balances', filter: `store_id=eq.${job.store}` }, () => {});
    await new Promise<void>((resolve, reject) => channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (error) reject(error);
    }));
  }));
  onMessage((message) => {
    if (message === 'measure') measuring = true;
    if (message === 'stop') {
      measuring = false;
      send({ latencies });
      void Promise.all(clients.map((client) => client.removeAllChannels())).finally(() => process.exit(0));
    }
  });
  send('ready');
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: the stack, the data, the phases.
function child(role: 'load' | 'subscribers', job: Job): { process: ChildProcess; next: () => Promise<unknown> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), `--${role}`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const inbox: unknown[] = [];
  const waiters: ((message: unknown) => void)[] = [];
  proc.on('message', (message) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  proc.on('exit', (code) => {
    if (code !== 0) for (const waiter of waiters.splice(0)) waiter({ error: `${role} child exited with ${code}` });
  });
  proc.send(job);
  const next = () => new Promise<unknown>((resolve) => {
    if (inbox.length > 0) resolve(inbox.shift());
    else waiters.push(resolve);
  }).then((message) => {
    if (message && typeof message === 'object' && 'error' in message) throw new Error(String((message as { error: unknown }).error));
    return message;
  });
  return { process: proc, next };
}

async function setUp(stack: RunningStack): Promise<Omit<Job, 'tokens' | 'seconds'>> {
  const db = stack.db;
  const [{ business = '', store = '' } = {}] = (await db.query<{ business: string; store: string }>(
    `select b.id as business, s.id as store from public.businesses b join public.stores s on s.business_id = b.id
      where b.owner_id = (select id from auth.users where email = $1) order by s.name limit 1`, [OWNER.email])).rows;
  const items = (await db.query<Item>(
    `select v.id, coalesce(sp.price, v.price)::int as price from public.variants v join public.products p on p.id = v.product_id
       left join public.store_prices sp on sp.variant_id = v.id and sp.store_id = $1
      where v.business_id = $2 and not p.has_lots and p.unit = 'each' and v.archived_at is null and p.archived_at is null
      order by v.sku limit 20`, [store, business])).rows;
  const service = createNodeSupabaseClient(stack.apiUrl, stack.serviceRoleKey);
  const registers: RegisterSpec[] = [];
  for (let i = 0; i < REGISTERS; i += 1) {
    const email = `bench-cashier-${i}-${randomUUID().slice(0, 6)}@bench.storewise.test`;
    const password = `Pw-${randomUUID()}`;
    const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { full_name: `Cashier ${i}` } });
    if (created.error || !created.data.user) throw new Error(created.error?.message ?? 'no user');
    await db.query(`insert into public.business_members (business_id, user_id, role, all_stores) values ($1, $2, 'cashier', true)`, [business, created.data.user.id]);
    const [{ id = '' } = {}] = (await db.query<{ id: string }>(
      `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
      [business, store, `Bench ${i}`, `RB${i}`])).rows;
    const client = await signedIn(stack.apiUrl, stack.anonKey, email, password);
    const shift = await client.rpc('open_shift', { _register_id: id, _opening_float: 0 });
    if (shift.error) throw new Error(shift.error.message);
    registers.push({ email, password, id, shift: (shift.data as { id: string }).id });
  }
  return { apiUrl: stack.apiUrl, anonKey: stack.anonKey, store, items, registers };
}

async function main(): Promise<void> {
  const stack = await startLocalStack({ memory: true, apiPort: 0, inboxPort: 0, paymentsPort: 0, outboxRelay: false });
  try {
    const base = await setUp(stack);
    const tokens = await Promise.all(Array.from({ length: SESSIONS }, async () => {
      const session = await signedIn(stack.apiUrl, stack.anonKey, OWNER.email, OWNER.password);
      return (await session.auth.getSession()).data.session?.access_token ?? '';
    }));
    const job: Job = { ...base, tokens, seconds: SECONDS };
    console.log(`Database: ${stack.db.kind}; ${REGISTERS} registers selling about once a second each, ${SECONDS} s per phase`);

    // Phase 1: no realtime clients.
    console.log(`load average (1/5/15 min) before phase 1: ${load()}`);
    const without = (await child('load', job).next()) as { sold: number; selects: number[] };

    // Phase 2: 50 clients subscribed.
    const subscribers = child('subscribers', job);
    if ((await subscribers.next()) !== 'ready') throw new Error('subscribers not ready');
    if (stack.realtime.sockets !== CLIENTS) throw new Error(`${stack.realtime.sockets} sockets, expected ${CLIENTS}`);
    console.log(`load average before phase 2: ${load()}`);
    subscribers.process.send('measure');
    const withClients = (await child('load', job).next()) as { sold: number; selects: number[] };
    await stack.realtime.feed.idle();
    await sleep(500);
    subscribers.process.send('stop');
    const { latencies } = (await subscribers.next()) as { latencies: number[] };
    console.log(`load average after phase 2: ${load()}`);

    const expected = withClients.sold * CLIENTS;
    const p95 = p(latencies, 0.95);
    console.log(`commit-to-screen (sales INSERT at ${CLIENTS} clients): ${latencies.length} deliveries of ${expected} expected ` +
      `(${withClients.sold} sales), p50 ${p(latencies, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms ` +
      `(target p95 < ${TARGET_P95_MS} ms) ${p95 < TARGET_P95_MS ? 'OK' : 'OVER'}`);
    const p99Without = p(without.selects, 0.99);
    const p99With = p(withClients.selects, 0.99);
    console.log(`API select p50/p99 without clients: ${p(without.selects, 0.5).toFixed(1)}/${p99Without.toFixed(1)} ms (${without.selects.length} selects, ${without.sold} sales); ` +
      `with ${CLIENTS} clients: ${p(withClients.selects, 0.5).toFixed(1)}/${p99With.toFixed(1)} ms (${withClients.selects.length} selects, ${withClients.sold} sales); ` +
      `p99 ratio ${(p99With / p99Without).toFixed(2)} (target <= ${TARGET_SELECT_RATIO}) ${p99With <= p99Without * TARGET_SELECT_RATIO ? 'OK' : 'OVER'}`);
  } finally {
    await stack.stop();
  }
}

/** A child takes its job from the first IPC message. */
function asChild(run: (job: Job) => Promise<void>): void {
  process.once('message', (job) => {
    run(job as Job).catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
}

const role = process.argv[2];
if (role === '--load') {
  asChild(async (job) => {
    const result = await runLoad(job);
    process.send?.(result, () => process.exit(0));
  });
} else if (role === '--subscribers') {
  asChild((job) => runSubscribers(job, (message) => process.send?.(message), (fn) => process.on('message', (m) => fn(String(m)))));
} else {
  main().then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
