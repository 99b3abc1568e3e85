/**
 * Point of sale at the retail set's size (100,000 variants, a year of sales; bench/lib/retail-bench.ts):
 * - the register's catalog download (pos_catalog, pages of 1,000) as a cashier: time and bytes (JSON) for the whole
 *   store catalog, then a delta (_since) after 50 price changes and one after a bulk change of every variant;
 * - p50/p95 of post_sale for a 10-line sale as the owner (summary triggers included), then 10 registers posting
 *   concurrently (each sale also retried once) for a few seconds: no sale lost or duplicated, every balance equal to
 *   the sum of its ledger. Target: a 10-line sale p95 under 100 ms on PGlite, 50 ms on PostgreSQL.
 *
 *   STOREWISE_BENCH_DATA_DIR=/tmp/large npm run bench -- pos   # a folder filled by seed:large (it adds sales there)
 *   npm run bench -- pos                           # PGlite in memory at STOREWISE_BENCH_SCALE (0.1)
 *   DATABASE_URL=postgres://... npm run bench -- pos   (a throwaway database)
 */
import { randomUUID } from 'node:crypto';
import { plainItems } from './lib/post-sale-rig';
import { openRetailBench, percentile as p } from './lib/retail-bench';

const TARGET_P95_MS = { pglite: 100, postgres: 50 } as const;
const ITERATIONS = 60;
const SECONDS = Number(process.env.STOREWISE_BENCH_SECONDS ?? '5');

async function main(): Promise<void> {
  const bench = await openRetailBench();
  const { db, business } = bench;
  const store = bench.stores[0] ?? '';
  try {
    console.log(`Database: ${bench.label}; ${bench.variants.toLocaleString('en-US')} variants, ` +
      `${bench.saleLines.toLocaleString('en-US')} sale lines (machine shared and loaded)`);
    const as = (claims: typeof bench.owner, readOnly: boolean) => (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims, readOnly, method: 'POST' }, (tx) => tx.query(sql, params));
    const rpc = as(bench.owner, false);
    const cashierRead = as(bench.cashier, true);

    // The register's catalog: every page as the data API would return it (JSON), keyset on the last id.
    const load = async (since: string | null) => {
      let after: string | null = null;
      let rows = 0;
      let bytes = 0;
      let pages = 0;
      const started = performance.now();
      for (;;) {
        const page = (await cashierRead('select * from public.pos_catalog($1, $2, 1000, $3)', [store, after, since])).rows as { variant_id: string }[];
        pages += 1;
        rows += page.length;
        bytes += Buffer.byteLength(JSON.stringify(page));
        if (page.length < 1000) break;
        after = page[page.length - 1]?.variant_id ?? null;
      }
      return { rows, bytes, pages, ms: performance.now() - started };
    };
    const full = await load(null);
    console.log(`pos_catalog full load: ${full.rows.toLocaleString('en-US')} variants in ${full.pages} pages, ` +
      `${(full.bytes / 1_048_576).toFixed(1)} MiB JSON (before HTTP compression), ${(full.ms / 1000).toFixed(2)} s ` +
      `(${(full.ms / full.pages).toFixed(0)} ms a page)`);
    const [{ since = '' } = {}] = (await db.query<{ since: string }>('select now()::text as since')).rows;
    // PGlite's clock moves in whole milliseconds: an update in the same millisecond as the stamp would carry the stamp
    // itself and not count as after it. The register reads with an overlap for this (DELTA_OVERLAP_MS); the bench
    // waits for the clock instead, so the delta holds exactly the 50 changed rows.
    while (!(await db.query<{ past: boolean }>('select now() > $1::timestamptz as past', [since])).rows[0]?.past) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await db.query(
      `update public.variants set price = price + 1
        where id in (select id from public.variants where business_id = $1 order by sku desc limit 50)`, [business]);
    const delta = await load(since);
    console.log(`pos_catalog delta after 50 price changes: ${delta.rows} rows, ${(delta.bytes / 1024).toFixed(1)} KiB, ` +
      `${delta.ms.toFixed(0)} ms`);
    // A bulk change (a price list, an import) stamps every variant: the delta walks the variants by id (ADR 0169).
    // From the same `since` as the delta above.
    await db.query('update public.variants set price = price + 1 where business_id = $1', [business]);
    const bulk = await load(since);
    console.log(`pos_catalog delta after a bulk change of every variant: ${bulk.rows.toLocaleString('en-US')} rows in ` +
      `${bulk.pages} pages, ${(bulk.ms / 1000).toFixed(2)} s (${(bulk.ms / bulk.pages).toFixed(0)} ms a page)`);

    const items = await plainItems(bench, store);
    const registers: { id: string; shift: string }[] = [];
    const tag = Date.now().toString(36).slice(-4).toUpperCase();
    for (let i = 0; i < 10; i += 1) {
      const [reg] = (await db.query<{ id: string }>(
        `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
        [business, store, `Bench ${tag} ${i}`, `B${tag}${i}`])).rows;
      const shift = (await rpc('select public.open_shift($1, 0) as s', [reg?.id])).rows[0] as { s: { id: string } };
      registers.push({ id: reg?.id ?? '', shift: shift.s.id });
    }
    const payload = (register: { id: string; shift: string }, offset: number) => {
      const lines = Array.from({ length: 10 }, (_, i) => items[(offset + i) % items.length]).map((item) => ({
        variant_id: item?.id, qty: 1, unit_price: Number(item?.price) }));
      return { id: randomUUID(), register_id: register.id, shift_id: register.shift, lines, tenders: [{ kind: 'card', amount: 0 }], offline: true };
    };
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i += 1) {
      const started = performance.now();
      await rpc('select public.post_sale($1::jsonb)', [JSON.stringify(payload(registers[0] as { id: string; shift: string }, i))]);
      samples.push(performance.now() - started);
    }
    const engine = db.kind;
    console.log(`post_sale, 10 lines: p50 ${p(samples, 0.5).toFixed(1)} ms, p95 ${p(samples, 0.95).toFixed(1)} ms ` +
      `(target p95 < ${TARGET_P95_MS[engine]} ms on ${engine})`);
    // The floor under every figure above: a request that does nothing (role, claims, transaction) on the same path.
    const floor: number[] = [];
    for (let i = 0; i < ITERATIONS; i += 1) {
      const started = performance.now();
      await rpc('select 1', []);
      floor.push(performance.now() - started);
    }
    console.log(`request floor (select 1, same path): p50 ${p(floor, 0.5).toFixed(1)} ms, p95 ${p(floor, 0.95).toFixed(1)} ms`);
    // The offline outbox's path: post_sales with 20 sales of 3 lines (its bound is 60 lines, ADR 0180), per sale.
    const batches: number[] = [];
    for (let b = 0; b < 10; b += 1) {
      const sales = Array.from({ length: 20 }, (_, i) => {
        const sale = payload(registers[1] as { id: string; shift: string }, b * 20 + i);
        return { ...sale, lines: sale.lines.slice(0, 3) };
      });
      const started = performance.now();
      const out = (await rpc('select public.post_sales($1::jsonb) as r', [JSON.stringify(sales)])).rows[0] as { r: { ok: boolean }[] };
      batches.push((performance.now() - started) / 20);
      if (out.r.some((r) => !r.ok)) throw new Error(`post_sales refused a sale: ${JSON.stringify(out.r.find((r) => !r.ok))}`);
    }
    console.log(`post_sales, 20 sales of 3 lines: ${p(batches, 0.5).toFixed(1)} ms a sale (median of ${batches.length} batches)`);

    const before = Number((await db.query<{ n: string }>('select count(*) as n from public.sales')).rows[0]?.n);
    const deadline = performance.now() + SECONDS * 1000;
    let posted = 0;
    await Promise.all(registers.map(async (register, r) => {
      while (performance.now() < deadline) {
        const sale = JSON.stringify(payload(register, posted + r));
        await Promise.all([rpc('select public.post_sale($1::jsonb)', [sale]), rpc('select public.post_sale($1::jsonb)', [sale])]);
        posted += 1;
      }
    }));
    const after = Number((await db.query<{ n: string }>('select count(*) as n from public.sales')).rows[0]?.n);
    const drift = (await db.query(`
      select 1 from public.stock_balances b
        left join lateral (select sum(qty) as t from public.stock_movements m where m.store_id = b.store_id
                             and m.variant_id = b.variant_id and m.lot_id is not distinct from b.lot_id) m on true
       where b.qty <> coalesce(m.t, 0)`)).rows.length;
    console.log(`10 registers for ${SECONDS} s (each sale sent twice): ${posted} sales posted, ${after - before} stored, ` +
      `${drift} balances off their ledger -> ${posted === after - before && drift === 0 ? 'OK' : 'FAILED'}`);
    if (posted !== after - before || drift !== 0) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

await main();
