/**
 * The report functions (supabase/migrations/20261122161000_reports.sql) over HTTP with supabase-js, on the demo
 * sales history of the seed: every figure equals an independent SQL computation (the date range written as
 * timestamp bounds in each store's time zone instead of local dates), managers see only their stores, cashiers
 * and other businesses get nothing, bad arguments are a 4xx.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let from: string;
let to: string;

/** Sales of business A whose occurred_at falls in [from 00:00, to + 1 day 00:00) of the store's time zone. */
const inRange = `s.business_id = $1
  and s.occurred_at >= ($2::date::timestamp at time zone st.time_zone)
  and s.occurred_at < (($3::date + 1)::timestamp at time zone st.time_zone)`;

async function call<T>(client: SupabaseClient, fn: string, args: Record<string, unknown>) {
  const { data, error } = await client.rpc(fn, args);
  return { rows: (data ?? []) as T[], error };
}

const byStore = <T extends { store_id: string }>(rows: T[], pick: (r: T) => number) => {
  const out: Record<string, number> = {};
  for (const r of rows) out[r.store_id] = (out[r.store_id] ?? 0) + pick(r);
  return out;
};

beforeAll(async () => {
  w = await startCatalogWorld();
  const [range] = await w.rows<{ from: string; to: string }>(
    `select (current_date - 40)::text as from, (current_date + 1)::text as to`,
  );
  from = range!.from;
  to = range!.to;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('report_sales', () => {
  it('equals an independent computation per store on the demo history', async () => {
    const { rows, error } = await call<{ store_id: string; receipts: number; gross: number; tax: number; net: number; units: number }>(
      w.clients.owner, 'report_sales', { _business_id: w.businessA, _from: from, _to: to, _grain: 'week' });
    expect(error).toBeNull();
    const expected = await w.rows<{ store_id: string; receipts: number; gross: number; tax: number; units: number }>(
      `select s.store_id, count(*)::int as receipts, sum(s.total)::float8 as gross, sum(s.tax_total)::float8 as tax,
              (select sum(l.qty) from public.sale_lines l join public.sales s2 on s2.id = l.sale_id
                 where s2.store_id = s.store_id and s2.id in (select s3.id from public.sales s3
                   join public.stores st on st.id = s3.store_id where ${inRange.replaceAll('s.', 's3.')}))::float8 as units
         from public.sales s join public.stores st on st.id = s.store_id
        where ${inRange} group by s.store_id`,
      [w.businessA, from, to],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.reduce((a, e) => a + e.receipts, 0)).toBeGreaterThan(100);
    const receipts = byStore(rows, (r) => Number(r.receipts));
    const gross = byStore(rows, (r) => Number(r.gross));
    const tax = byStore(rows, (r) => Number(r.tax));
    const net = byStore(rows, (r) => Number(r.net));
    const units = byStore(rows, (r) => Number(r.units));
    for (const e of expected) {
      expect(receipts[e.store_id]).toBe(e.receipts);
      expect(gross[e.store_id]).toBe(e.gross);
      expect(tax[e.store_id]).toBe(e.tax);
      expect(net[e.store_id]).toBe(e.gross - e.tax);
      expect(units[e.store_id]).toBeCloseTo(e.units, 3);
    }
    expect(Object.keys(receipts).sort()).toEqual(expected.map((e) => e.store_id).sort());
  });

  it('groups by month: every period is the first day of a month', async () => {
    const { rows } = await call<{ period: string }>(w.clients.owner, 'report_sales',
      { _business_id: w.businessA, _from: from, _to: to, _grain: 'month' });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.period.endsWith('-01')).toBe(true);
  });

  it('limits a manager to their stores, whatever store they ask for', async () => {
    const mine = await call<{ store_id: string }>(w.clients.manager, 'report_sales', { _business_id: w.businessA, _from: from, _to: to });
    expect(mine.error).toBeNull();
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(new Set(mine.rows.map((r) => r.store_id))).toEqual(new Set([downtown]));
    const other = await call(w.clients.manager, 'report_sales', { _business_id: w.businessA, _from: from, _to: to, _store_id: riverside });
    expect(other.rows).toEqual([]);
  });

  it('answers a bad grain or range with a client error, not a server error', async () => {
    const grain = await call(w.clients.owner, 'report_sales', { _business_id: w.businessA, _from: from, _to: to, _grain: 'year' });
    expect(grain.error?.code).toBe('22023');
    const range = await call(w.clients.owner, 'report_sales', { _business_id: w.businessA, _from: to, _to: from });
    expect(range.error?.code).toBe('22023');
  });
});

describe('report_profit, report_taxes, report_top_products', () => {
  it('profit equals revenue net of tax and refunds minus the cost of what was sold and not restocked (ADR 0172)', async () => {
    const { rows, error } = await call<{ store_id: string; revenue: number; cost: number; profit: number; margin: number | null }>(
      w.clients.owner, 'report_profit', { _business_id: w.businessA, _from: from, _to: to, _grain: 'month' });
    expect(error).toBeNull();
    // Written apart from the summaries: the sale lines of the range, less the refund lines of the range (their
    // tax share and, restocked, their cost given back), cost rounded per line as the summaries keep it.
    const expected = await w.rows<{ store_id: string; revenue: number; cost: number }>(
      `select store_id, sum(revenue)::float8 as revenue, sum(cost)::float8 as cost from (
         select s.store_id, l.line_total - l.tax_amount as revenue, round(l.qty * coalesce(c.unit_cost, 0)) as cost
           from public.sales s join public.stores st on st.id = s.store_id
           join public.sale_lines l on l.sale_id = s.id
           left join public.sale_line_costs c on c.sale_line_id = l.id
          where ${inRange}
         union all
         select s.store_id,
                -(rl.amount - case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
                -case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end
           from public.refunds s join public.stores st on st.id = s.store_id
           join public.refund_lines rl on rl.refund_id = s.id
           join public.sale_lines l on l.id = rl.sale_line_id
           left join public.sale_line_costs c on c.sale_line_id = l.id
          where ${inRange}) f
        group by store_id`,
      [w.businessA, from, to],
    );
    expect(expected.length).toBeGreaterThan(0);
    const revenue = byStore(rows, (r) => Number(r.revenue));
    const cost = byStore(rows, (r) => Number(r.cost));
    for (const e of expected) {
      expect(revenue[e.store_id]).toBe(e.revenue);
      expect(cost[e.store_id]).toBe(e.cost);
      expect(e.cost).toBeGreaterThan(0);
    }
    for (const r of rows) {
      expect(Number(r.profit)).toBe(Number(r.revenue) - Number(r.cost));
      if (Number(r.revenue) > 0) expect(Number(r.margin)).toBeCloseTo((Number(r.revenue) - Number(r.cost)) / Number(r.revenue), 3);
    }
  });

  it('taxes per store and rate equal the lines', async () => {
    const { rows, error } = await call<{ store_id: string; tax_rate: number; tax: number; taxable: number }>(
      w.clients.owner, 'report_taxes', { _business_id: w.businessA, _from: from, _to: to });
    expect(error).toBeNull();
    const expected = await w.rows<{ store_id: string; tax_rate: number; tax: number; taxable: number }>(
      `select s.store_id, l.tax_rate::float8 as tax_rate, sum(l.tax_amount)::float8 as tax,
              sum(l.line_total - l.tax_amount)::float8 as taxable
         from public.sales s join public.stores st on st.id = s.store_id join public.sale_lines l on l.sale_id = s.id
        where ${inRange} group by 1, 2 order by 1, 2`,
      [w.businessA, from, to],
    );
    expect(rows.map((r) => ({ ...r, tax_rate: Number(r.tax_rate), tax: Number(r.tax), taxable: Number(r.taxable), lines: undefined })))
      .toEqual(expected.map((e) => ({ ...e, lines: undefined })));
  });

  it('lists best sellers by revenue first and worst sellers last to first', async () => {
    const best = await call<{ variant_id: string; revenue: number }>(w.clients.owner, 'report_top_products',
      { _business_id: w.businessA, _from: from, _to: to, _limit: 5 });
    const worst = await call<{ variant_id: string; revenue: number }>(w.clients.owner, 'report_top_products',
      { _business_id: w.businessA, _from: from, _to: to, _limit: 5, _worst: true });
    const expected = await w.rows<{ variant_id: string; revenue: number }>(
      `select l.variant_id, sum(l.line_total - l.tax_amount)::float8 as revenue
         from public.sales s join public.stores st on st.id = s.store_id join public.sale_lines l on l.sale_id = s.id
        where ${inRange} group by 1 order by 2 desc, 1`,
      [w.businessA, from, to],
    );
    // Ranked by what was rung up (sales revenue net of tax); the figures shown are net of the range's refunds (ADR 0172).
    expect(best.rows.map((r) => r.variant_id)).toEqual(expected.slice(0, 5).map((e) => e.variant_id));
    // Worst: variants on sale that did not sell at all come first (ADR 0151, revenue 0), then the lowest revenue.
    const unsold = worst.rows.findIndex((r) => expected.some((e) => e.variant_id === r.variant_id));
    const firstSold = unsold === -1 ? worst.rows.length : unsold;
    expect(worst.rows.slice(0, firstSold).every((r) => Number(r.revenue) === 0)).toBe(true);
    expect(worst.rows.slice(firstSold).map((r) => r.variant_id))
      .toEqual(expected.map((e) => e.variant_id).reverse().slice(0, 5 - firstSold));
  });

  it.each(['report_sales', 'report_profit', 'report_top_products', 'report_taxes'])(
    '%s refuses a cashier, an owner of another business and the anonymous key',
    async (fn) => {
      for (const who of ['cashier', 'other', 'anon'] as const) {
        const { rows, error } = await call(w.clients[who], fn, { _business_id: w.businessA, _from: from, _to: to });
        expect(rows).toEqual([]);
        expect(error, `${fn} as ${who}`).not.toBeNull();
        if (who !== 'anon') expect(error?.code).toBe('42501');
      }
    },
  );
});
