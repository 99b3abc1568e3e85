/**
 * The reports of 20261123150000_reports_more.sql on a generated set with known totals: owner2's store gets two
 * products, three sales over two local days (one at 23:30 New York time, which is the next day in UTC), two
 * refunds (one restocked, one damaged), a shift with a count 0.50 short, and the ledger rows that go with them.
 * Every figure below was worked out by hand from those rows (tax exclusive at 10 %), so a report that joins,
 * groups, nets refunds or buckets days wrongly fails here whatever the demo data hold.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from './support/seed-ids';

let stack: StackHandle;
let owner: SupabaseClient;
let business = '';
let store = '';
let va = '';
let vb = '';
let shift = '';
const D1 = '2026-01-12';
const D2 = '2026-01-13';

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await stack.db.query<T>(sql, params)).rows;
const one = async (sql: string, params: unknown[] = []) => (await q<{ id: string }>(sql, params))[0]!.id;

async function rpc<T>(fn: string, args: Record<string, unknown>): Promise<T[]> {
  const { data, error } = await owner.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as T[];
}
const num = (row: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(keys.map((k) => [k, row[k] == null ? null : Number(row[k])]));

beforeAll(async () => {
  stack = await startStack();
  const o2 = seedUsers.owner2.id;
  business = await one('select id from public.businesses where owner_id = $1', [o2]);
  store = await one('select id from public.stores where business_id = $1 order by created_at limit 1', [business]);
  await q(`update public.stores set time_zone = 'America/New_York', tax_inclusive = false, default_tax_rate = 10 where id = $1`, [store]);
  const register = (await q<{ id: string }>('select id from public.registers where store_id = $1 limit 1', [store]))[0]?.id
    ?? await one(`insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, 'Known till', 'KN') returning id`,
      [business, store]);
  const drinks = await one(`insert into public.categories (business_id, name) values ($1, 'Known Drinks') returning id`, [business]);
  const snacks = await one(`insert into public.categories (business_id, name) values ($1, 'Known Snacks') returning id`, [business]);
  const product = async (name: string, cat: string, sku: string, price: number, cost: number) => {
    const p = await one(`insert into public.products (business_id, name, category_id, tax_rate) values ($1, $2, $3, 10) returning id`,
      [business, name, cat]);
    const v = await one(`insert into public.variants (business_id, product_id, sku, price) values ($1, $2, $3, $4) returning id`,
      [business, p, sku, price]);
    await q('insert into public.variant_costs (variant_id, business_id, cost) values ($1, $2, $3)', [v, business, cost]);
    await q(`select private.apply_movement($1, $2, $3, null, 'opening', 10, null, $4, $5::timestamptz)`,
      [business, store, v, cost, '2026-01-11 12:00-05']);
    return v;
  };
  va = await product('Known Cola', drinks, 'KN-COLA', 1000, 400);
  vb = await product('Known Crisps', snacks, 'KN-CRISPS', 500, 200);

  shift = await one(`insert into public.shifts (business_id, store_id, register_id, cashier_id, opened_at, opening_float,
      closed_at, closed_by, counted_total, expected_cash, difference)
    values ($1, $2, $3, $4, '${D1} 08:00-05', 10000, '${D1} 22:00-05', $4, 12700, 12750, -50) returning id`,
  [business, store, register, o2]);

  let receipt = 0;
  const sale = async (at: string, shiftId: string | null, tender: string, lines: [string, number, number][]) => {
    const id = crypto.randomUUID();
    const rows = lines.map(([v, qty, price]) => ({ v, qty, net: qty * price, tax: qty * price / 10 }));
    const total = rows.reduce((a, r) => a + r.net + r.tax, 0);
    const tax = rows.reduce((a, r) => a + r.tax, 0);
    await q(`insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, receipt_number, currency,
        tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total, change_total, occurred_at)
      values ($1, $2, $3, $4, $5, $6, $7, 'USD', false, $8, 0, $9, $10, $10, 0, $11)`,
    [id, business, store, register, shiftId, o2, `KN-${++receipt}`, total - tax, tax, total, at]);
    await q(`insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered) values ($1, $2, $3, $4, $5, $5)`,
      [business, store, id, tender, total]);
    const lineIds: string[] = [];
    for (const [i, r] of rows.entries()) {
      const line = await one(`insert into public.sale_lines (business_id, store_id, sale_id, line_no, variant_id, description, qty,
          unit_price, tax_rate, tax_amount, line_total) values ($1, $2, $3, $4, $5, 'line', $6, $7, 10, $8, $9) returning id`,
      [business, store, id, i + 1, r.v, r.qty, r.net / r.qty, r.tax, r.net + r.tax]);
      await q('insert into public.sale_line_costs (sale_line_id, business_id, store_id, unit_cost) values ($1, $2, $3, $4)',
        [line, business, store, r.v === va ? 400 : 200]);
      await q(`select private.apply_movement($1, $2, $3, null, 'sale', $4, null, $5, $6::timestamptz, 'sale', $7)`,
        [business, store, r.v, -r.qty, r.v === va ? 400 : 200, at, id]);
      lineIds.push(line);
    }
    return { id, lineIds };
  };
  const refund = async (at: string, s: { id: string; lineIds: string[] }, line: number, qty: number, amount: number,
    disposition: string, tender: string, variant: string, cost: number) => {
    const id = crypto.randomUUID();
    await q(`insert into public.refunds (id, business_id, store_id, sale_id, register_id, actor_id, tender_kind, total, occurred_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [id, business, store, s.id, register, o2, tender, amount, at]);
    await q(`insert into public.refund_lines (business_id, refund_id, sale_line_id, qty, amount, disposition)
      values ($1, $2, $3, $4, $5, $6)`, [business, id, s.lineIds[line], qty, amount, disposition]);
    if (disposition === 'restock') {
      await q(`select private.apply_movement($1, $2, $3, null, 'refund', $4, null, $5, $6::timestamptz, 'refund', $7)`,
        [business, store, variant, qty, cost, at, id]);
    }
  };
  const s1 = await sale(`${D1} 10:00-05`, shift, 'cash', [[va, 2, 1000], [vb, 1, 500]]);
  // 23:30 in New York on D1 is 04:30 UTC on D2: a local-day report puts it on D1.
  await sale(`${D1} 23:30-05`, shift, 'card', [[va, 1, 1000]]);
  const s3 = await sale(`${D2} 11:00-05`, null, 'card', [[vb, 4, 500]]);
  await refund(`${D2} 12:00-05`, s1, 0, 1, 1100, 'restock', 'cash', va, 400);
  await refund(`${D2} 13:00-05`, s3, 0, 1, 550, 'damaged', 'card', vb, 200);

  owner = createTestClient(stack);
  const { error } = await owner.auth.signInWithPassword({ email: seedUsers.owner2.email, password: seedUsers.owner2.password });
  if (error) throw new Error(error.message);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const range = { _from: D1, _to: D2 };
const money = ['receipts', 'units', 'gross', 'refunds', 'net_sales', 'tax', 'revenue', 'cost', 'profit', 'margin'];

describe('report_sales_by on known totals', () => {
  it('by store: refunds netted, tax share and restocked cost given back', async () => {
    const rows = await rpc<Record<string, unknown>>('report_sales_by', { _business_id: business, ...range, _dimension: 'store', _store_id: store });
    expect(rows).toHaveLength(1);
    expect(num(rows[0]!, ...money)).toEqual({
      receipts: 3, units: 6, gross: 6050, refunds: 1650, net_sales: 4400, tax: 400, revenue: 4000, cost: 1800, profit: 2200, margin: 0.55,
    });
  });

  it('by staff: the one member who sold and refunded, by name', async () => {
    const rows = await rpc<Record<string, unknown>>('report_sales_by', { _business_id: business, ...range, _dimension: 'staff', _store_id: store });
    expect(rows.map((r) => [r.key, r.label, Number(r.net_sales), Number(r.profit)])).toEqual([[seedUsers.owner2.id, 'Marco Tailor', 4400, 2200]]);
  });

  it('by category: each line in its product category', async () => {
    const rows = await rpc<Record<string, unknown>>('report_sales_by', { _business_id: business, ...range, _dimension: 'category', _store_id: store });
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, num(r, ...money)]));
    expect(byLabel['Known Drinks']).toEqual({
      receipts: 2, units: 2, gross: 3300, refunds: 1100, net_sales: 2200, tax: 200, revenue: 2000, cost: 800, profit: 1200, margin: 0.6,
    });
    expect(byLabel['Known Snacks']).toEqual({
      receipts: 2, units: 4, gross: 2750, refunds: 550, net_sales: 2200, tax: 200, revenue: 2000, cost: 1000, profit: 1000, margin: 0.5,
    });
  });

  it('by tender: refunds go back to the tender they were paid to; no profit for a payment', async () => {
    const rows = await rpc<Record<string, unknown>>('report_sales_by', { _business_id: business, ...range, _dimension: 'tender', _store_id: store });
    const byKey = Object.fromEntries(rows.map((r) => [r.key, num(r, 'receipts', 'gross', 'refunds', 'net_sales', 'profit')]));
    expect(byKey).toEqual({
      cash: { receipts: 1, gross: 2750, refunds: 1100, net_sales: 1650, profit: null },
      card: { receipts: 2, gross: 3300, refunds: 550, net_sales: 2750, profit: null },
    });
  });

  it('puts a sale on its store\'s local day, not the UTC day', async () => {
    const d1 = await rpc<Record<string, unknown>>('report_sales_by', { _business_id: business, _from: D1, _to: D1, _dimension: 'store', _store_id: store });
    expect(num(d1[0]!, 'receipts', 'gross', 'refunds')).toEqual({ receipts: 2, gross: 3850, refunds: 0 });
    const d2 = await rpc<Record<string, unknown>>('report_sales_by', { _business_id: business, _from: D2, _to: D2, _dimension: 'store', _store_id: store });
    expect(num(d2[0]!, 'receipts', 'gross', 'refunds')).toEqual({ receipts: 1, gross: 2200, refunds: 1650 });
  });

  it('refuses an unknown dimension with 22023', async () => {
    const { error } = await owner.rpc('report_sales_by', { _business_id: business, ...range, _dimension: 'colour' });
    expect(error?.code).toBe('22023');
  });
});

describe('stock and shift reports on known totals', () => {
  it('sell-through: sold net of refunds over sold plus on hand at the end of the range', async () => {
    const rows = await rpc<Record<string, unknown>>('report_sell_through', { _business_id: business, ...range, _store_id: store, _limit: 500 });
    const byVariant = Object.fromEntries(rows.map((r) => [r.variant_id, num(r, 'units_sold', 'on_hand_end', 'sell_through', 'revenue')]));
    expect(byVariant[va]).toEqual({ units_sold: 2, on_hand_end: 8, sell_through: 0.2, revenue: 2000 });
    expect(byVariant[vb]).toEqual({ units_sold: 4, on_hand_end: 5, sell_through: 0.4444, revenue: 2000 });
    // On hand at the end of D1 (before the refund and the D2 sale): 7 and 9.
    const d1 = await rpc<Record<string, unknown>>('report_sell_through', { _business_id: business, _from: D1, _to: D1, _store_id: store, _limit: 500 });
    expect(num(d1.find((r) => r.variant_id === va)!, 'units_sold', 'on_hand_end')).toEqual({ units_sold: 3, on_hand_end: 7 });
    expect(num(d1.find((r) => r.variant_id === vb)!, 'units_sold', 'on_hand_end')).toEqual({ units_sold: 1, on_hand_end: 9 });
  });

  it('inventory valuation at cost and at retail per category', async () => {
    const rows = await rpc<Record<string, unknown>>('report_inventory_valuation', { _business_id: business, _store_id: store });
    const byCat = Object.fromEntries(rows.map((r) => [r.category, num(r, 'variants', 'units', 'cost_value', 'retail_value')]));
    expect(byCat['Known Drinks']).toEqual({ variants: 1, units: 8, cost_value: 3200, retail_value: 8000 });
    expect(byCat['Known Snacks']).toEqual({ variants: 1, units: 5, cost_value: 1000, retail_value: 2500 });
  });

  it('stock movements per day and kind', async () => {
    const rows = await rpc<Record<string, unknown>>('report_stock_movements', { _business_id: business, ...range, _store_id: store });
    const mine = rows.map((r) => [r.period, r.kind, Number(r.movements), Number(r.units_in), Number(r.units_out), Number(r.cost_value)]);
    expect(mine).toEqual([
      [D1, 'sale', 3, 0, 4, -1400],
      [D2, 'refund', 1, 1, 0, 400],
      [D2, 'sale', 1, 0, 4, -800],
    ]);
  });

  it('Z report: the shift\'s sales, tenders and the 0.50 short', async () => {
    const rows = await rpc<Record<string, unknown>>('report_shifts', { _business_id: business, ...range, _store_id: store });
    const z = rows.find((r) => r.shift_id === shift)!;
    expect(z.cashier_name).toBe('Marco Tailor');
    expect(num(z, 'sales_count', 'gross', 'cash', 'card', 'expected_cash', 'counted_total', 'over_short')).toEqual({
      sales_count: 2, gross: 3850, cash: 2750, card: 1100, expected_cash: 12750, counted_total: 12700, over_short: -50,
    });
  });

  it('slow movers: nothing sold in the last 30 days, so both are slow, with their stock at cost', async () => {
    const rows = await rpc<Record<string, unknown>>('report_slow_movers', { _business_id: business, _store_id: store, _days: 30, _limit: 500 });
    const cola = rows.find((r) => r.variant_id === va);
    expect(num(cola!, 'on_hand', 'units_sold', 'cost_value')).toEqual({ on_hand: 8, units_sold: 0, cost_value: 3200 });
    expect(cola!.last_sold_on).toBe(D1);
    const bad = await owner.rpc('report_slow_movers', { _business_id: business, _days: 0 });
    expect(bad.error?.code).toBe('22023');
  });
});

describe('business_overview on known totals', () => {
  it('today (D2) against the same weekday last week, 30 days of sales and the top products', async () => {
    const { data, error } = await owner.rpc('business_overview', { _business_id: business, _store_id: store, _today: D2 });
    expect(error).toBeNull();
    const o = data as { today: Record<string, number>; last_week: Record<string, number>; daily: { day: string; sales: number }[];
      top_products: { variant_id: string; revenue: number }[]; role: string };
    expect(o.role).toBe('owner');
    expect(o.today).toEqual({ sales: 550, refunds: 1650, transactions: 1, average_basket: 2200, gross_profit: 100 });
    expect(o.last_week).toEqual({ sales: 0, refunds: 0, transactions: 0, average_basket: 0, gross_profit: 0 });
    expect(o.daily).toHaveLength(30);
    expect(o.daily.at(-1)).toEqual({ day: D2, sales: 550 });
    expect(o.daily.at(-2)).toEqual({ day: D1, sales: 3850 });
    expect(o.daily.slice(0, -2).every((d) => d.sales === 0)).toBe(true);
    // Top products as rung up (gross of refunds), net of tax: cola 2 x 1000 + 1000, crisps 500 + 4 x 500.
    expect(o.top_products.map((t) => [t.variant_id, Number(t.revenue)])).toEqual([[va, 3000], [vb, 2500]]);
  });
});

// Refund lines carry their sale line's variant (ADR 0438): the best and worst sellers find the refunds of their
// items by it instead of joining every refund of the range to its sale line.
describe('refund lines and their variant', () => {
  it('each refund line holds its sale line\'s variant, whatever the insert gave', async () => {
    const lines = await q<{ variant_id: string; sold: string }>(
      `select rl.variant_id, l.variant_id as sold from public.refund_lines rl join public.sale_lines l on l.id = rl.sale_line_id
        where rl.business_id = $1`, [business]);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line.variant_id).toBe(line.sold);
    const [first] = await q<{ refund_id: string; sale_line_id: string; variant_id: string }>(
      `select refund_id, sale_line_id, variant_id from public.refund_lines where business_id = $1 and variant_id = $2`, [business, va]);
    const [planted] = await q<{ id: string; variant_id: string }>(
      `insert into public.refund_lines (business_id, refund_id, sale_line_id, variant_id, qty, amount, disposition)
       values ($1, $2, $3, $4, 1, 1, 'damaged') returning id, variant_id`, [business, first?.refund_id, first?.sale_line_id, vb]);
    try {
      expect(planted?.variant_id).toBe(va);
    } finally {
      await q('delete from public.refund_lines where id = $1', [planted?.id]);
    }
  });

  it('the refunds of given items equal those items\' share of every refund of the range', async () => {
    const all = await q<Record<string, string>>('select * from private.variant_refunds($1, $2, $3, null, null) order by variant_id', [business, D1, D2]);
    const given = await q<Record<string, string>>('select * from private.variant_refunds($1, $2, $3, null, $4) order by variant_id', [business, D1, D2, [va, vb]]);
    expect(all).toHaveLength(2);
    expect(given).toEqual(all);
    expect(await q('select * from private.variant_refunds($1, $2, $3, null, $4)', [business, D1, D2, [va]])).toEqual(all.filter((r) => r.variant_id === va));
    // A range without those refunds (the day before) has none.
    expect(await q('select * from private.variant_refunds($1, $2, $3, null, $4)', [business, D1, D1, [va, vb]])).toEqual([]);
  });
});
