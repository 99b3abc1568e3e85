/**
 * Clothing pack (issue 29, ADR 0340), over HTTP with supabase-js as each person: collections belong to one
 * business; the end-of-season markdown previews without writing, refuses as a whole (nothing changed) when a price
 * would fall below cost, writes every price of the collection and its audit entries when applied, touches only the
 * store prices of the stores the caller may use, never raises a price; another business and a cashier cannot mark
 * down; sell-through per collection follows the reports' rules (owners and managers, managers their stores only).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let collection = '';

interface PlanRow { variant_id: string; store_id: string | null; sku: string; old_price: number; new_price: number }

const prices = async () => w.rows<{ sku: string; price: number; downtown: number | null; riverside: number | null }>(`
  select v.sku, v.price,
         (select sp.price from public.store_prices sp where sp.variant_id = v.id and sp.store_id = $2) as downtown,
         (select sp.price from public.store_prices sp where sp.variant_id = v.id and sp.store_id = $3) as riverside
    from public.variants v where v.product_id = $1 order by v.sku`, [w.f.product, downtown, riverside]);

const markdown = (client: SupabaseClient, args: Record<string, unknown>) =>
  client.rpc('markdown_collection', { _collection_id: collection, ...args } as never);

beforeAll(async () => {
  w = await startCatalogWorld();
  const made = await w.clients.owner.from('collections')
    .insert({ business_id: w.businessA, name: 'Summer 2027', season_code: 'SS27', starts_on: '2027-03-01', ends_on: '2027-08-31' })
    .select('id').single();
  if (made.error) throw new Error(made.error.message);
  collection = made.data.id;
  const joined = await w.clients.owner.from('products').update({ collection_id: collection }).eq('id', w.f.product);
  if (joined.error) throw new Error(joined.error.message);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('collections', () => {
  it('are read by members, written by owners and managers, and never joined across businesses', async () => {
    const seen = await w.clients.cashier.from('collections').select('name, season_code').eq('business_id', w.businessA);
    expect(seen.data).toEqual([{ name: 'Summer 2027', season_code: 'SS27' }]);
    const byCashier = await w.clients.cashier.from('collections').insert({ business_id: w.businessA, name: 'Winter' });
    expect(byCashier.error?.code).toBe('42501');
    const foreign = await w.clients.other.from('collections').select('id').eq('id', collection);
    expect(foreign.data).toEqual([]);
    const badDates = await w.clients.manager.from('collections')
      .insert({ business_id: w.businessA, name: 'Backwards', starts_on: '2027-08-01', ends_on: '2027-03-01' });
    expect(badDates.error?.code).toBe('23514');
    // owner2 puts their own product into business A's collection: the composite key refuses.
    const [{ id: theirs } = { id: '' }] = await w.rows<{ id: string }>(
      `insert into public.products (business_id, name) values ($1, 'Their Tee') returning id`, [w.businessB]);
    const crossed = await w.clients.other.from('products').update({ collection_id: collection }).eq('id', theirs);
    expect(crossed.error?.code).toBe('23503');
  });
});

describe('markdown_collection', () => {
  it('is refused to a cashier and to another business, with nothing changed', async () => {
    const before = await prices();
    expect((await markdown(w.clients.cashier, { _kind: 'percent', _value: 30, _apply: true })).error?.code).toBe('42501');
    expect((await markdown(w.clients.other, { _kind: 'percent', _value: 30, _apply: true })).error?.code).toBe('42501');
    expect((await markdown(w.clients.anon, { _kind: 'percent', _value: 30, _apply: true })).error).not.toBeNull();
    expect(await prices()).toEqual(before);
  });

  it('refuses a percentage out of range and a fractional fixed price with 22023', async () => {
    for (const args of [{ _kind: 'percent', _value: 100 }, { _kind: 'percent', _value: 0 }, { _kind: 'price', _value: 12.5 },
      { _kind: 'half', _value: 10 }]) {
      expect((await markdown(w.clients.owner, args)).error?.code).toBe('22023');
    }
  });

  it('previews without writing', async () => {
    const before = await prices();
    const { data, error } = await markdown(w.clients.owner, { _kind: 'percent', _value: 30 });
    expect(error).toBeNull();
    const rows = data as PlanRow[];
    // Two variant prices and the owner's two store prices of MTX-TEE-M.
    expect(rows.map((r) => [r.sku, r.store_id, r.old_price, r.new_price])).toEqual([
      ['MTX-TEE-L', null, 1500, 1050],
      ['MTX-TEE-M', null, 1500, 1050],
      ['MTX-TEE-M', downtown, 1400, 980],
      ['MTX-TEE-M', riverside, 1400, 980],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1] ?? '').localeCompare(String(b[1] ?? ''))));
    expect(await prices()).toEqual(before);
  });

  it('is all or nothing: one price below cost refuses the whole markdown', async () => {
    const before = await prices();
    const trailBefore = await w.rows(`select id from public.activity where business_id = $1`, [w.businessA]);
    // 70% off: MTX-TEE-M (cost 6.00) would sell at 4.50; MTX-TEE-L (no cost) alone would be fine.
    const refused = await markdown(w.clients.manager, { _kind: 'percent', _value: 70, _apply: true });
    expect(refused.error?.code).toBe('22023');
    expect(refused.error?.message).toContain('MTX-TEE-M');
    expect(refused.error?.message).not.toContain('MTX-TEE-L');
    expect(await prices()).toEqual(before);
    expect(await w.rows(`select id from public.activity where business_id = $1`, [w.businessA])).toHaveLength(trailBefore.length);
  });

  it('applied by a manager: every variant price, the store prices of their stores only, each audited', async () => {
    const { data, error } = await markdown(w.clients.manager, { _kind: 'percent', _value: 30, _apply: true });
    expect(error).toBeNull();
    expect((data as PlanRow[]).filter((r) => r.store_id === riverside)).toEqual([]);
    expect(await prices()).toEqual([
      { sku: 'MTX-TEE-L', price: 1050, downtown: null, riverside: null },
      { sku: 'MTX-TEE-M', price: 1050, downtown: 980, riverside: 1400 },
    ]);
    const trail = await w.rows<{ kind: string; after: Record<string, unknown> }>(`
      select kind, after from public.activity
       where business_id = $1 and kind in ('variant.updated', 'store_price.updated', 'collection.marked_down')
         and actor_id = $2 order by kind, at`, [w.businessA, w.userIds.manager]);
    expect(trail.map((t) => t.kind)).toEqual(['collection.marked_down', 'store_price.updated', 'variant.updated', 'variant.updated']);
    expect(trail[0]?.after).toMatchObject({ kind: 'percent', value: 30, variants_changed: 2, store_prices_changed: 1 });
  });

  it('a fixed price lowers, never raises, and below cost only when confirmed', async () => {
    const raise = await markdown(w.clients.owner, { _kind: 'price', _value: 2000 });
    expect((raise.data as PlanRow[]).every((r) => r.new_price === r.old_price)).toBe(true);
    expect((await markdown(w.clients.owner, { _kind: 'price', _value: 500, _apply: true })).error?.code).toBe('22023');
    const confirmed = await markdown(w.clients.owner, { _kind: 'price', _value: 500, _apply: true, _below_cost_ok: true });
    expect(confirmed.error).toBeNull();
    expect(await prices()).toEqual([
      { sku: 'MTX-TEE-L', price: 500, downtown: null, riverside: null },
      { sku: 'MTX-TEE-M', price: 500, downtown: 500, riverside: 500 },
    ]);
  });
});

describe('markdown_collection and a store price changed meanwhile', () => {
  it('keeps a store price changed between the plan and the write, and counts only the prices written', async () => {
    await w.rows(`update public.variants set price = 1500 where product_id = $1`, [w.f.product]);
    await w.rows(`update public.store_prices sp set price = 1400 from public.variants v
                   where v.id = sp.variant_id and v.product_id = $1`, [w.f.product]);
    // The variant write runs after the plan is read and before the store price write: a trigger there changes the
    // downtown price of MTX-TEE-M, as another person's edit landing in between would.
    await w.rows(`create function private.test_price_changed_meanwhile() returns trigger language plpgsql as $$
      begin
        update public.store_prices sp set price = 1234 from public.variants v
         where v.id = sp.variant_id and v.sku = 'MTX-TEE-M' and sp.store_id = '${downtown}';
        return null;
      end $$`);
    await w.rows(`create trigger test_price_changed_meanwhile after update on public.variants
                    for each statement execute function private.test_price_changed_meanwhile()`);
    try {
      const { error } = await markdown(w.clients.owner, { _kind: 'percent', _value: 30, _apply: true });
      expect(error).toBeNull();
    } finally {
      await w.rows('drop trigger test_price_changed_meanwhile on public.variants');
      await w.rows('drop function private.test_price_changed_meanwhile()');
    }
    expect(await prices()).toEqual([
      { sku: 'MTX-TEE-L', price: 1050, downtown: null, riverside: null },
      { sku: 'MTX-TEE-M', price: 1050, downtown: 1234, riverside: 980 },
    ]);
    const [marked] = await w.rows<{ after: Record<string, unknown> }>(`
      select after from public.activity where business_id = $1 and kind = 'collection.marked_down' and actor_id = $2
       order by at desc limit 1`, [w.businessA, w.userIds.owner]);
    expect(marked?.after).toMatchObject({ kind: 'percent', value: 30, variants_changed: 2, store_prices_changed: 1 });
  });
});

describe('report_collection_sell_through', () => {
  it('owners see every store, managers their stores, cashiers nothing', async () => {
    const args = { _business_id: w.businessA, _from: '2026-06-01', _to: '2028-01-31' };
    const owner = await w.clients.owner.rpc('report_collection_sell_through', args);
    expect(owner.error).toBeNull();
    // MTX-TEE-M has 50 in each store, MTX-TEE-L none; nothing sold.
    expect(owner.data).toEqual([expect.objectContaining({
      collection_id: collection, name: 'Summer 2027', season_code: 'SS27', products: 1, units_sold: 0, on_hand_end: 100,
      sell_through: 0, revenue: 0,
    })]);
    const manager = await w.clients.manager.rpc('report_collection_sell_through', args);
    expect(manager.data).toEqual([expect.objectContaining({ on_hand_end: 50 })]);
    const cashier = await w.clients.cashier.rpc('report_collection_sell_through', args);
    expect(cashier.error?.code).toBe('42501');
    const other = await w.clients.other.rpc('report_collection_sell_through', args);
    expect(other.error?.code).toBe('42501');
  });
});
