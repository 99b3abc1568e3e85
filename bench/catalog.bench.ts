/**
 * Catalog and stock at scale: p50/p95 of catalog search (name prefix, name with a typo, SKU prefix, a barcode typed
 * into the search) and of a barcode lookup, as a cashier with row level security on, in the retail set of
 * `npm run seed:large` (100,000 variants); then 10 parallel writers (adjustments, transfers, receipts) on the same
 * variants for a few seconds, reporting the throughput and checking that every balance still equals the sum of its
 * ledger. Targets: search p95 under 50 ms on PostgreSQL and 100 ms on PGlite; barcode lookup under 10 ms.
 * The typo cases go through the catalog's word dictionary (ADR 0152); its size is printed with the hit counts. The
 * typo step returns only what the page needs (ADR 0164): a later page of a common word's matches is measured too.
 *
 *   STOREWISE_BENCH_DATA_DIR=/tmp/large npm run bench -- catalog   # a folder filled by seed:large (full size)
 *   npm run bench -- catalog                       # PGlite in memory: 100,000 variants x STOREWISE_BENCH_SCALE (1)
 *   DATABASE_URL=postgres://... npm run bench -- catalog   (a throwaway database)
 */
import { parseArgs } from 'node:util';
import type { JwtClaims } from '../supabase/local/db/types';
import { measureCase, openRetailBench } from './lib/retail-bench';

const TARGET_SEARCH_P95_MS = { pglite: 100, postgres: 50 } as const;
const TARGET_BARCODE_P95_MS = 10;

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: process.env.STOREWISE_BENCH_SCALE ?? '1' },
    iterations: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
  },
  allowPositionals: true,
});
const scale = Number(values.scale);
const iterations = Number(values.iterations);
const seconds = Number(values.seconds);
if (!(scale > 0 && scale <= 1) || !(iterations >= 5) || !(seconds > 0)) {
  throw new Error('--scale must be in (0, 1], --iterations >= 5, --seconds > 0');
}

async function main(): Promise<void> {
  const started = performance.now();
  // Only the catalog matters here: a few sales are enough when the set is generated for this run.
  const bench = await openRetailBench({ variants: Math.round(100_000 * scale), saleLines: Math.round(20_000 * scale) });
  const { db, business } = bench;
  const [DOWNTOWN = '', RIVERSIDE = ''] = bench.stores;
  try {
    const v = bench.variants;
    console.log(`Database: ${bench.label}; ${v.toLocaleString('en-US')} variants (ready in ${((performance.now() - started) / 1000).toFixed(1)} s; machine shared and loaded)`);

    // Searches as a cashier (the register's user: row level security, no cost); writes as the owner.
    const as = (claims: JwtClaims, readOnly: boolean) => (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims, readOnly, method: 'POST' }, (tx) => tx.query(sql, params));
    const read = as(bench.cashier, true);
    const write = as(bench.owner, false);
    const [{ code = '', sku = '' } = {}] = (await db.query<{ code: string; sku: string }>(
      `select b.code, v.sku from public.barcodes b join public.variants v on v.id = b.variant_id
        where b.business_id = $1 and b.kind = 'ean13' order by b.code offset $2 limit 1`,
      [business, Math.floor(v / 3)])).rows;
    const hits = async (q: string) => (await read('select * from public.search_catalog($1, $2, 25, 0)', [business, q])).rows.length;
    // The typo step's work (ADR 0152): the dictionary it corrects against, and the products it then reads.
    const [dict] = (await db.query<{ words: number; organic: number; yogurt: number }>(
      `select count(*)::int as words,
              coalesce(max(products) filter (where word = 'organic'), 0)::int as organic,
              coalesce(max(products) filter (where word = 'yogurt'), 0)::int as yogurt
         from private.catalog_words where business_id = $1`, [business])).rows;
    console.log(`Dictionary: ${dict?.words ?? 0} words; products holding "organic" ${dict?.organic ?? 0}, "yogurt" ${dict?.yogurt ?? 0}`);
    console.log(`Hits per page: "Classic Ched" ${await hits('Classic Ched')}, "Organc Yogrt" ${await hits('Organc Yogrt')}, ` +
      `"${sku.slice(0, -2)}" ${await hits(sku.slice(0, -2))}, barcode ${await hits(code)}`);

    const search = (q: string, offset = 0) => () =>
      read('select * from public.search_catalog($1, $2, 25, $3)', [business, q, offset]);
    const t = TARGET_SEARCH_P95_MS[db.kind];
    const cases: [string, () => Promise<unknown>, number][] = [
      // What any request costs on this machine now (transaction, role, claims): the floor under every figure.
      ['request floor: select 1', () => read('select 1', []), t],
      ['search: name prefix "Classic Ched"', search('Classic Ched'), t],
      ['search: typo "Organc Yogrt"', search('Organc Yogrt'), t],
      ['search: one-word typo "Yogrt"', search('Yogrt'), t],
      ['search: one-word typo "Yogrt", third page', search('Yogrt', 50), t],
      [`search: SKU prefix "${sku.slice(0, -2)}"`, search(sku.slice(0, -2)), t],
      ['search: a scanned barcode', search(code), t],
      ['search: browse (no text), first page', search(''), t],
      ['barcode lookup', () => read(
        'select v.id, v.price from public.barcodes b join public.variants v on v.id = b.variant_id where b.business_id = $1 and b.code = $2',
        [business, code]), TARGET_BARCODE_P95_MS],
    ];
    let failed = false;
    for (const [name, fn, target] of cases) if (!(await measureCase(name, fn, target, iterations))) failed = true;

    // 10 writers on the same 5 variants for a few seconds (PGlite serializes them; PostgreSQL runs them at once).
    const hot = (await db.query<{ id: string }>(
      `select id from public.variants where business_id = $1 order by sku limit 5`, [business])).rows.map((r) => r.id);
    for (const id of hot) {
      for (const store of [DOWNTOWN, RIVERSIDE]) await write('select public.receive_stock($1, $2, 1000000, 100)', [store, id]);
    }
    let done = 0;
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    const writer = async (i: number) => {
      for (let n = 0; performance.now() < until; n += 1) {
        const id = hot[(i + n) % hot.length] ?? '';
        const op = (i + n) % 3;
        try {
          if (op === 0) await write(`select public.adjust_stock($1, $2, -1, 'damaged')`, [DOWNTOWN, id]);
          else if (op === 1) {
            await write('select public.send_transfer($1, $2, $3::jsonb)', [DOWNTOWN, RIVERSIDE, JSON.stringify([{ variant_id: id, qty: 1 }])]);
          } else await write('select public.receive_stock($1, $2, 1, 120)', [RIVERSIDE, id]);
          done += 1;
        } catch {
          errors += 1;
        }
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => writer(i)));
    const elapsed = (performance.now() - t0) / 1000;
    const drift = (await db.query(
      `select 1 from public.stock_balances b
        where b.business_id = $1 and b.qty <> (select coalesce(sum(m.qty), 0) from public.stock_movements m
                                                where m.store_id = b.store_id and m.variant_id = b.variant_id
                                                  and m.lot_id is not distinct from b.lot_id)`, [business])).rows.length;
    console.log(`10 writers for ${elapsed.toFixed(1)} s: ${done} stock changes (${(done / elapsed).toFixed(0)}/s), ` +
      `${errors} refused, ${drift} balances off their ledger`);
    if (drift > 0 || errors > 0) failed = true;
    if (failed) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

await main();
