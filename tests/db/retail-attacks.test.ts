/**
 * An attacker's pass over the retail functions and tables over HTTP with supabase-js, beyond the policy
 * matrices (which check each verb per role and table): a signed-in member with bad intent passing ids of another
 * business or store in function parameters, a cashier reaching cost or profit, quantities and amounts chosen to
 * break the money and stock invariants (fractions of an 'each' item, NaN, Infinity, overflowing numbers, 100k-line
 * arrays, concurrent refunds of one line), and bad input that must be a 4xx, never a 5xx.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

const threadStore = '5a000000-0000-4000-8000-000000000003';

let w: CatalogWorld;
let dt1 = '';
let rs1 = '';
let tn1 = '';
let shift = '';
let supplierB = '';
let riversideSale = '';
let riversideShift = '';

interface Outcome { status: number; code: string | undefined; message: string; data: unknown }

async function call(client: SupabaseClient, fn: string, args: Record<string, unknown>): Promise<Outcome> {
  const { data, error, status } = await client.rpc(fn, args);
  return { status, code: error?.code, message: error?.message ?? '', data };
}

/** A refusal the caller can act on: a 4xx with one of the expected SQLSTATEs. */
function refused(o: Outcome, codes: string[], label = '') {
  expect(o.status, `${label} ${o.message}`).toBeGreaterThanOrEqual(400);
  expect(o.status, `${label} ${o.message}`).toBeLessThan(500);
  expect(codes, `${label} ${o.code}: ${o.message}`).toContain(o.code);
}

const sale = (extra: Record<string, unknown> = {}) => ({
  id: randomUUID(), register_id: dt1, shift_id: shift,
  lines: [{ variant_id: w.f.variant, qty: 2, unit_price: 1400 }],
  tenders: [{ kind: 'cash', amount: 3049, tendered: 5000 }],
  ...extra,
});

async function ownerSale(lines: Record<string, unknown>[]) {
  const payload = { ...sale({ lines, offline: true }), tenders: [{ kind: 'card', amount: 0 }] };
  const res = await call(w.clients.owner, 'post_sale', { _payload: payload });
  if (res.code) throw new Error(res.message);
  return res.data as { id: string; lines: { id: string; qty: number; line_total: number }[] };
}

const balance = async (store: string, variant: string) =>
  Number((await w.rows<{ q: string }>(`select coalesce(sum(qty), 0)::text as q from public.stock_balances
     where store_id = $1 and variant_id = $2`, [store, variant]))[0]?.q);

beforeAll(async () => {
  w = await startCatalogWorld();
  const reg = async (prefix: string) =>
    (await w.rows<{ id: string }>('select id from public.registers where receipt_prefix = $1', [prefix]))[0]?.id ?? '';
  dt1 = await reg('DT1');
  rs1 = await reg('RS1');
  tn1 = await reg('TN1');
  const opened = await call(w.clients.cashier, 'open_shift', { _register_id: dt1, _opening_float: 0 });
  if (opened.code) throw new Error(opened.message);
  shift = (opened.data as { id: string }).id;
  supplierB = (await w.rows<{ id: string }>(`insert into public.suppliers (business_id, name, email)
    values ($1, 'Foreign Supply', 'b@supply.test') returning id`, [w.businessB]))[0]?.id ?? '';
  await w.rows(`insert into public.products (business_id, name) values ($1, 'Foreign Tee')`, [w.businessB]);
  await w.rows(`insert into public.variants (business_id, product_id, sku, price)
    select business_id, id, 'FOREIGN-TEE', 100 from public.products where name = 'Foreign Tee'`);
  riversideSale = (await w.rows<{ id: string }>(`select id from public.sales where store_id = $1 limit 1`, [riverside]))[0]?.id ?? '';
  // A refund goes into a shift of the sale's store (ADR 0171): the Riverside sale's own, closed since.
  riversideShift = (await w.rows<{ shift_id: string }>('select shift_id from public.sales where id = $1', [riversideSale]))[0]?.shift_id ?? '';
}, 600_000);

afterAll(async () => {
  await w?.stack.stop();
}, 120_000);

describe('ids of another business or store in function parameters', () => {
  it('post_sale refuses an item, lot or customer of another business and a register of another store', async () => {
    const foreignVariant = (await w.rows<{ id: string }>(
      'select id from public.variants where business_id = $1 limit 1', [w.businessB]))[0]?.id;
    expect(foreignVariant).toBeTruthy();
    refused(await call(w.clients.cashier, 'post_sale', { _payload: sale({
      lines: [{ variant_id: foreignVariant, qty: 1 }] }) }), ['22023']);
    refused(await call(w.clients.cashier, 'post_sale', { _payload: sale({ register_id: rs1, shift_id: null, offline: true }) }),
      ['42501']);
    refused(await call(w.clients.cashier, 'post_sale', { _payload: sale({ register_id: tn1, shift_id: null, offline: true }) }),
      ['42501']);
    const foreignCustomer = (await w.rows<{ id: string }>(`insert into public.customers (business_id, name)
      values ($1, 'Foreign Customer') returning id`, [w.businessB]))[0]?.id;
    refused(await call(w.clients.cashier, 'post_sale', { _payload: sale({ customer_id: foreignCustomer }) }), ['22023']);
    // A lot of another item: the sale takes the item's own lot, never the named foreign one.
    const res = await call(w.clients.cashier, 'post_sale', { _payload: sale({
      lines: [{ variant_id: w.f.lotVariant, qty: 1, lot_id: randomUUID() }], tenders: [{ kind: 'card', amount: 980 }] }) });
    expect(res.code, res.message).toBeUndefined();
    expect((res.data as { lines: { lot_id: string }[] }).lines[0]?.lot_id).toBe(w.f.lot);
  });

  it('a replay with the id of another store\'s sale or refund reveals nothing', async () => {
    const stolen = await call(w.clients.cashier, 'post_sale', { _payload: sale({ id: riversideSale }) });
    refused(stolen, ['42501']);
    expect(JSON.stringify(stolen.data ?? '')).not.toContain(riversideSale);
    const [sold] = await w.rows<{ id: string; qty: number }>(
      'select id, qty::float8 as qty from public.sale_lines where sale_id = $1 order by line_no limit 1', [riversideSale]);
    const refund = await call(w.clients.owner, 'post_refund', { _payload: { id: randomUUID(), sale_id: riversideSale,
      shift_id: riversideShift, offline: true, lines: [{ sale_line_id: sold?.id, qty: sold?.qty, disposition: 'damaged' }] } });
    expect(refund.code, refund.message).toBeUndefined();
    const mine = await ownerSale([{ variant_id: w.f.variant, qty: 1 }]);
    const replay = await call(w.clients.manager, 'post_refund', { _payload: { id: (refund.data as { id: string }).id,
      sale_id: mine.id, lines: [{ line_no: 1, qty: 1 }] } });
    refused(replay, ['42501']);
    expect(JSON.stringify(replay.data ?? '')).not.toContain(riversideSale);
  });

  it('post_sales reports another store\'s register as refused per sale and writes nothing for it', async () => {
    const payload = sale({ register_id: rs1, shift_id: null, offline: true });
    const res = await call(w.clients.cashier, 'post_sales', { _payloads: [payload] });
    expect(res.code, res.message).toBeUndefined();
    expect(res.data).toMatchObject([{ ok: false, code: '42501' }]);
    expect((await w.rows('select 1 from public.sales where id = $1', [payload.id])).length).toBe(0);
  });

  it('post_refund refuses a sale of a store the member may not use, and another business', async () => {
    expect(riversideSale).toBeTruthy();
    const line = (await w.rows<{ id: string }>('select id from public.sale_lines where sale_id = $1 limit 1', [riversideSale]))[0]?.id;
    for (const client of [w.clients.cashier, w.clients.manager, w.clients.other]) {
      refused(await call(client, 'post_refund', { _payload: { id: randomUUID(), sale_id: riversideSale, offline: true,
        lines: [{ sale_line_id: line, qty: 1 }] } }), ['42501']);
    }
  });

  it('a Downtown manager cannot move Riverside stock, orders or transfers', async () => {
    const m = w.clients.manager;
    refused(await call(m, 'send_transfer', { _from_store_id: riverside, _to_store_id: downtown,
      _lines: [{ variant_id: w.f.variant, qty: 1 }] }), ['42501']);
    refused(await call(m, 'send_transfer', { _from_store_id: downtown, _to_store_id: threadStore,
      _lines: [{ variant_id: w.f.variant, qty: 1 }] }), ['22023']);
    refused(await call(m, 'receive_transfer', { _transfer_id: w.f.transferToRiverside }), ['42501']);
    refused(await call(m, 'receive_purchase_order', { _purchase_order_id: w.f.poRiverside,
      _lines: [{ line_id: randomUUID(), qty: 1 }] }), ['42501']);
    refused(await call(m, 'create_purchase_order', { _store_id: riverside, _supplier_id: w.f.supplier,
      _lines: [{ variant_id: w.f.variant, qty: 1 }] }), ['42501']);
    refused(await call(m, 'create_purchase_order', { _store_id: downtown, _supplier_id: supplierB,
      _lines: [{ variant_id: w.f.variant, qty: 1 }] }), ['22023']);
    refused(await call(m, 'stock_history', { _store_id: riverside, _variant_id: w.f.variant }), ['42501']);
    refused(await call(m, 'email_purchase_order', { _purchase_order_id: w.f.poRiverside }), ['42501']);
    refused(await call(m, 'import_catalog', { _business_id: w.businessA, _store_id: riverside, _dry_run: true,
      _rows: [{ product_name: 'X', price: '1' }] }), ['42501']);
    refused(await call(m, 'import_catalog', { _business_id: w.businessB, _dry_run: true,
      _rows: [{ product_name: 'X', price: '1' }] }), ['42501']);
    const stock = await call(m, 'store_stock', { _store_id: riverside });
    expect(stock.data ?? []).toEqual([]);
  });

  it('create_reorder_purchase_order refuses another business\'s supplier and another store', async () => {
    refused(await call(w.clients.owner, 'create_reorder_purchase_order', { _store_id: downtown, _supplier_id: supplierB,
      _lines: [{ variant_id: w.f.variant, qty: 1 }] }), ['22023', '42501', '23503']);
    refused(await call(w.clients.manager, 'create_reorder_purchase_order', { _store_id: riverside,
      _supplier_id: w.f.supplier, _lines: [{ variant_id: w.f.variant, qty: 1 }] }), ['42501']);
    const n = await w.rows('select 1 from public.purchase_orders where supplier_id = $1', [supplierB]);
    expect(n.length).toBe(0);
  });

  it('reports, flagged sales and overviews of another business or store are refused or empty', async () => {
    const o = w.clients.other;
    const range = { _from: '2026-01-01', _to: '2026-12-31' };
    for (const fn of ['report_sales', 'report_profit']) {
      refused(await call(o, fn, { _business_id: w.businessA, ...range }), ['42501']);
    }
    refused(await call(o, 'flagged_sales', { _business_id: w.businessA }), ['42501']);
    refused(await call(o, 'business_overview', { _business_id: w.businessA }), ['42501']);
    refused(await call(o, 'review_sale', { _sale_id: riversideSale, _note: 'mine now' }), ['42501']);
    refused(await call(o, 'request_receipt_email', { _sale_id: riversideSale, _email: 'x@example.test' }), ['42501']);
    refused(await call(w.clients.cashier, 'request_receipt_email', { _sale_id: riversideSale, _email: 'x@example.test' }),
      ['42501']);
    const mine = await call(w.clients.manager, 'report_sales', { _business_id: w.businessA, ...range, _store_id: riverside });
    expect(mine.code, mine.message).toBeUndefined();
    expect(mine.data).toEqual([]);
    const flagged = await call(w.clients.manager, 'flagged_sales', { _business_id: w.businessA, _store_id: riverside });
    expect(flagged.code, flagged.message).toBeUndefined();
    expect(flagged.data).toEqual([]);
  });
});

describe('a cashier and cost, profit, prices and stock', () => {
  it('reads no cost through embedding, the tables or the report functions', async () => {
    const c = w.clients.cashier;
    const embedded = await c.from('sale_lines').select('id, sale_line_costs(*)').limit(20);
    expect(embedded.error).toBeNull();
    expect((embedded.data ?? []).length).toBeGreaterThan(0);
    for (const row of embedded.data ?? []) expect([null, undefined, []]).toContainEqual(row.sale_line_costs);
    const variants = await c.from('variants').select('id, variant_costs(*)').eq('id', w.f.variant);
    expect(variants.data?.[0]?.variant_costs ?? []).toEqual([]);
    expect((await c.from('variant_costs').select('*')).data ?? []).toEqual([]);
    expect((await c.from('sale_line_costs').select('*')).data ?? []).toEqual([]);
    expect((await c.from('stock_movements').select('unit_cost')).data ?? []).toEqual([]);
    const poLines = await c.from('purchase_order_lines').select('unit_cost');
    expect(poLines.data ?? []).toEqual([]);
    const range = { _business_id: w.businessA, _from: '2026-01-01', _to: '2026-12-31' };
    for (const fn of ['report_profit', 'report_sales', 'report_top_products', 'report_inventory_valuation']) {
      const args = fn === 'report_inventory_valuation' ? { _business_id: w.businessA } : range;
      refused(await call(c, fn, args), ['42501']);
    }
    const overview = await call(c, 'business_overview', { _business_id: w.businessA });
    expect(overview.code, overview.message).toBeUndefined();
    expect(JSON.stringify(overview.data)).not.toMatch(/"(cost|profit|margin|unit_cost)"/);
    refused(await call(c, 'stock_history', { _store_id: downtown, _variant_id: w.f.variant }), ['42501']);
    const posted = await call(c, 'post_sale', { _payload: sale() });
    expect(JSON.stringify(posted.data)).not.toMatch(/cost/);
  });

  it('changes no price and no stock directly', async () => {
    const c = w.clients.cashier;
    const price = await c.from('variants').update({ price: 1 }).eq('id', w.f.variant).select();
    expect(price.data ?? []).toEqual([]);
    const storePrice = await c.from('store_prices').update({ price: 1 }).eq('variant_id', w.f.variant).select();
    expect(storePrice.data ?? []).toEqual([]);
    const ins = await c.from('store_prices').insert({ business_id: w.businessA, store_id: downtown, variant_id: w.f.variant2, price: 1 });
    expect(ins.error?.code).toMatch(/^(42501|23505)$/);
    const stock = await c.from('stock_balances').update({ qty: 1000 }).eq('variant_id', w.f.variant);
    expect(stock.error?.code).toBe('42501');
    const mv = await c.from('stock_movements').insert({ business_id: w.businessA, store_id: downtown, variant_id: w.f.variant,
      kind: 'adjust', qty: 1000 });
    expect(mv.error?.code).toBe('42501');
    refused(await call(c, 'adjust_stock', { _store_id: downtown, _variant_id: w.f.variant, _qty: 100, _reason: 'found' }),
      ['42501']);
    refused(await call(c, 'post_count', { _store_id: downtown, _lines: [{ variant_id: w.f.variant, counted: 999 }] }),
      ['42501']);
    const [{ price: after } = { price: 0 }] = await w.rows<{ price: number }>(
      'select price::int from public.store_prices where store_id = $1 and variant_id = $2', [downtown, w.f.variant]);
    expect(after).toBe(1400);
  });
});

describe('money and stock invariants', () => {
  it('ten concurrent full refunds of one line refund it once', async () => {
    const s = await ownerSale([{ variant_id: w.f.variant, qty: 3 }]);
    const line = s.lines[0]!;
    const before = await balance(downtown, w.f.variant);
    const results = await Promise.all(Array.from({ length: 10 }, () => call(w.clients.owner, 'post_refund', {
      _payload: { id: randomUUID(), sale_id: s.id, shift_id: shift, lines: [{ sale_line_id: line.id, qty: 3 }] } })));
    expect(results.filter((r) => !r.code)).toHaveLength(1);
    // The rest: refused as nothing is left, or turned away by the per-user limit on heavy calls (429, ADR 0181).
    for (const r of results.filter((x) => x.code)) refused(r, ['22023', '53300']);
    const [{ qty, amount } = { qty: '', amount: '' }] = await w.rows<{ qty: string; amount: string }>(
      'select sum(qty)::text as qty, sum(amount)::text as amount from public.refund_lines where sale_line_id = $1', [line.id]);
    expect(Number(qty)).toBe(3);
    expect(Number(amount)).toBe(line.line_total);
    expect(await balance(downtown, w.f.variant)).toBe(before + 3);
  });

  it('one refund naming a line twice (by id and by number) cannot refund more than was sold', async () => {
    const s = await ownerSale([{ variant_id: w.f.variant, qty: 3 }]);
    const line = s.lines[0]!;
    const twice = [{ sale_line_id: line.id, qty: 2 }, { line_no: 1, qty: 2 }];
    refused(await call(w.clients.owner, 'post_refund', { _payload: { id: randomUUID(), sale_id: s.id, shift_id: shift, lines: twice } }),
      ['22023']);
    // From the offline outbox it is kept, clamped to what was left and flagged.
    const offline = await call(w.clients.owner, 'post_refund', { _payload: { id: randomUUID(), sale_id: s.id, shift_id: shift,
      offline: true, lines: twice } });
    expect(offline.code, offline.message).toBeUndefined();
    // The two mentions are one part (merged per sale line, ADR 0171), flagged at the first mention.
    expect(offline.data).toMatchObject({ total: line.line_total, review_reasons: ['over_refund:1'] });
    const [{ qty } = { qty: '' }] = await w.rows<{ qty: string }>(
      'select sum(qty)::text as qty from public.refund_lines where sale_line_id = $1', [line.id]);
    expect(Number(qty)).toBe(3);
  });

  it('a refund of a fraction, a negative or NaN quantity of an item sold by the piece is refused', async () => {
    const s = await ownerSale([{ variant_id: w.f.variant, qty: 2 }]);
    const line = s.lines[0]!;
    for (const [qty, disposition] of [[0.5, 'damaged'], [0.5, 'restock'], [1.0004, 'damaged'], [-1, 'restock'],
      ['NaN', 'damaged'], [Number.MAX_VALUE, 'damaged']] as const) {
      const res = await call(w.clients.owner, 'post_refund', { _payload: { id: randomUUID(), sale_id: s.id,
        shift_id: shift, lines: [{ sale_line_id: line.id, qty, disposition }] } });
      refused(res, ['22023', '23514', '22003']);
    }
    expect((await w.rows('select 1 from public.refund_lines where sale_line_id = $1', [line.id])).length).toBe(0);
  });

  it('post_sale refuses fractional, negative, NaN, Infinity and enormous quantities and amounts with a 4xx', async () => {
    const bad: Record<string, unknown>[] = [
      { variant_id: w.f.variant, qty: 1.5 },
      { variant_id: w.f.variant, qty: -2 },
      { variant_id: w.f.variant, qty: 'NaN' },
      { variant_id: w.f.variant, qty: 'Infinity' },
      { variant_id: w.f.variant, qty: Number.MAX_VALUE },
      { variant_id: w.f.variant, qty: Number.MIN_VALUE },
      { variant_id: w.f.kgVariant, qty: 0.0001 },
      { variant_id: w.f.variant, qty: 1, unit_price: -1 },
      { variant_id: w.f.variant, qty: 1, unit_price: 1e30 },
      { variant_id: w.f.variant, qty: 1, discount: 1e30 },
    ];
    for (const line of bad) {
      refused(await call(w.clients.cashier, 'post_sale', { _payload: sale({ lines: [line] }) }), ['22023', '22P02', '22003'], JSON.stringify(line));
    }
    // Offline a register may claim any price (kept and flagged), but not one whose total overflows.
    const huge = await call(w.clients.cashier, 'post_sale', { _payload: sale({ offline: true,
      lines: [{ variant_id: w.f.variant, qty: 999999999, unit_price: 999999999999 }] }) });
    refused(huge, ['22003', '22023']);
    const manyHuge = await call(w.clients.cashier, 'post_sale', { _payload: sale({ offline: true,
      lines: Array.from({ length: 500 }, () => ({ variant_id: w.f.variant, qty: 9999999, unit_price: 999999999999 })) }) });
    refused(manyHuge, ['22003', '22023']);
    refused(await call(w.clients.cashier, 'post_sale', { _payload: sale({ tenders: [{ kind: 'cash', amount: 1e30 }] }) }),
      ['22023']);
  });

  it('duplicate lines of one item take the stock once per line and total it once', async () => {
    const before = await balance(downtown, w.f.variant);
    const res = await call(w.clients.cashier, 'post_sale', { _payload: sale({
      lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1400 }, { variant_id: w.f.variant, qty: 1, unit_price: 1400 }],
      tenders: [{ kind: 'card', amount: 3048 }] }) });
    expect(res.code, res.message).toBeUndefined();
    expect((res.data as { total: number }).total).toBe(3048);
    expect(await balance(downtown, w.f.variant)).toBe(before - 2);
  });

  it('arrays of 100k elements are refused at the gateway, and the most that fits under 1 MB by each function', async () => {
    const many = <T>(n: number, x: T) => Array.from({ length: n }, () => x);
    const line = { variant_id: w.f.variant, qty: 1 };
    const gateway = await call(w.clients.cashier, 'post_sale', { _payload: sale({ lines: many(100_000, line) }) });
    expect(gateway.status).toBe(413);
    const cases: [SupabaseClient, string, Record<string, unknown>][] = [
      [w.clients.cashier, 'post_sale', { _payload: sale({ lines: many(10_000, { ...line, unit_price: 1400 }) }) }],
      [w.clients.cashier, 'post_sales', { _payloads: many(1000, sale()) }],
      [w.clients.owner, 'post_refund', { _payload: { id: randomUUID(), sale_id: riversideSale, lines: many(10_000, { line_no: 1, qty: 1 }) } }],
      [w.clients.owner, 'send_transfer', { _from_store_id: downtown, _to_store_id: riverside, _lines: many(10_000, line) }],
      [w.clients.owner, 'post_count', { _store_id: downtown, _lines: many(10_000, { variant_id: w.f.variant, counted: 1 }) }],
      [w.clients.owner, 'create_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier, _lines: many(10_000, line) }],
      [w.clients.owner, 'create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier,
        _lines: many(10_000, line) }],
      [w.clients.owner, 'import_catalog', { _business_id: w.businessA, _rows: many(25_000, { product_name: 'X', price: '1' }) }],
      [w.clients.owner, 'reorder_inputs', { _business_id: w.businessA, _store_id: downtown, _variant_ids: many(10_000, w.f.variant) }],
      [w.clients.owner, 'receive_transfer', { _transfer_id: w.f.transferToRiverside,
        _lines: many(10_000, { line_id: randomUUID(), received: 1 }) }],
    ];
    for (const [client, fn, args] of cases) {
      const res = await call(client, fn, args);
      refused(res, ['22023'], fn);
      expect(res.message, fn).toMatch(/at most|between 1 and/i);
    }
    // Junk lines of a purchase order are refused at the first one.
    refused(await call(w.clients.owner, 'receive_purchase_order', { _purchase_order_id: w.f.poOrdered,
      _lines: many(10_000, { line_id: randomUUID(), qty: 1 }) }), ['22023'], 'receive_purchase_order');
    expect(await balance(riverside, w.f.variant)).toBe(50);
    const [{ status } = { status: '' }] = await w.rows<{ status: string }>('select status from public.transfers where id = $1',
      [w.f.transferToRiverside]);
    expect(status).toBe('sent');
  });

  it('transfers, counts and orders refuse fractions of an each item, NaN and Infinity with a 4xx', async () => {
    const o = w.clients.owner;
    for (const qty of [0.5, 'NaN', 'Infinity', -1, 1e30]) {
      refused(await call(o, 'send_transfer', { _from_store_id: downtown, _to_store_id: riverside,
        _lines: [{ variant_id: w.f.variant, qty }] }), ['22023', '22P02', '22003'], `send_transfer ${qty}`);
      refused(await call(o, 'post_count', { _store_id: downtown, _lines: [{ variant_id: w.f.variant, counted: qty }] }),
        ['22023', '22P02', '22003'], `post_count ${qty}`);
      refused(await call(o, 'create_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier,
        _lines: [{ variant_id: w.f.variant, qty }] }), ['22023', '22P02', '22003'], `create_purchase_order ${qty}`);
      refused(await call(o, 'create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier,
        _lines: [{ variant_id: w.f.variant, qty }] }), ['22023', '22P02', '22003', '23514'], `create_reorder_purchase_order ${qty}`);
      // A correction may take stock out (-1 is legitimate there).
      if (qty !== -1) {
        refused(await call(o, 'adjust_stock', { _store_id: downtown, _variant_id: w.f.variant, _qty: qty, _reason: 'correction' }),
          ['22023', '22P02', '22003'], `adjust_stock ${qty}`);
      }
    }
    const line = (await w.rows<{ id: string }>('select id from public.transfer_lines where transfer_id = $1',
      [w.f.transferToRiverside]))[0]?.id;
    for (const received of ['NaN', 'abc', 0.5, -1, 1e30]) {
      refused(await call(o, 'receive_transfer', { _transfer_id: w.f.transferToRiverside,
        _lines: [{ line_id: line, received }] }), ['22023', '22P02', '22003'], `receive_transfer ${received}`);
    }
    const poLine = (await w.rows<{ id: string }>('select id from public.purchase_order_lines where purchase_order_id = $1',
      [w.f.poOrdered]))[0]?.id;
    for (const qty of [0.5, 'NaN', 'Infinity', 1e30]) {
      refused(await call(o, 'receive_purchase_order', { _purchase_order_id: w.f.poOrdered,
        _lines: [{ line_id: poLine, qty }] }), ['22023', '22P02', '22003'], `receive_purchase_order ${qty}`);
    }
    refused(await call(o, 'receive_purchase_order', { _purchase_order_id: w.f.poOrdered,
      _lines: [{ line_id: poLine, qty: 6 }, { line_id: poLine, qty: 6 }] }), ['22023']);
    refused(await call(o, 'receive_stock', { _store_id: downtown, _variant_id: w.f.variant, _qty: 1, _unit_cost: '1e30' }),
      ['22023', '22P02', '22003']);
    expect(await balance(riverside, w.f.variant)).toBe(50);
  });
});

describe('bad input is a 4xx, never a 5xx', () => {
  it('every retail function answers malformed arguments with a class 22, 23, 42501 or P0001 error', async () => {
    const o = w.clients.owner;
    const cases: [string, Record<string, unknown>][] = [
      ['post_sale', { _payload: 'sale' }],
      ['post_sale', { _payload: [] }],
      ['post_sale', { _payload: { id: randomUUID(), register_id: dt1, shift_id: shift, lines: [1, 'x'], tenders: [] } }],
      ['post_sale', { _payload: sale({ occurred_at: 'yesterday-ish' }) }],
      ['post_sale', { _payload: sale({ tenders: ['cash'] }) }],
      ['post_sales', { _payloads: { not: 'a list' } }],
      ['post_refund', { _payload: { id: randomUUID(), sale_id: riversideSale, lines: 'all' } }],
      ['post_refund', { _payload: { id: randomUUID(), sale_id: riversideSale, occurred_at: 'soon', lines: [{ line_no: 1, qty: 1 }] } }],
      ['send_transfer', { _from_store_id: downtown, _to_store_id: riverside, _lines: [{ variant_id: 'nope', qty: 1 }] }],
      ['send_transfer', { _from_store_id: 'nope', _to_store_id: riverside, _lines: [] }],
      ['receive_transfer', { _transfer_id: w.f.transferToRiverside, _lines: { line_id: 1 } }],
      ['receive_purchase_order', { _purchase_order_id: w.f.poOrdered, _lines: [{ line_id: 'x', qty: 1 }] }],
      ['create_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier, _lines: [{ variant_id: w.f.variant, qty: 1, unit_cost: 'free' }] }],
      ['create_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier, _lines: [7] }],
      ['import_catalog', { _business_id: w.businessA, _rows: 'csv' }],
      ['store_stock', { _store_id: downtown, _limit: 'all' }],
      ['stock_history', { _store_id: downtown, _variant_id: w.f.variant, _limit: 1e30 }],
      ['report_sales', { _business_id: w.businessA, _from: '2026-02-30', _to: '2026-03-01' }],
      ['report_sales', { _business_id: w.businessA, _from: '2026-01-01', _to: '2026-03-01', _grain: 'century' }],
      ['report_sales_by', { _business_id: w.businessA, _from: '2026-01-01', _to: '2026-03-01', _dimension: 'planet' }],
      ['report_slow_movers', { _business_id: w.businessA, _days: 1e30 }],
      ['flagged_sales', { _business_id: w.businessA, _limit: -1 }],
      ['review_sale', { _sale_id: 'x', _note: 'y' }],
      ['request_receipt_email', { _sale_id: riversideSale, _email: 'not an address' }],
      ['business_overview', { _business_id: w.businessA, _today: 'someday' }],
      ['reorder_inputs', { _business_id: w.businessA, _store_id: downtown, _variant_ids: ['x'] }],
    ];
    for (const [fn, args] of cases) {
      const res = await call(o, fn, args);
      expect(res.status, `${fn}: ${res.code} ${res.message}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${fn}: ${res.code} ${res.message}`).toBeLessThan(500);
      expect(res.code ?? '', `${fn}: ${res.message}`).toMatch(/^(22|23|42501|P0001|PGRST)/);
    }
  });
});
