/**
 * Catalog and stock at scale: p50/p95 of catalog search (name prefix, name with a typo, SKU prefix) and of a
 * barcode lookup with row level security on, at 100,000 variants in owner1's grocery; then 10 parallel writers
 * (adjustments, transfers, receipts) on the same variants for a few seconds, reporting the throughput and
 * checking that every balance still equals the sum of its ledger.
 * Targets: search p95 under 50 ms on PostgreSQL and 100 ms on PGlite; barcode lookup under 10 ms.
 *
 *   npm run bench -- catalog                      # PGlite in memory, 100,000 variants
 *   STOREWISE_BENCH_SCALE=0.1 npm run bench -- catalog
 *   DATABASE_URL=postgres://... npm run bench -- catalog   (a throwaway database)
 */
import { parseArgs } from 'node:util';
import { openDb } from '../supabase/local/db/open-db';
import type { JwtClaims } from '../supabase/local/db/types';

const TARGET_SEARCH_P95_MS = { pglite: 100, postgres: 50 } as const;
const TARGET_BARCODE_P95_MS = 10;
const OWNER1 = '22222222-2222-4222-8222-222222222222';
const DOWNTOWN = '5a000000-0000-4000-8000-000000000001';
const RIVERSIDE = '5a000000-0000-4000-8000-000000000002';

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
const variants = Math.round(100_000 * scale);

function p(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const db = await openDb(databaseUrl ? { databaseUrl } : { memory: true });
  try {
    const [{ id: business = '' } = {}] = (await db.query<{ id: string }>(
      'select id from public.businesses where owner_id = $1', [OWNER1])).rows;
    const started = performance.now();
    // Triggers off (plan limit, audit) for the bulk load: two variants per product, one EAN-13 each.
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into public.products (business_id, name, brand)
         select $1, (array['Organic', 'Classic', 'Fresh', 'Premium', 'Family', 'Local'])[1 + g % 6] || ' ' ||
                (array['Apple', 'Banana', 'Cheddar', 'Yogurt', 'Sourdough', 'Coffee', 'Rice', 'Pasta', 'Tea', 'Soap'])[1 + (g / 6) % 10]
                || ' ' || g, 'Bench'
           from generate_series(1, $2::int) g`, [business, Math.ceil(variants / 2)]);
      await tx.query(
        `insert into public.variants (business_id, product_id, sku, price, option1)
         select $1, p.id, 'BN-' || lpad((row_number() over ())::text, 7, '0'), 100 + (random() * 5000)::int, null
           from public.products p cross join generate_series(1, 2) n
          where p.business_id = $1 and p.brand = 'Bench'`, [business]);
      await tx.query(
        `insert into public.barcodes (business_id, variant_id, code, kind)
         select $1, x.id, x.body || private.gtin_check_digit(x.body)::text, 'ean13'
           from (select v.id, '0777' || lpad((row_number() over (order by v.sku))::text, 8, '0') as body
                   from public.variants v where v.business_id = $1 and v.sku like 'BN-%') x`, [business]);
    });
    await db.query('analyze');
    const [{ v = 0 } = {}] = (await db.query<{ v: number }>(
      'select count(*)::int as v from public.variants where business_id = $1', [business])).rows;
    console.log(`Database: ${db.kind}; ${v.toLocaleString('en-US')} variants (generated in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

    const claims: JwtClaims = { role: 'authenticated', sub: OWNER1, aud: 'authenticated' };
    const read = (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims, readOnly: true, method: 'POST' }, (tx) => tx.query(sql, params));
    const write = (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims, readOnly: false, method: 'POST' }, (tx) => tx.query(sql, params));
    const [{ code = '' } = {}] = (await db.query<{ code: string }>(
      `select code from public.barcodes where business_id = $1 and code like '0777%' order by code offset $2 limit 1`,
      [business, Math.floor(v / 3)])).rows;

    const search = (q: string) => () => read('select * from public.search_catalog($1, $2, 25, 0)', [business, q]);
    const cases: [string, () => Promise<unknown>, number][] = [
      ['search: name prefix "Classic Ched"', search('Classic Ched'), TARGET_SEARCH_P95_MS[db.kind]],
      ['search: typo "Organc Yogrt"', search('Organc Yogrt'), TARGET_SEARCH_P95_MS[db.kind]],
      ['search: SKU prefix "BN-00123"', search('BN-00123'), TARGET_SEARCH_P95_MS[db.kind]],
      ['barcode lookup', () => read(
        'select v.id, v.price from public.barcodes b join public.variants v on v.id = b.variant_id where b.business_id = $1 and b.code = $2',
        [business, code]), TARGET_BARCODE_P95_MS],
    ];
    let failed = false;
    for (const [name, fn, target] of cases) {
      for (let n = 0; n < 3; n += 1) await fn();
      const samples: number[] = [];
      for (let n = 0; n < iterations; n += 1) {
        const t = performance.now();
        await fn();
        samples.push(performance.now() - t);
      }
      const p95 = p(samples, 0.95);
      if (p95 > target) failed = true;
      console.log(`${name.padEnd(36)} p50 ${p(samples, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  (target ${target} ms)`);
    }

    // 10 writers on the same 5 variants for a few seconds (PGlite serializes them; PostgreSQL runs them at once).
    const hot = (await db.query<{ id: string }>(
      `select id from public.variants where business_id = $1 and sku like 'BN-%' order by sku limit 5`, [business])).rows.map((r) => r.id);
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
