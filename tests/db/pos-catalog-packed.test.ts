/**
 * The register's packed catalog (ADR 0445, 20261209300000_pos_catalog_packed_blocks.sql) over HTTP with supabase-js,
 * as the cashier: the items built from the blocks, the store's prices and its default tax are exactly pos_catalog's
 * full-load rows (archived products and variants left out), in a cut of one block and of two, before and after
 * changes; a price change moves only its block's price revision, a name, barcode or archiving its body; a bulk
 * change past one block's size marks each block once; other businesses, anon and bad input are refused with 4xx;
 * the tables are closed to the API roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockItems, blockOf, blockSource, storePriceMap, type BlockList, type StoredBlock } from '../../shared/features/pos/catalog-blocks';
import type { CatalogItem } from '../../shared/features/pos/cart';
import { idAt } from '../../shared/features/pos/catalog-columns';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let bulkProduct = '';
let archivedProduct = '';
const BULK = 300;

interface Row { variant_id: string; name: string; sku: string; barcodes: string[]; price: number; tax_rate: number; unit: string }

beforeAll(async () => {
  w = await startCatalogWorld();
  await w.rows(`update public.user_plans set plan_name = 'Pro' where user_id = (select owner_id from public.businesses where id = $1)`,
    [w.businessA]);
  [{ id: bulkProduct } = { id: '' }] = await w.rows<{ id: string }>(
    `insert into public.products (business_id, name, tax_rate, option1_name) values ($1, 'Packed Socks', 5, 'Size') returning id`, [w.businessA]);
  await w.rows(`insert into public.variants (business_id, product_id, option1, sku, price)
    select $1, $2, 'S' || g, 'PCK-' || lpad(g::text, 4, '0'), 250 + g from generate_series(1, ${BULK}) g`, [w.businessA, bulkProduct]);
  // Left out of the register: an archived variant, and a live variant of an archived product.
  await w.rows(`update public.variants set archived_at = now() where product_id = $1 and sku = 'PCK-0007'`, [bulkProduct]);
  [{ id: archivedProduct } = { id: '' }] = await w.rows<{ id: string }>(
    `insert into public.products (business_id, name) values ($1, 'Packed Gone') returning id`, [w.businessA]);
  await w.rows(`insert into public.variants (business_id, product_id, sku, price) values ($1, $2, 'PCK-GONE', 100)`, [w.businessA, archivedProduct]);
  await w.rows(`update public.products set archived_at = now() where id = $1`, [archivedProduct]);
  // A second barcode on the tee, sorted before its first.
  await w.rows(`insert into public.barcodes (business_id, variant_id, code, kind) values ($1, $2, '012345678905', 'upca')`, [w.businessA, w.f.variant]);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

/** pos_catalog's full load for the store as the cashier, every page, as the register's items. */
async function rowItems(client: StorewiseClient, store = downtown): Promise<CatalogItem[]> {
  const items: CatalogItem[] = [];
  for (let after: string | null = null; ;) {
    const { data, error } = await client.rpc('pos_catalog', { _store_id: store, _limit: 100, ...(after ? { _after: after } : {}) });
    if (error) throw new Error(error.message);
    const page = data as Row[];
    for (const r of page) {
      items.push({ variantId: r.variant_id, name: r.name, sku: r.sku, barcodes: r.barcodes ?? [], price: Number(r.price),
        taxRate: Number(r.tax_rate), unit: r.unit === 'kg' ? 'kg' : 'each' });
    }
    if (page.length < 100) return items;
    after = page[page.length - 1]?.variant_id ?? null;
  }
}

/** Every block through the register's source, as the register builds its items. */
async function packedItems(client: StorewiseClient, store = downtown): Promise<{ list: BlockList; items: CatalogItem[]; blocks: StoredBlock[] }> {
  const source = blockSource(client, store);
  const [list, storePrices] = await Promise.all([source.list(), source.storePrices()]);
  const blocks: StoredBlock[] = [];
  for (const rev of list.blocks) {
    const answer = await source.block(rev.n, list.bits, true);
    if (answer.kind !== 'block') throw new Error(`block ${rev.n}: ${answer.kind}`);
    blocks.push({ ...answer.block, storeId: store });
  }
  const prices = storePriceMap(storePrices);
  return { list, blocks, items: blocks.flatMap((b) => blockItems(b, prices, list.defaultTaxRate)) };
}

const revs = async (client: StorewiseClient) => (await blockSource(client, downtown).list()).blocks;

describe('the packed catalog equals pos_catalog', () => {
  it('in one block: every live item, nothing archived, store prices and default tax applied', async () => {
    const { list, items } = await packedItems(w.clients.cashier);
    expect(list.bits).toBe(0);
    expect(list.defaultTaxRate).toBeGreaterThan(0);
    const rows = await rowItems(w.clients.cashier);
    // The seeded shop's catalog, the world's four and the socks less the one archived.
    expect(rows.length).toBeGreaterThan(BULK + 3);
    expect(items).toEqual(rows);
    const skus = items.map((i) => i.sku);
    expect(skus).not.toContain('PCK-0007');
    expect(skus).not.toContain('PCK-GONE');
    const tee = items.find((i) => i.variantId === w.f.variant);
    expect(tee?.price).toBe(1400);
    expect(tee?.barcodes).toEqual(['012345678905', '4006381333931']);
    expect(items.find((i) => i.sku === 'PCK-0001')?.taxRate).toBe(5);
  });

  it('in a cut of two blocks, each block holding its id range', async () => {
    await w.rows('select private.pos_pack_init($1, 1)', [w.businessA]);
    const { list, items, blocks } = await packedItems(w.clients.cashier);
    expect(list.bits).toBe(1);
    expect(blocks.map((b) => b.n)).toEqual([0, 1]);
    for (const b of blocks) for (let i = 0; i < b.count; i += 1) expect(blockOf(idAt(b, i), 1)).toBe(b.n);
    expect(blocks.every((b) => b.count > 0)).toBe(true);
    expect(items).toEqual(await rowItems(w.clients.cashier));
  });

  it('another store of the business sees its own prices over the same blocks', async () => {
    await w.rows(`update public.store_prices set price = 1350 where store_id = $1 and variant_id = $2`, [riverside, w.f.variant]);
    const { data } = await w.clients.owner.rpc('pos_catalog_store_prices', { _store_id: riverside });
    const own = data as { ids: string[]; prices: number[] };
    expect(own.prices[own.ids.indexOf(w.f.variant)]).toBe(1350);
    const { items } = await packedItems(w.clients.owner, riverside);
    expect(items).toEqual(await rowItems(w.clients.owner, riverside));
    expect(items.find((i) => i.variantId === w.f.variant)?.price).toBe(1350);
  });
});

describe('changes mark the blocks they touch', () => {
  it('a price moves its block\'s price revision only; the prices-only answer has the new price', async () => {
    const before = await revs(w.clients.cashier);
    const n = blockOf(w.f.variant2, 1);
    await w.rows(`update public.variants set price = 1777 where id = $1`, [w.f.variant2]);
    const after = await revs(w.clients.cashier);
    expect(after[n]?.bodyRev).toBe(before[n]?.bodyRev);
    expect(after[n]?.priceRev).not.toBe(before[n]?.priceRev);
    expect(after[1 - n]).toEqual(before[1 - n]);
    const answer = await blockSource(w.clients.cashier, downtown).block(n, 1, false);
    expect(answer.kind).toBe('prices');
    const { blocks, items } = await packedItems(w.clients.cashier);
    const held = blocks[n] as StoredBlock;
    const i = Array.from({ length: held.count }, (_, k) => idAt(held, k)).indexOf(w.f.variant2);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(answer.kind === 'prices' ? answer.prices[i] : null).toBe(1777);
    expect(items).toEqual(await rowItems(w.clients.cashier));
  });

  it('a rename, a barcode, an archiving and a new variant move bodies, and the blocks still equal pos_catalog', async () => {
    const before = await revs(w.clients.cashier);
    await w.rows(`update public.products set name = 'Packed Socks Deluxe' where id = $1`, [bulkProduct]);
    await w.rows(`insert into public.barcodes (business_id, variant_id, code, kind) values ($1, $2, '5901234123457', 'ean13')`,
      [w.businessA, w.f.kgVariant]);
    await w.rows(`update public.variants set archived_at = now() where product_id = $1 and sku = 'PCK-0011'`, [bulkProduct]);
    await w.rows(`insert into public.variants (business_id, product_id, option1, sku, price) values ($1, $2, 'XL', 'PCK-NEW', 999)`,
      [w.businessA, bulkProduct]);
    const after = await revs(w.clients.cashier);
    // The socks have variants in both halves of the id space.
    expect(after.every((b, n) => b.bodyRev !== before[n]?.bodyRev)).toBe(true);
    const { items } = await packedItems(w.clients.cashier);
    expect(items).toEqual(await rowItems(w.clients.cashier));
    expect(items.some((i) => i.sku === 'PCK-NEW' && i.name === 'Packed Socks Deluxe XL')).toBe(true);
    expect(items.some((i) => i.sku === 'PCK-0011')).toBe(false);
  });

  it('a bulk price change moves prices, not bodies, and rebuilds them in its own statement; one price waits for a read', async () => {
    const stale = async () => (await w.rows<{ n: number }>(`select count(*)::int as n from private.pos_catalog_blocks
      where business_id = $1 and (price_stale or body_stale)`, [w.businessA]))[0]?.n;
    await w.rows('select private.pos_pack_build($1)', [w.businessA]);
    await w.rows(`update public.variants set price = price + 1 where id = $1`, [w.f.variant2]);
    expect(await stale()).toBe(1);
    const before = await revs(w.clients.cashier);
    await w.rows(`update public.variants set price = price + 1 where business_id = $1`, [w.businessA]);
    const after = await revs(w.clients.cashier);
    expect(after.map((b) => b.bodyRev)).toEqual(before.map((b) => b.bodyRev));
    expect(after.every((b, n) => b.priceRev !== before[n]?.priceRev)).toBe(true);
    expect(await stale()).toBe(0);
    const { items, blocks, list } = await packedItems(w.clients.cashier);
    expect(items).toEqual(await rowItems(w.clients.cashier));
    // Every block's prices in one call, as each block sends them.
    const all = await blockSource(w.clients.cashier, downtown).prices(blocks.map((b) => b.n), list.bits);
    expect(all.map((p) => [p.n, [...p.prices]])).toEqual(blocks.map((b) => [b.n, [...b.prices]]));
    expect(await blockSource(w.clients.cashier, downtown).prices([0], list.bits + 1)).toEqual([]);
  });

  it('a cut far from the catalog\'s size is cut again on the next list', async () => {
    await w.rows('select private.pos_pack_build($1)', [w.businessA]);
    await w.rows('select private.pos_pack_init($1, 4)', [w.businessA]);
    await w.rows('select private.pos_pack_build($1)', [w.businessA]);
    const list = await blockSource(w.clients.cashier, downtown).list();
    expect(list.bits).toBe(0);
    // A block asked for under the old cut says so.
    expect((await blockSource(w.clients.cashier, downtown).block(3, 4, true)).kind).toBe('recut');
  });
});

describe('who may read it', () => {
  it('refuses another business, anon and a block out of range with 4xx', async () => {
    for (const [client, fn, args] of [
      [w.clients.other, 'pos_catalog_blocks', { _store_id: downtown }],
      [w.clients.other, 'pos_catalog_block', { _store_id: downtown, _n: 0, _bits: 0 }],
      [w.clients.other, 'pos_catalog_store_prices', { _store_id: downtown }],
      [w.clients.anon, 'pos_catalog_blocks', { _store_id: downtown }],
      [w.clients.cashier, 'pos_catalog_block', { _store_id: downtown, _n: 5, _bits: 0 }],
      [w.clients.cashier, 'pos_catalog_block', { _store_id: downtown, _n: 'x', _bits: 0 }],
      [w.clients.cashier, 'pos_catalog_block_prices', { _store_id: downtown, _bits: 0, _ns: [0, 1] }],
      [w.clients.cashier, 'pos_catalog_block_prices', { _store_id: downtown, _bits: 0, _ns: Array.from({ length: 257 }, () => 0) }],
      [w.clients.other, 'pos_catalog_block_prices', { _store_id: downtown, _bits: 0, _ns: [0] }],
      // The cashier may use Downtown only.
      [w.clients.cashier, 'pos_catalog_blocks', { _store_id: riverside }],
    ] as const) {
      const { data, error, status } = await client.rpc(fn, args as never);
      expect(error, `${fn} ${JSON.stringify(args)}`).not.toBeNull();
      expect(data).toBeNull();
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });

  it('keeps the tables closed: RLS on, no privilege for the API roles', async () => {
    const rows = await w.rows<{ name: string; rls: boolean; api: boolean }>(
      `select c.relname as name, c.relrowsecurity as rls,
              has_table_privilege('anon', c.oid, 'select') or has_table_privilege('authenticated', c.oid, 'select,insert,update,delete') as api
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'private' and c.relname in ('pos_catalog_packs', 'pos_catalog_blocks') order by 1`);
    expect(rows).toEqual([{ name: 'pos_catalog_blocks', rls: true, api: false }, { name: 'pos_catalog_packs', rls: true, api: false }]);
  });
});
