/**
 * The register's catalog delta (pos_catalog with _since) over HTTP with supabase-js, as the cashier (ADR 0169).
 * After a bulk change that stamped a thousand variants, the pages together return every changed variant exactly
 * once (its own row, its product, this store's price, a barcode added, an archival), in id order; and the pages
 * read about the changed rows once in all, where the old delta rebuilt the whole changed set for every page (the
 * variants' tuples read, from pg_stat_user_tables with index plans as at full size: 4,407 for 1,004 changed
 * rows in 21 pages of 50 here, the old function 22,409).
 * A small delta returns just its rows; other stores and businesses are refused as before; pos_clock answers members.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let bulkProduct = '';
const BULK = 1000;
const PAGE = 50;

interface Row { variant_id: string; price: number; archived: boolean; barcodes: string[]; name: string }

beforeAll(async () => {
  w = await startCatalogWorld();
  // A thousand sizes are a thousand sellable items: more than Growth's 300 (ADR 0175), so the business is on Pro.
  await w.rows(`update public.user_plans set plan_name = 'Pro' where user_id = (select owner_id from public.businesses
    where id = $1)`, [w.businessA]);
  [{ id: bulkProduct } = { id: '' }] = await w.rows<{ id: string }>(
    `insert into public.products (business_id, name) values ($1, 'Bulk Socks') returning id`, [w.businessA]);
  await w.rows(`insert into public.variants (business_id, product_id, sku, price)
    select $1, $2, 'BLK-' || lpad(g::text, 4, '0'), 250 from generate_series(1, ${BULK}) g`, [w.businessA, bulkProduct]);
  // As the stack's minutely analyze (or autovacuum on hosted) would: the planner knows the catalog's size.
  await w.rows('analyze public.variants, public.products, public.store_prices, public.barcodes');
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

/**
 * The server's clock as a delta's `since`, then 10 ms of waiting: a change in the same clock tick would carry the same
 * transaction time and not be "after" it (a CI run under load missed the bulk change that way). The register itself
 * starts its deltas an overlap before the server's clock (catalog-store.ts).
 */
const serverNow = async () => {
  const now = (await w.rows<{ now: string }>('select now()::text as now'))[0]?.now ?? '';
  await w.rows('select pg_sleep(0.01)');
  return now;
};

/** Every page of the delta from `since` as the cashier, keyset on the last id. */
async function delta(since: string, store = downtown): Promise<Row[]> {
  const rows: Row[] = [];
  for (let after: string | null = null; ;) {
    const { data, error } = await w.clients.cashier.rpc('pos_catalog', {
      _store_id: store, _since: since, _limit: PAGE, ...(after ? { _after: after } : {}) });
    if (error) throw new Error(error.message);
    const page = data as Row[];
    rows.push(...page);
    if (page.length < PAGE) return rows;
    after = page[page.length - 1]?.variant_id ?? null;
  }
}

/** Tuples of public.variants read so far (index fetches and sequential reads), flushed from this backend. */
async function variantTuplesRead(): Promise<number> {
  await w.rows('select pg_stat_force_next_flush()');
  const [row] = await w.rows<{ n: string }>(
    `select coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) as n from pg_stat_user_tables
      where relid = 'public.variants'::regclass`);
  return Number(row?.n ?? 0);
}

describe('catalog delta after a bulk change', () => {
  it('returns every changed variant once across pages, reading each about once', async () => {
    const since = await serverNow();
    await w.rows(`update public.variants set price = price + 10 where product_id = $1`, [bulkProduct]);
    await w.rows(`update public.variants set archived_at = now() where id = $1`, [w.f.variant2]);
    await w.rows(`update public.store_prices set price = 1333 where store_id = $1 and variant_id = $2`, [downtown, w.f.variant]);
    await w.rows(`update public.products set name = 'Matrix Drops Extra' where id = $1`, [w.f.lotProduct]);
    await w.rows(`insert into public.barcodes (business_id, variant_id, code, kind) values ($1, $2, '5901234123457', 'ean13')`,
      [w.businessA, w.f.kgVariant]);
    const expected = (await w.rows<{ id: string }>(
      `select v.id::text from public.variants v
        where v.business_id = $1 and (v.product_id in ($2, $3) or v.id in ($4, $5, $6)) order by v.id`,
      [w.businessA, bulkProduct, w.f.lotProduct, w.f.variant2, w.f.variant, w.f.kgVariant])).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(BULK);

    // Index plans, as at the catalog's real size (on a thousand rows the planner would rather scan the table).
    await w.rows('set enable_seqscan = off');
    const before = await variantTuplesRead();
    const rows = await delta(since);
    const read = (await variantTuplesRead()) - before;
    await w.rows('reset enable_seqscan');

    const ids = rows.map((r) => r.variant_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(expected);
    expect(ids).toEqual([...ids].sort());
    const byId = new Map(rows.map((r) => [r.variant_id, r]));
    expect(byId.get(w.f.variant2)?.archived).toBe(true);
    expect(Number(byId.get(w.f.variant)?.price)).toBe(1333);
    expect(byId.get(w.f.kgVariant)?.barcodes).toContain('5901234123457');
    expect(byId.get(w.f.lotVariant)?.name).toContain('Matrix Drops Extra');
    expect(rows.filter((r) => r.name.startsWith('Bulk Socks')).every((r) => Number(r.price) === 260)).toBe(true);
    // About once per changed row plus a capped count per page; rebuilding the set per page read 20 x 1,000 and more.
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(expected.length * 8);
  });

  it('a small delta returns only its rows', async () => {
    const since = await serverNow();
    const some = (await w.rows<{ id: string }>(
      `select id::text from public.variants where product_id = $1 order by sku limit 3`, [bulkProduct])).map((r) => r.id);
    await w.rows(`update public.variants set price = price + 1 where id = any($1::uuid[])`, [some]);
    const rows = await delta(since);
    expect(rows.map((r) => r.variant_id).sort()).toEqual([...some].sort());
  });

  it('a store the cashier cannot use and another business are refused', async () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const riversideDelta = await w.clients.cashier.rpc('pos_catalog', { _store_id: riverside, _since: since });
    expect(riversideDelta.error?.code).toBe('42501');
    const other = await w.clients.other.rpc('pos_catalog', { _store_id: downtown, _since: since });
    expect(other.error?.code).toBe('42501');
  });

  it('the register reads the server\'s clock for its next since; anon cannot', async () => {
    const before = Date.parse(await serverNow());
    const { data, error } = await w.clients.cashier.rpc('pos_clock');
    expect(error).toBeNull();
    expect(Date.parse(data as string)).toBeGreaterThanOrEqual(before);
    expect((await w.clients.anon.rpc('pos_clock')).error).not.toBeNull();
  });
});

describe('the full load with barcodes read per page (issue 32, ADR 0420)', () => {
  it('answers pages of 1,000 that together equal the live catalog, barcodes sorted, even when 2,500 are asked for', async () => {
    // An archived product's variants and an archived variant are left out of the full load, as before.
    const [{ id: gone } = { id: '' }] = await w.rows<{ id: string }>(
      `insert into public.products (business_id, name, archived_at) values ($1, 'Gone Gloves', now()) returning id`, [w.businessA]);
    await w.rows(`insert into public.variants (business_id, product_id, sku, price) values ($1, $2, 'GONE-1', 100)`, [w.businessA, gone]);
    await w.rows(`update public.variants set archived_at = now() where sku = 'BLK-0007' and business_id = $1`, [w.businessA]);
    // Two barcodes on one variant, inserted out of order.
    const [{ id: coded } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.variants where sku = 'BLK-0009' and business_id = $1`, [w.businessA]);
    await w.rows(`insert into public.barcodes (business_id, variant_id, code, kind) values ($1, $2, '0973000000021', 'ean13'),
      ($1, $2, '0973000000014', 'ean13')`, [w.businessA, coded]);
    const full: Row[] = [];
    const sizes: number[] = [];
    for (let after: string | null = null; ;) {
      const { data, error } = await w.clients.cashier.rpc('pos_catalog', { _store_id: downtown, _limit: 2500, ...(after ? { _after: after } : {}) });
      if (error) throw new Error(error.message);
      const page = data as Row[];
      sizes.push(page.length);
      full.push(...page);
      if (page.length < 1000) break;
      after = page[page.length - 1]?.variant_id ?? null;
    }
    const expected = await w.rows<{ id: string; price: string; codes: string[]; name: string }>(
      `select v.id, coalesce(sp.price, v.price)::text as price, p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '') as name,
              array(select b.code from public.barcodes b where b.variant_id = v.id order by b.code) as codes
         from public.variants v join public.products p on p.id = v.product_id
         left join public.store_prices sp on sp.variant_id = v.id and sp.store_id = $2
        where v.business_id = $1 and v.archived_at is null and p.archived_at is null order by v.id`, [w.businessA, downtown]);
    expect(expected.length).toBeGreaterThan(1000);
    expect(sizes[0]).toBe(1000);
    expect(full.map((r) => r.variant_id)).toEqual(expected.map((r) => r.id));
    expect(full.map((r) => Number(r.price))).toEqual(expected.map((r) => Number(r.price)));
    expect(full.map((r) => r.name)).toEqual(expected.map((r) => r.name));
    expect(full.map((r) => r.barcodes)).toEqual(expected.map((r) => r.codes));
    expect(full.find((r) => r.variant_id === coded)?.barcodes).toEqual(['0973000000014', '0973000000021']);
    expect(full.some((r) => r.name.startsWith('Gone Gloves'))).toBe(false);

    // A delta asking for 2,500 after a change of every variant gets 1,000 a page.
    const since = await serverNow();
    await w.rows('update public.variants set price = price + 1 where business_id = $1', [w.businessA]);
    const { data, error } = await w.clients.cashier.rpc('pos_catalog', { _store_id: downtown, _since: since, _limit: 2500 });
    expect(error).toBeNull();
    expect((data as Row[]).length).toBe(1000);
    // Another business's cashier is refused the full load as before.
    expect((await w.clients.cashier.rpc('pos_catalog', { _store_id: riverside, _limit: 2500 })).error?.code).toBe('42501');
  });
});
