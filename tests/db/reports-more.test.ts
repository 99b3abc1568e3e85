/**
 * The reports of 20261123150000_reports_more.sql on the demo history of owner1's Fresh Corner Market, over HTTP
 * with supabase-js: every figure equals an independent SQL computation written another way (sale-level totals
 * and timestamp bounds in each store's time zone instead of the line facts and local dates), after a refund
 * posted through post_refund. A cashier gets no report, no cost and no profit (42501 or nothing through RLS),
 * a manager only their store, and a reorder suggestion becomes a purchase order draft.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let from: string;
let to: string;

const inRange = (a: string) => `${a}.business_id = $1
  and ${a}.occurred_at >= ($2::date::timestamp at time zone st.time_zone)
  and ${a}.occurred_at < (($3::date + 1)::timestamp at time zone st.time_zone)`;

async function call<T = Record<string, unknown>>(client: SupabaseClient, fn: string, args: Record<string, unknown>) {
  const { data, error } = await client.rpc(fn, args);
  return { rows: (data ?? []) as T[], error };
}

beforeAll(async () => {
  w = await startCatalogWorld();
  const [range] = await w.rows<{ from: string; to: string }>(`select (current_date - 40)::text as from, (current_date + 1)::text as to`);
  from = range!.from;
  to = range!.to;
  // A refund of one unit of a demo sale's first line, through the function the register uses.
  const [line] = await w.rows<{ sale_id: string; id: string }>(
    `select l.sale_id, l.id from public.sale_lines l join public.sales s on s.id = l.sale_id
      where s.business_id = $1 and s.store_id = $2
        and l.qty - coalesce((select sum(rl.qty) from public.refund_lines rl where rl.sale_line_id = l.id), 0) >= 1 order by s.occurred_at desc, l.line_no limit 1`,
    [w.businessA, downtown]);
  // At a Downtown till, in the owner's open shift (a refund goes out of a shift, ADR 0171).
  const [till] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`);
  const opened = await w.clients.owner.rpc('open_shift', { _register_id: till!.id, _opening_float: 0 });
  if (opened.error) throw new Error(opened.error.message);
  const { error } = await w.clients.owner.rpc('post_refund', {
    _payload: { id: crypto.randomUUID(), sale_id: line!.sale_id, shift_id: (opened.data as { id: string }).id,
      lines: [{ sale_line_id: line!.id, qty: 1, disposition: 'restock' }] },
  });
  if (error) throw new Error(error.message);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('report_sales_by on the demo history', () => {
  it('by store equals sale totals minus refund totals, and revenue minus cost', async () => {
    const { rows, error } = await call(w.clients.owner, 'report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'store' });
    expect(error).toBeNull();
    const expected = await w.rows<{ store_id: string; receipts: number; gross: number; refunds: number }>(
      `select st.id as store_id,
              (select count(*) from public.sales s where s.store_id = st.id and ${inRange('s')})::int as receipts,
              (select coalesce(sum(s.total), 0) from public.sales s where s.store_id = st.id and ${inRange('s')})::float8 as gross,
              (select coalesce(sum(r.total), 0) from public.refunds r where r.store_id = st.id and ${inRange('r')})::float8 as refunds
         from public.stores st where st.business_id = $1`,
      [w.businessA, from, to]);
    const sold = expected.filter((e) => e.receipts > 0);
    expect(sold.length).toBe(2);
    expect(expected.reduce((a, e) => a + e.refunds, 0)).toBeGreaterThan(0);
    for (const e of sold) {
      const r = rows.find((x) => x.key === e.store_id)!;
      expect([Number(r.receipts), Number(r.gross), Number(r.refunds), Number(r.net_sales)]).toEqual([e.receipts, e.gross, e.refunds, e.gross - e.refunds]);
      expect(Number(r.profit)).toBe(Number(r.revenue) - Number(r.cost));
    }
  });

  it('by category adds up to the store totals and matches a direct join per category', async () => {
    const { rows } = await call(w.clients.owner, 'report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'category' });
    const expected = await w.rows<{ name: string; gross: number; units: number }>(
      `select coalesce(c.name, 'Uncategorised') as name, sum(l.line_total)::float8 as gross, sum(l.qty)::float8 as units
         from public.sales s join public.stores st on st.id = s.store_id
         join public.sale_lines l on l.sale_id = s.id join public.variants v on v.id = l.variant_id
         join public.products p on p.id = v.product_id left join public.categories c on c.id = p.category_id
        where ${inRange('s')} group by 1`, [w.businessA, from, to]);
    expect(expected.length).toBeGreaterThan(3);
    for (const e of expected) {
      const r = rows.find((x) => x.label === e.name)!;
      expect(Number(r.gross)).toBe(e.gross);
    }
    const store = await call(w.clients.owner, 'report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'store' });
    const sum = (rs: Record<string, unknown>[], k: string) => rs.reduce((a, r) => a + Number(r[k]), 0);
    for (const k of ['gross', 'refunds', 'net_sales', 'tax', 'revenue', 'cost']) expect(sum(rows, k)).toBe(sum(store.rows, k));
  });

  it('by tender equals the sale tenders, and by staff names the cashier', async () => {
    const { rows } = await call(w.clients.owner, 'report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'tender' });
    const expected = await w.rows<{ kind: string; gross: number }>(
      `select t.kind, sum(t.amount)::float8 as gross from public.sales s join public.stores st on st.id = s.store_id
         join public.sale_tenders t on t.sale_id = s.id where ${inRange('s')} group by 1`, [w.businessA, from, to]);
    expect(Object.fromEntries(rows.map((r) => [r.key, Number(r.gross)]))).toEqual(Object.fromEntries(expected.map((e) => [e.kind, e.gross])));
    const staff = await call(w.clients.owner, 'report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'staff' });
    expect(staff.rows.map((r) => r.label)).toContain('Olivia Grocer');
  });
});

describe('stock and shift reports on the demo history', () => {
  it('inventory valuation equals balances x cost and x store price', async () => {
    const { rows, error } = await call(w.clients.owner, 'report_inventory_valuation', { _business_id: w.businessA });
    expect(error).toBeNull();
    const expected = await w.rows<{ store_id: string; cost: number; retail: number }>(
      `select b.store_id, round(sum(b.qty * coalesce(vc.cost, 0)))::float8 as cost,
              round(sum(b.qty * coalesce(sp.price, v.price)))::float8 as retail
         from public.stock_balances b join public.variants v on v.id = b.variant_id
         left join public.variant_costs vc on vc.variant_id = b.variant_id
         left join public.store_prices sp on sp.store_id = b.store_id and sp.variant_id = b.variant_id
        where b.business_id = $1 group by 1`, [w.businessA]);
    for (const e of expected) {
      const mine = rows.filter((r) => r.store_id === e.store_id);
      // Rounded per category: at most half a minor unit per category row away.
      expect(Math.abs(mine.reduce((a, r) => a + Number(r.cost_value), 0) - e.cost)).toBeLessThanOrEqual(mine.length);
      expect(Math.abs(mine.reduce((a, r) => a + Number(r.retail_value), 0) - e.retail)).toBeLessThanOrEqual(mine.length);
      expect(e.cost).toBeGreaterThan(0);
    }
  });

  it('Z reports carry the recorded count and the sales of each shift', async () => {
    const { rows } = await call(w.clients.owner, 'report_shifts', { _business_id: w.businessA, _from: from, _to: to, _store_id: downtown });
    expect(rows.length).toBeGreaterThan(20);
    const expected = await w.rows<{ id: string; n: number; gross: number; difference: number }>(
      `select sh.id, (select count(*) from public.sales s where s.shift_id = sh.id)::int as n,
              (select coalesce(sum(s.total), 0) from public.sales s where s.shift_id = sh.id)::float8 as gross, sh.difference::float8 as difference
         from public.shifts sh where sh.store_id = $1 and sh.closed_at is not null`, [downtown]);
    for (const e of expected) {
      const z = rows.find((r) => r.shift_id === e.id);
      if (!z) continue;
      expect([Number(z.sales_count), Number(z.gross), Number(z.over_short)]).toEqual([e.n, e.gross, e.difference]);
    }
    expect(rows.some((r) => Number(r.over_short) < 0)).toBe(true);
  });

  it('sell-through of the best seller equals sold / (sold + on hand at the end)', async () => {
    const { rows } = await call(w.clients.owner, 'report_sell_through', { _business_id: w.businessA, _from: from, _to: to, _store_id: riverside, _limit: 5 });
    expect(rows.length).toBe(5);
    const top = rows[0]!;
    const [e] = await w.rows<{ sold: number; on_hand: number }>(
      `select (select coalesce(sum(l.qty), 0) from public.sale_lines l join public.sales s on s.id = l.sale_id
                 join public.stores st on st.id = s.store_id where l.variant_id = $4 and s.store_id = $5 and ${inRange('s')})
              - (select coalesce(sum(rl.qty), 0) from public.refund_lines rl join public.sale_lines l on l.id = rl.sale_line_id
                   join public.refunds r on r.id = rl.refund_id join public.stores st on st.id = r.store_id
                  where l.variant_id = $4 and r.store_id = $5 and ${inRange('r')}) as sold,
              (select coalesce(sum(b.qty), 0) from public.stock_balances b where b.variant_id = $4 and b.store_id = $5) as on_hand`,
      [w.businessA, from, to, top.variant_id, riverside]);
    expect(Number(top.units_sold)).toBe(Number(e!.sold));
    expect(Number(top.on_hand_end)).toBe(Number(e!.on_hand));
    expect(Number(top.sell_through)).toBeCloseTo(Number(e!.sold) / (Number(e!.sold) + Number(e!.on_hand)), 4);
  });
});

describe('who may read reports', () => {
  const reports = () => [
    ['report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'store' }],
    ['report_sell_through', { _business_id: w.businessA, _from: from, _to: to }],
    ['report_slow_movers', { _business_id: w.businessA }],
    ['report_inventory_valuation', { _business_id: w.businessA }],
    ['report_stock_movements', { _business_id: w.businessA, _from: from, _to: to }],
    ['report_shifts', { _business_id: w.businessA, _from: from, _to: to }],
    ['demand_history', { _business_id: w.businessA, _store_id: downtown, _from: from, _to: to }],
    ['reorder_inputs', { _business_id: w.businessA, _store_id: downtown, _variant_ids: [w.f.variant] }],
    ['report_profit', { _business_id: w.businessA, _from: from, _to: to }],
  ] as const;

  it('a cashier, another business and anon get 42501 or nothing from every report', async () => {
    for (const who of ['cashier', 'other', 'anon'] as const) {
      for (const [fn, args] of reports()) {
        const { rows, error } = await call(w.clients[who], fn, args);
        expect(rows, `${who} ${fn}`).toEqual([]);
        expect(error, `${who} ${fn}`).not.toBeNull();
      }
    }
  });

  it('a cashier reads no recorded cost and sees only their own shift on the overview', async () => {
    const costs = await w.clients.cashier.from('sale_line_costs').select('unit_cost').limit(5);
    expect(costs.data).toEqual([]);
    const variantCosts = await w.clients.cashier.from('variant_costs').select('cost').limit(5);
    expect(variantCosts.data).toEqual([]);
    const { data, error } = await w.clients.cashier.rpc('business_overview', { _business_id: w.businessA });
    expect(error).toBeNull();
    expect(data).toEqual({ role: 'cashier', shift: null });
    const other = await w.clients.other.rpc('business_overview', { _business_id: w.businessA });
    expect(other.error?.code).toBe('42501');
  });

  it('a manager sees their store only, on reports and the overview', async () => {
    const { rows } = await call(w.clients.manager, 'report_sales_by', { _business_id: w.businessA, _from: from, _to: to, _dimension: 'store' });
    expect(rows.map((r) => r.key)).toEqual([downtown]);
    const val = await call(w.clients.manager, 'report_inventory_valuation', { _business_id: w.businessA });
    expect(new Set(val.rows.map((r) => r.store_id))).toEqual(new Set([downtown]));
    const { data } = await w.clients.manager.rpc('business_overview', { _business_id: w.businessA });
    const o = data as { role: string; daily: { sales: number }[]; low_stock: { store_id: string }[] };
    expect(o.role).toBe('manager');
    expect(o.daily).toHaveLength(30);
    expect(o.low_stock.every((l) => l.store_id === downtown)).toBe(true);
  });
});

describe('reorder suggestions to a purchase order', () => {
  it('reorder_inputs counts what is on order and finds the supplier', async () => {
    const { rows, error } = await call(w.clients.owner, 'reorder_inputs', { _business_id: w.businessA, _store_id: downtown, _variant_ids: [w.f.variant] });
    expect(error).toBeNull();
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.on_order)).toBe(10);
    expect(Number(rows[0]!.on_hand)).toBe(50);
    expect(rows[0]!.supplier_id).toBe(w.f.supplier);
    expect(Number(rows[0]!.unit_cost)).toBe(600);
  });

  it('an owner turns suggestions into a draft; a cashier cannot, nor a manager for a store they do not use', async () => {
    const lines = [{ variant_id: w.f.variant, qty: 12 }];
    const { data: id, error } = await w.clients.owner.rpc('create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier, _lines: lines });
    expect(error).toBeNull();
    const po = await w.rows<{ status: string; qty: number; unit_cost: number }>(
      `select po.status, l.qty_ordered::float8 as qty, l.unit_cost::float8 as unit_cost from public.purchase_orders po
         join public.purchase_order_lines l on l.purchase_order_id = po.id where po.id = $1`, [id]);
    expect(po).toEqual([{ status: 'draft', qty: 12, unit_cost: 600 }]);
    const cashier = await w.clients.cashier.rpc('create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier, _lines: lines });
    expect(cashier.error?.code).toBe('42501');
    const manager = await w.clients.manager.rpc('create_reorder_purchase_order', { _store_id: riverside, _supplier_id: w.f.supplier, _lines: lines });
    expect(manager.error).not.toBeNull();
    const bad = await w.clients.owner.rpc('create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier, _lines: [{ variant_id: w.f.variant, qty: 0 }] });
    expect(bad.error?.code).toBe('22023');
  });
});

describe('slow movers on the demo history', () => {
  it('lists stock on hand with a low sell-through, last sale from the ledger', async () => {
    const { rows, error } = await call(w.clients.owner, 'report_slow_movers', { _business_id: w.businessA, _days: 7, _limit: 500 });
    expect(error).toBeNull();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows.slice(0, 20)) {
      expect(Number(r.sell_through)).toBeLessThanOrEqual(0.1);
      const [e] = await w.rows<{ day: string | null; qty: number }>(
        `select (select max((s.occurred_at at time zone st.time_zone)::date)::text from public.sale_lines l
                   join public.sales s on s.id = l.sale_id join public.stores st on st.id = s.store_id
                  where l.store_id = $1 and l.variant_id = $2) as day,
                (select sum(b.qty)::float8 from public.stock_balances b where b.store_id = $1 and b.variant_id = $2) as qty`,
        [r.store_id, r.variant_id]);
      expect(r.last_sold_on).toBe(e!.day);
      expect(Number(r.on_hand)).toBe(e!.qty);
    }
  });
});
