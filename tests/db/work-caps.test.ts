/**
 * Issue 22, finding 9: per-call work caps (supabase/migrations/20261127120000_work_caps.sql, docs/adr/0180).
 * - import_catalog checks at most 500 rows and writes at most 25 per call; a file goes in parts, numbered as the
 *   file's rows; the parts of one check see each other (a SKU or barcode repeated across parts); the plan's limit is
 *   the preview's to say once (issue 25); a part that fails writes nothing; an import id is its maker's only.
 * - post_sales takes at most 60 sale lines per batch, whatever the number of sales.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type StackHandle } from '../helpers/stack';
import { userClient, users } from '../local-stack/rest-test-clients';

let stack: StackHandle;
let owner: SupabaseClient;
let owner2: SupabaseClient;
let business = '';
let store = '';

const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await stack.db.query<T>(sql, params)).rows;

beforeAll(async () => {
  stack = await startStack();
  owner = await userClient(stack, users.owner1);
  owner2 = await userClient(stack, users.owner2);
  [{ id: business = '' } = { id: '' }] = await rows<{ id: string }>('select id from public.businesses where owner_id = $1 order by created_at limit 1', [users.owner1]);
  [{ id: store = '' } = { id: '' }] = await rows<{ id: string }>('select id from public.stores where business_id = $1 order by name limit 1', [business]);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const item = (name: string, extra: Record<string, string> = {}) => ({ product_name: name, price: '100', ...extra });
const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => item(`${prefix} ${i + 1}`, { sku: `${prefix}-${i + 1}` }));
const productCount = async () => Number((await rows<{ n: string }>('select count(*) as n from public.products where business_id = $1', [business]))[0]?.n);

describe('import_catalog in parts', () => {
  it('refuses more than 500 rows to check or 25 rows to write in one call, in plain words', async () => {
    const check = await owner.rpc('import_catalog', { _business_id: business, _rows: many(501, 'CAPA'), _dry_run: true });
    expect(check.status).toBe(400);
    expect(check.error?.message).toBe('check at most 500 rows in one call: send the file in parts');
    const before = await productCount();
    const write = await owner.rpc('import_catalog', { _business_id: business, _rows: many(26, 'CAPB'), _dry_run: false });
    expect(write.status).toBe(400);
    expect(write.error?.message).toBe('import at most 25 rows in one call: send the file in parts');
    expect(await productCount()).toBe(before);
    // At the cap, accepted (variants of one product: the plan allows few more products).
    const sizes = Array.from({ length: 500 }, (_, i) => item('Cap Tee', { sku: `CAPC-${i + 1}`, option_name: 'Size', option_value: `S${i + 1}` }));
    expect(await owner.rpc('import_catalog', { _business_id: business, _rows: sizes, _dry_run: true })).toMatchObject({ status: 200, data: [] });
  });

  it('checks each part against the parts before it, with the file\'s row numbers', async () => {
    const importId = randomUUID();
    const part1 = [item('Part Tee', { sku: 'PART-1', barcode: '96385074' }), item('Part Cap', { sku: 'PART-2' })];
    const first = await owner.rpc('import_catalog', { _business_id: business, _rows: part1, _dry_run: true, _import_id: importId, _first_row: 1 });
    expect(first).toMatchObject({ status: 200, data: [] });
    const part2 = [item('Part Sock', { sku: 'part-1' }), item('Part Hat', { sku: 'PART-4', barcode: '96385074' }), item('Part Bag', { price: 'ten' }),
      item('Part Pin', { category: 'X' })];
    const second = await owner.rpc('import_catalog', { _business_id: business, _rows: part2, _dry_run: true, _import_id: importId, _first_row: 3 });
    expect(second.error).toBeNull();
    expect(second.data).toEqual([
      { row_index: 3, message: 'this SKU is also on row 1' },
      { row_index: 4, message: 'this barcode is also on row 1' },
      { row_index: 5, message: 'the price must be a whole number of cents, 0 or more (got "ten")' },
      { row_index: 6, message: 'the category must be 2 to 100 characters' },
    ]);
    // The same part sent again (a retry) gives the same answer: its own earlier keys do not count against it.
    const again = await owner.rpc('import_catalog', { _business_id: business, _rows: part2, _dry_run: true, _import_id: importId, _first_row: 3 });
    expect(again.data).toEqual(second.data);
    // Someone else cannot use (or read through) this import id.
    const other = await owner2.rpc('import_catalog', { _business_id: business, _rows: part1, _dry_run: true, _import_id: importId });
    expect(other.error?.code).toBe('42501');
  });

  it('leaves the plan\'s limit to the preview (said once for the file) and to the write (refused past it)', async () => {
    // Owner 1 is on Growth (300 items). The check's parts name no row for the limit (issue 25: one message, from
    // preview_catalog_import's room, instead of one per row); the variants_plan_limit trigger refuses the write.
    const [{ n = 0 } = {}] = await rows<{ n: number }>(`select count(*)::int as n from public.variants v join public.products p
      on p.id = v.product_id where v.business_id = $1 and v.archived_at is null and p.archived_at is null`, [business]);
    const room = 300 - n;
    expect(room).toBeGreaterThan(2);
    const importId = randomUUID();
    const part1 = many(Math.min(room + 2, 500), 'LIM');
    expect(await owner.rpc('import_catalog', { _business_id: business, _rows: part1, _dry_run: true, _import_id: importId })).toMatchObject({ data: [] });
    const preview = await owner.rpc('preview_catalog_import', { _business_id: business, _rows: part1 });
    expect(preview.data).toMatchObject({ plan: 'Growth', max_items: 300, room });
  });

  it('writes a part all or nothing, naming the file\'s row; parts in order make one product of rows with one name', async () => {
    const before = await productCount();
    const bad = await owner.rpc('import_catalog', {
      _business_id: business, _store_id: store, _dry_run: false, _first_row: 51,
      _rows: [item('Write Tee', { sku: 'WR-1', opening_qty: '2' }), item('Write Odd', { sku: 'WR-2', opening_qty: '1.5' })],
    });
    expect(bad.data).toEqual([{ row_index: 52, message: 'this item is counted by the piece: enter a whole number' }]);
    expect(await productCount()).toBe(before);
    const importId = randomUUID();
    const first = await owner.rpc('import_catalog', {
      _business_id: business, _store_id: store, _dry_run: false, _import_id: importId, _first_row: 1,
      _rows: [item('Write Tee', { sku: 'WR-1', opening_qty: '2', option_name: 'Size', option_value: 'S' })],
    });
    expect(first).toMatchObject({ status: 200, data: [] });
    const second = await owner.rpc('import_catalog', {
      _business_id: business, _store_id: store, _dry_run: false, _import_id: importId, _first_row: 2,
      _rows: [item('Write Tee', { sku: 'WR-2', option_name: 'Size', option_value: 'M' })],
    });
    expect(second).toMatchObject({ status: 200, data: [] });
    expect(await productCount()).toBe(before + 1);
    const variants = await rows<{ sku: string }>(
      `select v.sku from public.variants v join public.products p on p.id = v.product_id where p.business_id = $1 and p.name = 'Write Tee' order by v.sku`, [business]);
    expect(variants).toEqual([{ sku: 'WR-1' }, { sku: 'WR-2' }]);
  });
});

describe('post_sales bounded by lines', () => {
  it('refuses a batch of more than 60 lines in all, whatever its number of sales', async () => {
    const [register] = await rows<{ id: string }>(
      `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, 'Caps register', 'CAPS') returning id`, [business, store]);
    const opened = await owner.rpc('open_shift', { _register_id: register?.id, _opening_float: 0 });
    expect(opened.error).toBeNull();
    const items = await rows<{ id: string }>(
      `select v.id from public.variants v join public.products p on p.id = v.product_id
        where v.business_id = $1 and not p.has_lots and p.unit = 'each' and v.archived_at is null and p.archived_at is null order by v.sku limit 31`, [business]);
    const sale = (lines: number) => ({
      id: randomUUID(), register_id: register?.id, shift_id: (opened.data as { id: string }).id, offline: true,
      lines: items.slice(0, lines).map((i) => ({ variant_id: i.id, qty: 1 })), tenders: [{ kind: 'card', amount: 0 }],
    });
    const over = await owner.rpc('post_sales', { _payloads: [sale(31), sale(30)] });
    expect(over.status).toBe(400);
    expect(over.error?.message).toBe('send at most 60 sale lines in one batch (this one has 61): send fewer sales at a time');
    const salesBefore = await rows('select id from public.sales where register_id = $1', [register?.id]);
    expect(salesBefore).toEqual([]);
    const within = await owner.rpc('post_sales', { _payloads: [sale(30), sale(30)] });
    expect(within.error).toBeNull();
    expect((within.data as { ok: boolean }[]).map((r) => r.ok)).toEqual([true, true]);
  });
});
