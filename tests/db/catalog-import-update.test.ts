/**
 * Issue 25: the catalog import updates existing items by SKU (supabase/migrations/20261202130000_catalog_import_updates.sql,
 * docs/adr/0310), over HTTP with supabase-js: the preview says what is created and what changes (old -> new); the
 * write changes only that, in the trail; a bad row writes nothing of its part; another business's SKU is not
 * touched; cashiers are refused; the plan's room is counted once; the catalog's own export previews as "nothing
 * changes".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { fetchCatalogCurrency } from '../../shared/features/catalog/catalog-api';
import { parseCatalogCsv, toDatabaseRows } from '../../shared/features/catalog/catalog-csv';
import { catalogCsv, fetchCatalogExport } from '../../shared/features/catalog/catalog-export';
import { previewCatalogFile, summarizePreview } from '../../shared/features/catalog/catalog-preview';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import { seedUsers } from './support/seed-ids';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 180_000);

afterAll(async () => {
  await w?.stack.stop();
});

type Row = Record<string, string>;
const preview = (who: 'owner' | 'manager' | 'cashier' | 'other', rows: Row[], business = w.businessA) =>
  w.clients[who].rpc('preview_catalog_import', { _business_id: business, _rows: rows });
const check = (who: 'owner' | 'manager', rows: Row[], business = w.businessA) =>
  w.clients[who].rpc('import_catalog', { _business_id: business, _rows: rows, _dry_run: true });
const write = (who: 'owner' | 'manager' | 'cashier' | 'other', rows: Row[], business = w.businessA) =>
  w.clients[who].rpc('import_catalog', { _business_id: business, _rows: rows, _dry_run: false });

async function item(sku: string, business = w.businessA) {
  const [row] = await w.rows<{ name: string; price: string; cost: string | null; code: string | null; category: string | null }>(`
    select p.name, v.price, c.cost, (select b.code from public.barcodes b where b.variant_id = v.id order by b.created_at, b.code limit 1) as code,
           (select k.name from public.categories k where k.id = p.category_id) as category
      from public.variants v join public.products p on p.id = v.product_id left join public.variant_costs c on c.variant_id = v.id
     where v.business_id = $1 and v.sku = $2`, [business, sku]);
  return row && { ...row, price: Number(row.price), cost: row.cost === null ? null : Number(row.cost) };
}

describe('import updates items by SKU', () => {
  const created: Row[] = [
    { product_name: 'Update Mug', category: 'Kitchen', sku: 'UPD-MUG', price: '250', cost: '100', barcode: '96385074' },
    { product_name: 'Update Bowl', sku: 'UPD-BOWL', price: '400' },
  ];

  it('previews what changes (old -> new), writes only that as the manager, and previews the same file as unchanged after', async () => {
    expect(await write('owner', created)).toMatchObject({ error: null, data: [] });
    const changed: Row[] = [
      { product_name: 'Update Mug Large', category: 'Kitchen', sku: 'upd-mug', price: '275', cost: '120', barcode: '036000291452' },
      { product_name: 'Update Bowl', sku: 'UPD-BOWL', price: '400' },
      { product_name: 'Update Plate', sku: 'UPD-PLATE', price: '300' },
    ];
    expect(await check('manager', changed)).toMatchObject({ error: null, data: [] });
    const seen = await preview('manager', changed);
    expect(seen.error).toBeNull();
    expect(seen.data).toMatchObject({
      plan: 'Growth',
      rows: [
        { row_index: 1, action: 'update', changes: {
          product_name: { old: 'Update Mug', new: 'Update Mug Large' }, price: { old: 250, new: 275 },
          cost: { old: 100, new: 120 }, barcode: { old: '96385074', new: '036000291452' } } },
        { row_index: 2, action: 'same', changes: {} },
        { row_index: 3, action: 'new', changes: {} },
      ],
    });
    const trailBefore = await w.rows<{ n: number }>(`select count(*)::int as n from public.activity where business_id = $1
      and actor_id = $2 and kind in ('variant.updated', 'variant_cost.updated', 'product.updated', 'barcode.updated')`, [w.businessA, w.userIds.manager]);

    expect(await write('manager', changed)).toMatchObject({ error: null, data: [] });
    expect(await item('UPD-MUG')).toEqual({ name: 'Update Mug Large', price: 275, cost: 120, code: '036000291452', category: 'Kitchen' });
    expect(await item('UPD-BOWL')).toMatchObject({ name: 'Update Bowl', price: 400 });
    expect(await item('UPD-PLATE')).toMatchObject({ name: 'Update Plate', price: 300 });
    // The old barcode no longer finds the mug; each change is in the trail, under the manager's name.
    expect(await w.rows(`select 1 from public.barcodes where business_id = $1 and code = '96385074'`, [w.businessA])).toEqual([]);
    const kinds = await w.rows<{ kind: string }>(`select distinct kind from public.activity where business_id = $1 and actor_id = $2
      and kind in ('variant.updated', 'variant_cost.updated', 'product.updated', 'barcode.updated') order by kind`, [w.businessA, w.userIds.manager]);
    expect(kinds.map((k) => k.kind)).toEqual(['barcode.updated', 'product.updated', 'variant.updated', 'variant_cost.updated']);
    expect(trailBefore[0]?.n).toBe(0);

    const again = await preview('manager', changed);
    expect((again.data as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['same', 'same', 'same']);
  });

  it('writes nothing of a part with a bad row, and names what an import cannot change on an existing item', async () => {
    const before = await item('UPD-BOWL');
    const bad = await write('owner', [
      { product_name: 'Update Bowl', sku: 'UPD-BOWL', price: '999' },
      { product_name: 'Broken', sku: 'UPD-BROKEN', price: 'lots' },
    ]);
    expect(bad.data).toEqual([{ row_index: 2, message: 'the price must be a whole number of cents, 0 or more (got "lots")' }]);
    expect(await item('UPD-BOWL')).toEqual(before);
    expect(await item('UPD-BROKEN')).toBeUndefined();

    const refused = await check('owner', [
      { product_name: 'Update Bowl', sku: 'UPD-BOWL', price: '400', unit: 'kg' },
      { product_name: 'Update Bowl', sku: 'UPD-BOWL2', price: '400', opening_qty: '3' },
      { product_name: 'Matrix Tee', sku: 'MTX-TEE-M', price: '1500', opening_qty: '3' },
      { product_name: 'Matrix Apples', sku: 'UPD-PLATE', price: '300' },
      { product_name: 'Matrix Apples', sku: 'MTX-APPLE', price: '399', barcode: '4006381333931' },
    ]);
    expect(refused.data).toEqual([
      { row_index: 1, message: 'the unit of an existing item cannot change by import (it is "each")' },
      { row_index: 2, message: 'choose a store for the opening stock' },
      { row_index: 3, message: 'opening stock is for new items only: count this item\'s stock on the Stock page' },
      { row_index: 4, message: 'another product is already called "Matrix Apples": choose another name' },
      { row_index: 5, message: 'this barcode is already used in the business' },
    ]);
  });

  it('does not touch another business\'s item with the same SKU; members of another business and cashiers are refused', async () => {
    // Business B (owner2) has its own item with the mug's SKU; owner2's import changes B's only.
    expect(await write('other', [{ product_name: 'B Mug', sku: 'UPD-MUG', price: '990' }], w.businessB)).toMatchObject({ error: null, data: [] });
    const mugA = await item('UPD-MUG');
    expect((await preview('other', [{ product_name: 'B Mug', sku: 'UPD-MUG', price: '1' }], w.businessB)).data)
      .toMatchObject({ rows: [{ action: 'update', changes: { price: { old: 990, new: 1 } } }] });
    expect(await write('other', [{ product_name: 'B Mug', sku: 'UPD-MUG', price: '1' }], w.businessB)).toMatchObject({ error: null, data: [] });
    expect(await item('UPD-MUG', w.businessB)).toMatchObject({ price: 1 });
    expect(await item('UPD-MUG')).toEqual(mugA);
    // Owner2 naming business A, and A's cashier: 42501, nothing read or written.
    for (const who of ['other', 'cashier'] as const) {
      expect((await preview(who, [{ product_name: 'X', sku: 'UPD-MUG', price: '1' }])).error?.code).toBe('42501');
      expect((await write(who, [{ product_name: 'X', sku: 'UPD-MUG', price: '1' }])).error?.code).toBe('42501');
    }
    expect(await item('UPD-MUG')).toEqual(mugA);
  });

  it('counts the plan\'s room once: the preview says how many more items fit, and a write past it is refused with a sentence', async () => {
    await w.rows(`update public.user_plans set plan_name = 'Starter' where user_id = $1`, [seedUsers.owner1.id]);
    try {
      // Room for exactly 2 more items (Starter: 100): archive demo items down to 98, or fill up to it.
      const sellable = `select v.id from public.variants v join public.products p on p.id = v.product_id
        where v.business_id = $1 and v.archived_at is null and p.archived_at is null`;
      const [{ n } = { n: 0 }] = await w.rows<{ n: number }>(`select count(*)::int as n from (${sellable}) s`, [w.businessA]);
      if (n > 98) {
        await w.rows(`update public.variants set archived_at = now() where id in (${sellable}
          and v.sku not like 'UPD-%' order by v.created_at desc limit $2)`, [w.businessA, n - 98]);
      } else {
        await w.rows(`insert into public.variants (business_id, product_id, option1, sku, price)
          select $1, $2, 'F' || g, 'FILL-' || g, 1 from generate_series(1, $3) g`, [w.businessA, w.f.product, 98 - n]);
      }
      const file = Array.from({ length: 5 }, (_, i) => ({ product_name: `Plan Item ${i}`, sku: `PLAN-${i}`, price: '100' }));
      const seen = await previewCatalogFile(w.clients.owner as unknown as StorewiseClient, { businessId: w.businessA, importId: 'p' },
        [{ product_name: 'Update Bowl', sku: 'UPD-BOWL', price: '401' }, ...file]);
      expect(seen.room).toBe(2);
      expect(summarizePreview(seen)).toEqual({ added: 5, updated: 1, unchanged: 0, overLimit: 'Your Starter plan allows 2 more items; this file adds 5.' });
      // The check names no row for the plan (the preview says it once) ...
      expect((await check('owner', file)).data).toEqual([]);
      // ... and a write past the room is refused with a sentence, nothing of its part written.
      const over = await write('owner', file.slice(0, 3));
      expect(over.data).toEqual([{ row_index: 3, message:
        'Your Starter plan allows 100 items (each size or colour you sell counts as one): archive some items or upgrade your plan, then import the rows not yet imported' }]);
      expect(await item('PLAN-0')).toBeUndefined();
      // What fits goes in.
      expect(await write('owner', file.slice(0, 2))).toMatchObject({ error: null, data: [] });
      expect(await item('PLAN-1')).toMatchObject({ price: 100 });
    } finally {
      await w.rows(`update public.user_plans set plan_name = 'Growth' where user_id = $1`, [seedUsers.owner1.id]);
    }
  });

  it('the catalog\'s own export, as the owner downloads it, previews as "nothing changes"', async () => {
    const supabase = w.clients.owner as unknown as StorewiseClient;
    const currency = await fetchCatalogCurrency(supabase, w.businessA);
    const csv = catalogCsv(await fetchCatalogExport(supabase, w.businessA, true), true, currency);
    expect(csv).toContain('Update Mug Large');
    const parsed = parseCatalogCsv(new TextEncoder().encode(csv).buffer);
    expect(parsed.errors).toEqual([]);
    const rows = toDatabaseRows(parsed.rows, currency);
    expect(rows.problems).toEqual([]);
    expect(rows.rows.length).toBeGreaterThan(5);
    const problems = await w.clients.owner.rpc('import_catalog', { _business_id: w.businessA, _rows: rows.rows.slice(0, 500), _dry_run: true });
    expect(problems).toMatchObject({ error: null, data: [] });
    const seen = await previewCatalogFile(supabase, { businessId: w.businessA, importId: 'rt' }, rows.rows);
    expect(summarizePreview(seen)).toMatchObject({ added: 0, updated: 0, unchanged: rows.rows.length });
  });

  it('refuses bad input to the preview with a 400 and a sentence, never a 500', async () => {
    const cases: [unknown, number | undefined, RegExp][] = [
      ['csv', undefined, /the file has no rows/],
      [[], undefined, /the file has no rows/],
      [Array.from({ length: 501 }, () => ({ product_name: 'X', price: '1' })), undefined, /at most 500 rows/],
      [[{ product_name: 'X', price: '1' }], 0, /between 1 and 1,000,000/],
    ];
    for (const [rows, first, message] of cases) {
      const res = await w.clients.owner.rpc('preview_catalog_import', { _business_id: w.businessA, _rows: rows, ...(first === undefined ? {} : { _first_row: first }) });
      expect(res.status).toBe(400);
      expect(res.error?.code).toBe('22023');
      expect(res.error?.message).toMatch(message);
    }
    // Junk cells are not a 500 either: they are not updates, and the check names them.
    const junk = await preview('owner', [{ product_name: 'Update Bowl', sku: 'UPD-BOWL', price: 'ten', cost: '-1', barcode: 'x' }]);
    expect(junk).toMatchObject({ status: 200, data: { rows: [{ action: 'same', changes: {} }] } });
  });
});
