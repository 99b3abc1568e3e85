/**
 * The maintained sales summaries (supabase/migrations/20261123140100_sales_summaries.sql, ADR 0143) equal an
 * independent computation from the raw sales, lines, costs and refunds: on the demo history (backfilled), and after
 * every kind of write the posting functions make — an online sale, offline sales synced late and back-dated, a
 * sale near local midnight, partial, late and offline refunds — and after a sale is deleted and a store's time
 * zone changes. Then the reports read from them still equal the raw figures, and a cashier reads no summary row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db/types';
import { DOWNTOWN, RIVERSIDE, daysAgo, newUserClaims, openReportDb, reportWorld } from './support/report-world';

let db: Db;
let business: string;
const { asOwner, items, openRegister, postSale, refund, addMember } =
  reportWorld(() => ({ db, business }), { label: 'Summary', tender: 'card' });

// The raw computation, written apart from the migration's: per store and local day of occurred_at.
const rawDaily = `
  with sold as (
    select s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, count(*) as receipts,
           sum(s.total) as gross, sum(s.discount_total) as discounts, sum(s.tax_total) as tax
      from public.sales s join public.stores st on st.id = s.store_id group by 1, 2
  ), lined as (
    select s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, count(*) as lines, sum(l.qty) as units,
           sum(l.line_total - l.tax_amount) as revenue, sum(round(l.qty * coalesce(c.unit_cost, 0))) as cost,
           count(*) - count(c.sale_line_id) as lines_without_cost
      from public.sale_lines l join public.sales s on s.id = l.sale_id join public.stores st on st.id = s.store_id
      left join public.sale_line_costs c on c.sale_line_id = l.id
     group by 1, 2
  ), refunded as (
    select r.store_id, (r.occurred_at at time zone st.time_zone)::date as day, sum(r.total) as refunds, count(*) as n
      from public.refunds r join public.stores st on st.id = r.store_id group by 1, 2
  )
  select coalesce(a.store_id, b.store_id, c.store_id) as store_id, coalesce(a.day, b.day, c.day) as day,
         coalesce(a.receipts, 0) as receipts, coalesce(a.gross, 0) as gross, coalesce(a.discounts, 0) as discounts,
         coalesce(a.tax, 0) as tax, coalesce(b.lines, 0) as lines, coalesce(b.units, 0) as units,
         coalesce(b.revenue, 0) as revenue, coalesce(b.cost, 0) as cost,
         coalesce(b.lines_without_cost, 0) as lines_without_cost, coalesce(c.refunds, 0) as refunds,
         coalesce(c.n, 0) as refund_count
    from sold a
    full join lined b on b.store_id = a.store_id and b.day = a.day
    full join refunded c on c.store_id = coalesce(a.store_id, b.store_id) and c.day = coalesce(a.day, b.day)`;
const summaryDaily = `
  select store_id, day, receipts, gross, discounts, tax, lines, units, revenue, cost, lines_without_cost, refunds,
         refund_count
    from public.sales_daily where receipts <> 0 or lines <> 0 or refund_count <> 0`;
const rawTax = `
  select s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, l.tax_rate::numeric as tax_rate,
         count(*) as lines, sum(l.line_total - l.tax_amount) as taxable, sum(l.tax_amount) as tax
    from public.sale_lines l join public.sales s on s.id = l.sale_id join public.stores st on st.id = s.store_id
   group by 1, 2, 3`;
const summaryTax = `select store_id, day, tax_rate, lines, taxable, tax from public.sales_daily_tax where lines <> 0`;
const rawVariant = `
  select s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, l.variant_id, max(l.description) as description,
         count(*) as lines, sum(l.qty) as units, sum(l.line_total - l.tax_amount) as revenue,
         sum(round(l.qty * coalesce(c.unit_cost, 0))) as cost, count(*) - count(c.sale_line_id) as lines_without_cost
    from public.sale_lines l join public.sales s on s.id = l.sale_id join public.stores st on st.id = s.store_id
    left join public.sale_line_costs c on c.sale_line_id = l.id
   group by 1, 2, 3`;
const summaryVariant = `
  select store_id, day, variant_id, description, lines, units, revenue, cost, lines_without_cost
    from public.sales_daily_variant where lines <> 0`;

/** Rows in one set and not the other, both ways: [] when the summaries equal the raw computation. */
async function differences(): Promise<{ table: string; rows: unknown[] }[]> {
  const out: { table: string; rows: unknown[] }[] = [];
  for (const [table, raw, summary] of [
    ['sales_daily', rawDaily, summaryDaily],
    ['sales_daily_tax', rawTax, summaryTax],
    ['sales_daily_variant', rawVariant, summaryVariant],
  ] as const) {
    const rows = (await db.query(
      `(select 'missing' as side, * from (${raw}) r except select 'missing', * from (${summary}) s)
       union all
       (select 'extra', * from (${summary}) s except select 'extra', * from (${raw}) r)`)).rows;
    if (rows.length > 0) out.push({ table, rows });
  }
  return out;
}

beforeAll(async () => {
  ({ db, business } = await openReportDb());
}, 300_000);

afterAll(async () => {
  await db?.close();
});

describe('maintained sales summaries', () => {
  it('equal the raw computation on the demo history (backfilled by the migration)', async () => {
    const [{ n = 0 } = {}] = (await db.query<{ n: number }>('select count(*)::int as n from public.sales_daily')).rows;
    expect(n).toBeGreaterThan(20);
    expect(await differences()).toEqual([]);
  });

  it('stay equal after online, late offline, back-dated and near-midnight sales and their refunds', async () => {
    const downtown = await openRegister(DOWNTOWN, 'SUM1');
    const riverside = await openRegister(RIVERSIDE, 'SUM2');
    const [a, b, c] = await items(3);
    if (!a || !b || !c) throw new Error('the demo catalog has no plain items');

    // Online: the tender pays the total exactly (computed as post_sale does: tax per line, rounded, tax exclusive).
    const [{ total = 0 } = {}] = (await db.query<{ total: number }>(
      `select sum(q * p + round(q * p * r / 100))::int as total from unnest($1::int[], $2::int[], $3::numeric[]) as x (q, p, r)`,
      [[2, 1], [a.price, b.price], [a.rate, b.rate]])).rows;
    const online = await postSale(downtown, [{ variant_id: a.id, qty: 2 }, { variant_id: b.id, qty: 1 }],
      { offline: false, tenders: [{ kind: 'card', amount: total }] });
    expect(online.lines).toHaveLength(2);
    // Offline, synced hours later; back-dated 40 days (before most of the demo history); 23:50 local time.
    await postSale(downtown, [{ variant_id: c.id, qty: 3 }], { occurred_at: new Date(Date.now() - 5 * 3_600_000).toISOString() });
    const backDated = await postSale(riverside, [{ variant_id: a.id, qty: 1 }, { variant_id: a.id, qty: 1 }, { variant_id: c.id, qty: 4 }],
      { occurred_at: daysAgo(40) });
    const [{ late = '' } = {}] = (await db.query<{ late: string }>(
      `select ((current_date - 2 + time '23:50') at time zone 'America/New_York')::text as late`)).rows;
    await postSale(riverside, [{ variant_id: b.id, qty: 1 }], { occurred_at: late });
    expect(await differences()).toEqual([]);

    // A partial refund now; a late, back-dated refund from an offline register; the rest of a line.
    await refund({ sale_id: online.id, lines: [{ sale_line_id: online.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    await refund({ sale_id: backDated.id, occurred_at: daysAgo(30), offline: true,
      lines: [{ sale_line_id: backDated.lines[2]?.id, qty: 2, disposition: 'damaged' }] });
    await refund({ sale_id: online.id, lines: [{ sale_line_id: online.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    const [{ refunds = 0 } = {}] = (await db.query<{ refunds: number }>(
      `select count(*)::int as refunds from public.refunds where sale_id = any ($1::uuid[])`, [[online.id, backDated.id]])).rows;
    expect(refunds).toBe(3);
    expect(await differences()).toEqual([]);
  });

  it('stay equal after a sale is deleted and after a store changes time zone', async () => {
    const [victim] = (await db.query<{ id: string }>(
      `select s.id from public.sales s where s.business_id = $1 and exists (select 1 from public.refunds r where r.sale_id = s.id)
        limit 1`, [business])).rows;
    expect(victim).toBeDefined();
    await db.query('delete from public.sales where id = $1', [victim?.id]);
    expect(await differences()).toEqual([]);

    await db.query(`update public.stores set time_zone = 'Asia/Tokyo' where id = $1`, [RIVERSIDE]);
    expect(await differences()).toEqual([]);
    await db.query(`update public.stores set time_zone = 'America/New_York' where id = $1`, [RIVERSIDE]);
    expect(await differences()).toEqual([]);
  });

  it('give the reports the figures of the raw rows', async () => {
    const from = new Date(Date.now() - 700 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const [report] = (await asOwner<{ receipts: string; gross: string; refunds: string }>(
      `select sum(receipts)::text as receipts, sum(gross)::text as gross, sum(refunds)::text as refunds
         from public.report_sales($1, $2, $3, 'month')`, [business, from, to])).rows;
    const [raw] = (await db.query<{ receipts: string; gross: string; refunds: string }>(
      `select (select count(*) from public.sales where business_id = $1)::text as receipts,
              (select sum(total) from public.sales where business_id = $1)::text as gross,
              (select coalesce(sum(total), 0) from public.refunds where business_id = $1)::text as refunds`, [business])).rows;
    expect(report).toEqual(raw);
    const [profit] = (await asOwner<{ cost: string }>(
      `select sum(cost)::text as cost from public.report_profit($1, $2, $3, 'day')`, [business, from, to])).rows;
    // The cost of what was sold, less the cost of what came back to the shelf (ADR 0172), rounded per line.
    const [rawCost] = (await db.query<{ cost: string }>(
      `select (coalesce((select sum(round(l.qty * coalesce(k.unit_cost, 0)))
                           from public.sale_lines l join public.sales s on s.id = l.sale_id
                           left join public.sale_line_costs k on k.sale_line_id = l.id
                          where s.business_id = $1), 0)
               - coalesce((select sum(round(rl.qty * coalesce(k.unit_cost, 0)))
                             from public.refund_lines rl join public.refunds r on r.id = rl.refund_id
                             left join public.sale_line_costs k on k.sale_line_id = rl.sale_line_id
                            where r.business_id = $1 and rl.disposition = 'restock'), 0))::text as cost`, [business])).rows;
    expect(profit).toEqual(rawCost);
  });

  it('are not readable by a cashier', async () => {
    // A cashier of every store, added as the team functions would.
    const claims = newUserClaims();
    await addMember(claims, 'cashier', true, 'summary-cashier@example.com');
    const seen = await db.asRequest({ role: 'authenticated', claims, readOnly: true, method: 'GET' }, (tx) =>
      tx.query<{ n: number }>(`select (select count(*) from public.sales_daily)::int + (select count(*) from public.sales_daily_tax)::int
                                  + (select count(*) from public.sales_daily_variant)::int as n`));
    expect(seen.rows[0]?.n).toBe(0);
    const [{ n = 0 } = {}] = (await db.query<{ n: number }>('select count(*)::int as n from public.sales_daily where business_id = $1', [business])).rows;
    expect(n).toBeGreaterThan(0);
  });
});
