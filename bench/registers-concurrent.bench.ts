/**
 * Ten registers at once (issue 32, ADR 0431): 10 cashiers, each signed in with their own supabase-js client, post
 * 10-line sales over HTTP (the local gateway -> post_sale) on their own register for 60 s. Some sales are sent
 * again with the same id, as the offline outbox does when an answer is lost: every 5th while the first copy is
 * still in flight, every 7th after its answer came. A refusal that means "try again" (53300, a timeout, a dropped
 * connection) is retried with the same id too. Then, against the database:
 * - every sale a register got an answer for is stored exactly once, with its 10 lines, 10 ledger rows and one
 *   sale.posted entry, and no sale is stored that no register got an answer for;
 * - every answer for one sale id carries the same receipt number, and receipt numbers are unique per register;
 * - every balance equals the sum of its ledger, and each item's balance equals what was received less what the
 *   answered sales sold;
 * - p50/p95 of post_sale as the registers saw it (the HTTP round trip), under this load.
 * Prints the figures; exits non-zero when a check fails.
 *
 *   npm run bench -- registers-concurrent                               # PGlite in memory
 *   STOREWISE_BENCH_DATA_DIR=/tmp/large npm run bench -- registers-concurrent   # a folder seeded by seed:large
 *   DATABASE_URL=postgres://... npm run bench -- registers-concurrent   # PostgreSQL (a throwaway database)
 *   STOREWISE_BENCH_SECONDS=10 ...                                      # shorter
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startLocalStack } from '../supabase/local/server';
import { createTestClient } from '../tests/helpers/stack';
import { percentile as p } from './lib/retail-bench';

const REGISTERS = 10;
const LINES = 10;
const ITEMS = 200;
const START_STOCK = 100_000;
const SECONDS = Number(process.env.STOREWISE_BENCH_SECONDS ?? '60');
const TARGET_P95_MS = { pglite: 100, postgres: 50 } as const;
/** "Try again": the heavy-call gate (53300), a statement timeout (57014), a serialization or deadlock retry. */
const RETRYABLE = new Set(['53300', '57014', '40001', '40P01']);

interface Answer { receipt: string; replayed: boolean }
interface Register { id: string; shift: string; client: SupabaseClient; prefix: string }

async function main(): Promise<void> {
  const dataDir = process.env.STOREWISE_BENCH_DATA_DIR || undefined;
  const databaseUrl = dataDir ? undefined : process.env.DATABASE_URL || undefined;
  const stack = await startLocalStack({
    ...(dataDir ? { dataDir } : databaseUrl ? { databaseUrl } : { memory: true }),
    seed: false, apiPort: 0, inboxPort: 0, outboxRelay: false, deletionSchedule: false,
  });
  const { db } = stack;
  try {
    const keys = { apiUrl: stack.apiUrl, anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey };
    const service = createTestClient(keys, 'service');
    const tag = randomUUID().slice(0, 6);
    const password = `Pw-${randomUUID()}`;
    const newUser = async (who: string) => {
      const { data, error } = await service.auth.admin.createUser({
        email: `${who}-${tag}@registers.bench.storewise.test`, password, email_confirm: true });
      if (error || !data.user) throw new Error(`create ${who}: ${error?.message}`);
      return { id: data.user.id, email: data.user.email ?? '' };
    };
    const signIn = async (email: string) => {
      const client = createTestClient(keys);
      const { error } = await client.auth.signInWithPassword({ email, password });
      if (error) throw new Error(`sign in ${email}: ${error.message}`);
      return client;
    };

    // Setup as the platform would have it: an owner's business and store, items with stock, 10 cashiers.
    const owner = await newUser('owner');
    const business = (await db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [owner.id])).rows[0]?.id;
    if (!business) throw new Error('the owner has no business');
    // A chain's plan: the Free plan's caps (25 items, one register) would stop the setup.
    await db.query(
      `insert into public.user_plans (user_id, plan_name, price, billing_cycle, status, auto_renew, started_at, next_billing_date)
       values ($1, 'Enterprise', 499, 'annual', 'active', true, now(), now() + interval '30 days')`, [owner.id]);
    const store = (await db.query<{ id: string }>(
      `insert into public.stores (business_id, name, default_tax_rate) values ($1, $2, 0) returning id`,
      [business, `Registers ${tag}`])).rows[0]?.id ?? '';
    const items = (await db.query<{ id: string; price: string }>(
      `with p as (
         insert into public.products (business_id, name)
         select $1, 'Register bench item ' || i from generate_series(1, $2::int) i returning id, name)
       insert into public.variants (business_id, product_id, sku, price)
       select $1, p.id, 'RB${tag}-' || row_number() over (order by p.name), 100 + (row_number() over (order by p.name)) * 7
         from p returning id, price::text`, [business, ITEMS])).rows.map((r) => ({ id: r.id, price: Number(r.price) }));
    const ownerClient = await signIn(owner.email);
    for (const item of items) {
      const { error } = await ownerClient.rpc('receive_stock', { _store_id: store, _variant_id: item.id, _qty: START_STOCK });
      if (error) throw new Error(`receive_stock: ${error.message}`);
    }
    const registers: Register[] = [];
    for (let r = 0; r < REGISTERS; r += 1) {
      const cashier = await newUser(`cashier${r}`);
      await db.query(`insert into public.business_members (business_id, user_id, role, all_stores) values ($1, $2, 'cashier', true)`,
        [business, cashier.id]);
      const prefix = `R${tag.slice(0, 3).toUpperCase()}${r}`;
      const id = (await db.query<{ id: string }>(
        `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
        [business, store, `Register ${r}`, prefix])).rows[0]?.id ?? '';
      const client = await signIn(cashier.email);
      const opened = await client.rpc('open_shift', { _register_id: id, _opening_float: 0 });
      if (opened.error) throw new Error(`open_shift: ${opened.error.message}`);
      registers.push({ id, shift: (opened.data as { id: string }).id, client, prefix });
    }

    const answers = new Map<string, Answer[]>();
    const soldBy = new Map<string, number[]>(); // sale id -> item indexes it sells
    const latencies: number[] = [];
    const failures: string[] = [];
    let retries = 0;
    const send = async (register: Register, payload: Record<string, unknown>): Promise<void> => {
      for (let attempt = 0; ; attempt += 1) {
        const started = performance.now();
        const { data, error } = await register.client.rpc('post_sale', { _payload: payload });
        latencies.push(performance.now() - started);
        if (!error) {
          const answer = data as { receipt_number: string; replayed: boolean };
          const list = answers.get(payload.id as string) ?? [];
          list.push({ receipt: answer.receipt_number, replayed: answer.replayed });
          answers.set(payload.id as string, list);
          return;
        }
        // A lost answer (the connection or the gateway): the outbox sends the same sale again.
        if ((RETRYABLE.has(error.code) || error.code === '' || error.message.includes('fetch failed')) && attempt < 20) {
          retries += 1;
          await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
          continue;
        }
        failures.push(`${payload.id as string}: ${error.code} ${error.message}`);
        return;
      }
    };

    // One sale each first (plans and caches warm), kept in the checks but not in the figures.
    const warmUp = async (register: Register) => {
      const payload = { id: randomUUID(), register_id: register.id, shift_id: register.shift,
        lines: [{ variant_id: items[0]?.id, qty: 1, unit_price: items[0]?.price }], tenders: [{ kind: 'card', amount: items[0]?.price }] };
      soldBy.set(payload.id, [0]);
      await send(register, payload);
    };
    for (const register of registers) await warmUp(register);
    latencies.length = 0;

    const deadline = performance.now() + SECONDS * 1000;
    let sent = 0;
    let resentInFlight = 0;
    let resentAfter = 0;
    await Promise.all(registers.map(async (register, r) => {
      for (let n = 0; performance.now() < deadline; n += 1) {
        const picks = Array.from({ length: LINES }, (_, k) => (r * 17 + n * 3 + k * 11) % ITEMS);
        const lines = picks.map((i) => ({ variant_id: items[i]?.id, qty: 1, unit_price: items[i]?.price }));
        const total = lines.reduce((sum, line) => sum + (line.unit_price ?? 0), 0);
        const payload = { id: randomUUID(), register_id: register.id, shift_id: register.shift, lines,
          tenders: [{ kind: 'card', amount: total }] };
        soldBy.set(payload.id, picks);
        sent += 1;
        if (n % 5 === 4) {
          resentInFlight += 1;
          await Promise.all([send(register, payload), send(register, payload)]);
        } else {
          await send(register, payload);
          if (n % 7 === 6) {
            resentAfter += 1;
            await send(register, payload);
          }
        }
      }
    }));

    // The checks, against the database.
    const problems: string[] = [...failures.slice(0, 5)];
    if (failures.length > 0) problems.push(`${failures.length} sales refused for good`);
    const answered = [...answers.keys()];
    const stored = (await db.query<{ id: string; register_id: string; receipt_number: string; lines: number; moves: number; posted: number }>(
      `select s.id, s.register_id, s.receipt_number,
              (select count(*) from public.sale_lines l where l.sale_id = s.id)::int as lines,
              (select count(*) from public.stock_movements m where m.reference_type = 'sale' and m.reference_id = s.id)::int as moves,
              (select count(*) from public.activity a where a.kind = 'sale.posted' and a.entity_id = s.id)::int as posted
         from public.sales s where s.store_id = $1`, [store])).rows;
    const byId = new Map(stored.map((s) => [s.id, s]));
    let lost = 0;
    let wrongRows = 0;
    let receiptMismatch = 0;
    for (const id of answered) {
      const row = byId.get(id);
      if (!row) { lost += 1; continue; }
      const count = soldBy.get(id)?.length ?? 0;
      if (row.lines !== count || row.moves !== count || row.posted !== 1) wrongRows += 1;
      const list = answers.get(id) ?? [];
      if (list.some((a) => a.receipt !== row.receipt_number) || list.filter((a) => !a.replayed).length !== 1) receiptMismatch += 1;
    }
    const unanswered = stored.filter((s) => !answers.has(s.id)).length;
    const receipts = new Set(stored.map((s) => `${s.register_id}:${s.receipt_number}`)).size;
    if (lost) problems.push(`${lost} answered sales missing`);
    if (wrongRows) problems.push(`${wrongRows} sales without exactly their lines, a ledger row each and one sale.posted entry`);
    if (receiptMismatch) problems.push(`${receiptMismatch} sales whose answers disagree (receipt, or more than one first answer)`);
    if (unanswered) problems.push(`${unanswered} sales stored that no register got an answer for`);
    if (receipts !== stored.length) problems.push(`${stored.length - receipts} receipt numbers used twice`);
    const drift = (await db.query(
      `select 1 from public.stock_balances b
         left join lateral (select sum(qty) as t from public.stock_movements m where m.store_id = b.store_id
                              and m.variant_id = b.variant_id and m.lot_id is not distinct from b.lot_id) m on true
        where b.store_id = $1 and b.qty <> coalesce(m.t, 0)`, [store])).rows.length;
    if (drift) problems.push(`${drift} balances off their ledger`);
    const expected = new Map(items.map((it) => [it.id, START_STOCK]));
    for (const id of answered) for (const i of soldBy.get(id) ?? []) {
      const item = items[i];
      if (item) expected.set(item.id, (expected.get(item.id) ?? 0) - 1);
    }
    const balances = (await db.query<{ variant_id: string; qty: string }>(
      'select variant_id, qty::text from public.stock_balances where store_id = $1', [store])).rows;
    const offBalance = balances.filter((b) => Number(b.qty) !== expected.get(b.variant_id)).length;
    if (offBalance || balances.length !== items.length) problems.push(`${offBalance} balances not received less sold`);

    const engine = db.kind;
    const p95 = p(latencies, 0.95);
    console.log(`Database: ${engine}${dataDir ? ` (${dataDir})` : databaseUrl ? '' : ' in memory'}; ` +
      `${REGISTERS} registers (10 cashiers signed in, supabase-js over HTTP) for ${SECONDS} s`);
    console.log(`sales sent ${sent} (${resentInFlight} sent twice at once, ${resentAfter} sent again after the answer), ` +
      `${retries} retried after "try again", ${answered.length} answered, ${stored.length} stored, ` +
      `${(stored.length / SECONDS).toFixed(1)} sales a second`);
    console.log(`post_sale under this load (HTTP round trip, ${latencies.length} calls): p50 ${p(latencies, 0.5).toFixed(1)} ms, ` +
      `p95 ${p95.toFixed(1)} ms, p99 ${p(latencies, 0.99).toFixed(1)} ms (one sale alone: target p95 < ${TARGET_P95_MS[engine]} ms)`);
    console.log(problems.length === 0
      ? 'checks: every answered sale stored exactly once with its lines, ledger and trail; receipts agree; balances equal the ledger and received less sold -> OK'
      : `checks FAILED:\n  ${problems.join('\n  ')}`);
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

await main();
