/**
 * What the post_sale tools share (bench/lib/post-sale-ab.ts, post-sale-profile.ts, ADR 0430): the retail set, a
 * register of its own in store 1 with an open shift, 40 plain items (no lots, sold by the piece), and the n-th
 * 10-line card sale over them as post_sale's payload, posted as the owner.
 */
import { randomUUID } from 'node:crypto';
import { openRetailBench, type RetailBenchDb } from './retail-bench';

export interface PostSaleRig {
  bench: RetailBenchDb;
  /** The n-th sale's payload (a new id each call), as post_sale takes it. */
  sale(n: number): string;
  /** Posts one payload as the owner. */
  post(payload: string): Promise<void>;
}

/** 40 items a till sells without a lot or a weight, by SKU, at the store's price (the store's own, else the list's). */
export async function plainItems(bench: RetailBenchDb, store: string): Promise<{ id: string; price: string }[]> {
  return (await bench.db.query<{ id: string; price: string }>(
    `select v.id, coalesce(sp.price, v.price) as price
       from public.variants v join public.products p on p.id = v.product_id
       left join public.store_prices sp on sp.variant_id = v.id and sp.store_id = $1
      where v.business_id = $2 and not p.has_lots and p.unit = 'each'
      order by v.sku limit 40`, [store, bench.business])).rows;
}

/** `name` and `prefix` (with a random tag) name the register and its receipts. */
export async function openPostSaleRig(name: string, prefix: string): Promise<PostSaleRig> {
  const bench = await openRetailBench();
  const { db, business } = bench;
  const store = bench.stores[0] ?? '';
  const rpc = (sql: string, params: unknown[]) =>
    db.asRequest({ role: 'authenticated', claims: bench.owner, readOnly: false, method: 'POST' }, (tx) => tx.query(sql, params));
  const items = await plainItems(bench, store);
  const tag = randomUUID().slice(0, 4).toUpperCase();
  const [reg] = (await db.query<{ id: string }>(
    `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
    [business, store, `${name} ${tag}`, `${prefix}${tag}`])).rows;
  const shift = ((await rpc('select public.open_shift($1, 0) as s', [reg?.id])).rows[0] as { s: { id: string } }).s.id;
  return {
    bench,
    sale: (n) => JSON.stringify({
      id: randomUUID(), register_id: reg?.id, shift_id: shift, offline: true, tenders: [{ kind: 'card', amount: 0 }],
      lines: Array.from({ length: 10 }, (_, k) => items[(n + k) % items.length]).map((it) => ({ variant_id: it?.id, qty: 1, unit_price: Number(it?.price) })),
    }),
    post: async (payload) => { await rpc('select public.post_sale($1::jsonb)', [payload]); },
  };
}
