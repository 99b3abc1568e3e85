/**
 * Point of sale: p50/p95 of post_sale for a 10-line sale as owner1 at Downtown (seeded catalog), then 10 registers
 * posting concurrently (each sale also retried once) for a few seconds: no sale lost or duplicated, every balance
 * equal to the sum of its ledger. Target: a 10-line sale p95 under 100 ms on PGlite, 50 ms on PostgreSQL.
 *
 *   npm run bench -- pos                           # PGlite in memory
 *   DATABASE_URL=postgres://... npm run bench -- pos   (a throwaway database)
 */
import { randomUUID } from 'node:crypto';
import { openDb } from '../supabase/local/db/open-db';
import type { JwtClaims } from '../supabase/local/db/types';

const TARGET_P95_MS = { pglite: 100, postgres: 50 } as const;
const OWNER1 = '22222222-2222-4222-8222-222222222222';
const DOWNTOWN = '5a000000-0000-4000-8000-000000000001';
const ITERATIONS = 60;
const SECONDS = Number(process.env.STOREWISE_BENCH_SECONDS ?? '5');

const p = (samples: number[], q: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] ?? NaN;

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const db = await openDb(databaseUrl ? { databaseUrl } : { memory: true });
  try {
    const claims: JwtClaims = { role: 'authenticated', sub: OWNER1, aud: 'authenticated' };
    const rpc = (sql: string, params: unknown[]) =>
      db.asRequest({ role: 'authenticated', claims, readOnly: false, method: 'POST' }, (tx) => tx.query(sql, params));
    const items = (await db.query<{ id: string; price: string; rate: string }>(
      `select v.id, coalesce(sp.price, v.price) as price, coalesce(p.tax_rate, 8.875) as rate
         from public.variants v join public.products p on p.id = v.product_id
         left join public.store_prices sp on sp.variant_id = v.id and sp.store_id = $1
        where p.business_id = (select id from public.businesses where owner_id = $2) and not p.has_lots and p.unit = 'each'
        order by v.sku limit 40`, [DOWNTOWN, OWNER1])).rows;
    const registers: { id: string; shift: string }[] = [];
    const business = (await db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [OWNER1])).rows[0]?.id;
    for (let i = 0; i < 10; i += 1) {
      const [reg] = (await db.query<{ id: string }>(
        `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
        [business, DOWNTOWN, `Bench ${i}`, `BN${i}`])).rows;
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
    const engine = databaseUrl ? 'postgres' : 'pglite';
    console.log(`post_sale, 10 lines: p50 ${p(samples, 0.5).toFixed(1)} ms, p95 ${p(samples, 0.95).toFixed(1)} ms ` +
      `(target p95 < ${TARGET_P95_MS[engine]} ms on ${engine})`);

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
