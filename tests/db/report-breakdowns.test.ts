/**
 * The breakdown summary of migration 20261125110000 (ADR 0163) equals an independent computation from the raw
 * sales, lines, costs, tenders and refunds: on the demo history (backfilled), after online, late offline,
 * back-dated and near-midnight sales, partial restocked and damaged refunds (late and offline too), and after a
 * sale is deleted, a store changes time zone, a product changes category, a sale loses its cashier, a refund its
 * member, and a rebuild. report_sales_by reads it and gives the raw figures per key; a manager gets their store
 * only and a cashier no row. Sell-through and slow movers (rewritten onto the summaries, the balances and
 * per-store ledger reads) return exactly what the definitions of ADR 0144 compute from the raw rows, for best and
 * worst, one store and all, small and large pages and a past range.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db/types';
import { rawSellThrough, rawSlowMovers } from './support/report-raw';
import { DOWNTOWN, RIVERSIDE, daysAgo, newUserClaims, openReportDb, ownerClaims as owner, reportWorld }
  from './support/report-world';

let db: Db;
let business: string;
const manager = newUserClaims();
const cashier = newUserClaims();
const { as, items, openRegister, postSale, refund, addMember } =
  reportWorld(() => ({ db, business }), { label: 'Breakdown', tender: 'cash' });

// The raw computation, written apart from the migration's: every sale line and refund line under its store,
// member and category, every tender and refund total under its kind, on its own local day.
const rawBreakdown = `
  with sl as (
    select s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, s.id as sale_id, s.cashier_id,
           p.category_id, l.qty, l.line_total, l.tax_amount, round(l.qty * coalesce(c.unit_cost, 0)) as cost
      from public.sale_lines l
      join public.sales s on s.id = l.sale_id
      join public.stores st on st.id = s.store_id
      join public.variants v on v.id = l.variant_id
      join public.products p on p.id = v.product_id
      left join public.sale_line_costs c on c.sale_line_id = l.id
  ), rl as (
    select r.store_id, (r.occurred_at at time zone st.time_zone)::date as day, r.actor_id, p.category_id, x.qty,
           x.amount, case when l.line_total = 0 then 0 else round(x.amount::numeric * l.tax_amount / l.line_total) end as tax,
           case when x.disposition = 'restock' then round(x.qty * coalesce(c.unit_cost, 0)) else 0 end as cost
      from public.refund_lines x
      join public.refunds r on r.id = x.refund_id
      join public.stores st on st.id = r.store_id
      join public.sale_lines l on l.id = x.sale_line_id
      join public.variants v on v.id = l.variant_id
      join public.products p on p.id = v.product_id
      left join public.sale_line_costs c on c.sale_line_id = l.id
  ), f as (
    select store_id, day, 'store' as dimension, store_id::text as key, sale_id, qty as units, line_total as gross,
           0 as refunds, tax_amount as tax, cost from sl
    union all
    select store_id, day, 'staff', coalesce(cashier_id::text, ''), sale_id, qty, line_total, 0, tax_amount, cost from sl
    union all
    select store_id, day, 'category', coalesce(category_id::text, ''), sale_id, qty, line_total, 0, tax_amount, cost from sl
    union all
    select store_id, day, 'store', store_id::text, null, -qty, 0, amount, -tax, -cost from rl
    union all
    select store_id, day, 'staff', coalesce(actor_id::text, ''), null, -qty, 0, amount, -tax, -cost from rl
    union all
    select store_id, day, 'category', coalesce(category_id::text, ''), null, -qty, 0, amount, -tax, -cost from rl
    union all
    select s.store_id, (s.occurred_at at time zone st.time_zone)::date, 'tender', t.kind, s.id, 0, t.amount, 0, 0, 0
      from public.sale_tenders t join public.sales s on s.id = t.sale_id join public.stores st on st.id = s.store_id
    union all
    select r.store_id, (r.occurred_at at time zone st.time_zone)::date, 'tender', r.tender_kind, null, 0, 0, r.total, 0, 0
      from public.refunds r join public.stores st on st.id = r.store_id
  )
  select store_id, day, dimension, key, count(distinct sale_id)::bigint as receipts, sum(units)::numeric as units,
         sum(gross)::bigint as gross, sum(refunds)::bigint as refunds, sum(tax)::bigint as tax, sum(cost)::bigint as cost
    from f group by 1, 2, 3, 4`;
const summaryBreakdown = `
  select store_id, day, dimension, key, receipts, units, gross, refunds, tax, cost from public.sales_daily_breakdown`;

// The monthly rollup: the raw daily rows summed per month, with the number of days behind each row.
const rawMonthly = `
  select store_id, date_trunc('month', day::timestamp)::date as month, dimension, key, count(*)::bigint as days,
         sum(receipts)::bigint as receipts, sum(units) as units, sum(gross)::bigint as gross,
         sum(refunds)::bigint as refunds, sum(tax)::bigint as tax, sum(cost)::bigint as cost
    from (${rawBreakdown}) r group by 1, 2, 3, 4`;
const summaryMonthly = `
  select store_id, month, dimension, key, days, receipts, units, gross, refunds, tax, cost
    from public.sales_monthly_breakdown`;

/** Rows in one set and not the other, both ways: [] when the summaries equal the raw computation. */
async function differences(): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [raw, summary] of [[rawBreakdown, summaryBreakdown], [rawMonthly, summaryMonthly]]) {
    out.push(...(await db.query(
      `(select 'missing' as side, * from (${raw}) r except select 'missing', * from (${summary}) s)
       union all
       (select 'extra', * from (${summary}) s except select 'extra', * from (${raw}) r)`)).rows);
  }
  return out;
}

beforeAll(async () => {
  ({ db, business } = await openReportDb());
  await addMember(manager, 'manager', false, 'breakdown-manager@example.com');
  await addMember(cashier, 'cashier', true, 'breakdown-cashier@example.com');
}, 300_000);

afterAll(async () => {
  await db?.close();
});

describe('sales_daily_breakdown', () => {
  it('equals the raw computation on the demo history (backfilled by the migration)', async () => {
    for (const table of ['sales_daily_breakdown', 'sales_monthly_breakdown']) {
      const rows = (await db.query<{ dimension: string; n: number }>(
        `select dimension, count(*)::int as n from public.${table} where business_id = $1 group by 1 order by 1`,
        [business])).rows;
      expect(rows.map((r) => r.dimension)).toEqual(['category', 'staff', 'store', 'tender']);
      expect(rows.every((r) => r.n > 1)).toBe(true);
    }
    expect(await differences()).toEqual([]);
  });

  it('stays equal after online, late offline, back-dated and near-midnight sales and their refunds', async () => {
    const downtown = await openRegister(DOWNTOWN, 'BRK1');
    const riverside = await openRegister(RIVERSIDE, 'BRK2');
    const [a, b, c] = await items(3);
    if (!a || !b || !c) throw new Error('the demo catalog has no plain items');
    // Online with two tenders (cash and card); offline hours later; back-dated 40 days; 23:50 local time.
    const online = await postSale(downtown, [{ variant_id: a.id, qty: 2 }, { variant_id: b.id, qty: 1 }],
      { tenders: [{ kind: 'cash', amount: 0 }, { kind: 'card', amount: 0 }] });
    await postSale(downtown, [{ variant_id: c.id, qty: 3 }], { occurred_at: new Date(Date.now() - 5 * 3_600_000).toISOString() });
    const backDated = await postSale(riverside, [{ variant_id: a.id, qty: 1 }, { variant_id: a.id, qty: 1 }, { variant_id: c.id, qty: 4 }],
      { occurred_at: daysAgo(40), tenders: [{ kind: 'card', amount: 0 }] });
    const [{ late = '' } = {}] = (await db.query<{ late: string }>(
      `select ((current_date - 2 + time '23:50') at time zone 'America/New_York')::text as late`)).rows;
    await postSale(riverside, [{ variant_id: b.id, qty: 1 }], { occurred_at: late });
    expect(await differences()).toEqual([]);

    // A partial restocked refund now; a late, back-dated damaged refund from an offline register; the rest.
    await refund({ sale_id: online.id, lines: [{ sale_line_id: online.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    await refund({ sale_id: backDated.id, occurred_at: daysAgo(30), offline: true,
      lines: [{ sale_line_id: backDated.lines[2]?.id, qty: 2, disposition: 'damaged' }] });
    await refund({ sale_id: online.id, lines: [{ sale_line_id: online.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    const [{ n = 0 } = {}] = (await db.query<{ n: number }>(
      `select count(*)::int as n from public.refunds where sale_id = any ($1::uuid[])`, [[online.id, backDated.id]])).rows;
    expect(n).toBe(3);
    expect(await differences()).toEqual([]);
  });

  it('stays equal after a sale is deleted, a time zone, category, cashier or refunding member changes, and a rebuild', async () => {
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

    // The best-selling product (refunded lines too) moves to another category, then to none.
    const [moved] = (await db.query<{ product: string; category: string }>(
      `select v.product_id as product,
              (select c.id from public.categories c where c.business_id = $1 and c.id is distinct from p.category_id
                order by c.name limit 1) as category
         from public.refund_lines rl join public.sale_lines l on l.id = rl.sale_line_id
         join public.variants v on v.id = l.variant_id join public.products p on p.id = v.product_id
        where rl.business_id = $1 limit 1`, [business])).rows;
    expect(moved?.category).toBeTruthy();
    await db.query('update public.products set category_id = $2 where id = $1', [moved?.product, moved?.category]);
    expect(await differences()).toEqual([]);
    await db.query('update public.products set category_id = null where id = $1', [moved?.product]);
    expect(await differences()).toEqual([]);

    // A member removed: their sales and refunds lose the name (on delete set null), here by hand.
    await db.query(`update public.sales set cashier_id = null where id in (
                      select id from public.sales where business_id = $1 order by occurred_at desc limit 3)`, [business]);
    await db.query(`update public.refunds set actor_id = null where id in (
                      select id from public.refunds where business_id = $1 order by occurred_at limit 1)`, [business]);
    expect(await differences()).toEqual([]);

    // A bulk load with triggers off (seed:large) ends with refresh_sales_summaries: it rebuilds this table too.
    await db.query('delete from public.sales_daily_breakdown where business_id = $1', [business]);
    await db.query('select private.refresh_sales_summaries($1)', [business]);
    expect(await differences()).toEqual([]);
  });

  it('gives report_sales_by the raw figures per key, for the owner, a one-store manager and no cashier', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    // Everything (whole months and the days at both ends), a range of partial months, a single day.
    for (const [from, to] of [[day(-700), day(2)], [day(-45), day(-10)], [day(-3), day(-3)]] as const) {
      for (const dimension of ['store', 'staff', 'category', 'tender']) {
        for (const [claims, stores] of [[owner, [DOWNTOWN, RIVERSIDE]], [manager, [DOWNTOWN]]] as const) {
          const reported = (await as<Record<string, string | null>>(claims,
            `select key, receipts::text, gross::text, refunds::text, tax::text, cost::text
               from public.report_sales_by($1, $2, $3, $4) order by key nulls first`, [business, from, to, dimension])).rows;
          const raw = (await db.query<Record<string, string | null>>(
            `select nullif(key, '') as key, sum(receipts)::text as receipts, sum(gross)::text as gross,
                    sum(refunds)::text as refunds,
                    case when $2 = 'tender' then null else sum(tax)::text end as tax,
                    case when $2 = 'tender' then null else sum(cost)::text end as cost
               from (${rawBreakdown}) r where dimension = $2 and store_id = any ($1::uuid[]) and day between $3 and $4
              group by 1 order by 1 nulls first`, [stores, dimension, from, to])).rows;
          expect(reported.length).toBeGreaterThan(0);
          expect(reported).toEqual(raw);
        }
      }
    }
    for (const table of ['sales_daily_breakdown', 'sales_monthly_breakdown']) {
      const [{ n = -1 } = {}] = (await as<{ n: number }>(cashier, `select count(*)::int as n from public.${table}`)).rows;
      expect(n).toBe(0);
      const [{ stores = [] } = {}] = (await as<{ stores: string[] }>(manager,
        `select array_agg(distinct store_id) as stores from public.${table}`)).rows;
      expect(stores).toEqual([DOWNTOWN]);
    }
  });
});

describe('sell-through and slow movers read the summaries and balances', () => {
  it('sell-through equals the raw definition: best and worst, one store and all, pages, a past range', async () => {
    const [r] = (await db.query<{ last: string; month: string; past_from: string; past_to: string }>(
      `select max(day)::text as last, (max(day) - 29)::text as month, (max(day) - 60)::text as past_from,
              (max(day) - 20)::text as past_to
         from public.sales_daily where business_id = $1`, [business])).rows;
    if (!r) throw new Error('no demo sales');
    let compared = 0;
    for (const [from, to] of [[r.month, r.last], [r.past_from, r.past_to]]) {
      for (const store of [null, DOWNTOWN]) {
        for (const worst of [false, true]) {
          for (const limit of [3, 500]) {
            const reported = (await as<Record<string, string | null>>(owner,
              `select store_id, variant_id, sku, units_sold::text, on_hand_end::text, sell_through::text, revenue::text,
                      last_sold_on::text
                 from public.report_sell_through($1, $2, $3, $4, $5, $6)`, [business, from, to, store, worst, limit])).rows;
            const raw = (await db.query<Record<string, string | null>>(rawSellThrough,
              [business, from, to, store, worst, limit])).rows;
            expect(reported.length).toBeGreaterThan(0);
            expect(reported).toEqual(raw);
            compared += 1;
          }
        }
      }
    }
    expect(compared).toBe(16);
  });

  it('slow movers equal the raw definition for one store and all, short and long windows', async () => {
    for (const store of [null, DOWNTOWN]) {
      for (const [days, limit] of [[7, 500], [30, 5], [365, 500]] as const) {
        const reported = (await as<Record<string, string | null>>(owner,
          `select store_id, variant_id, sku, on_hand::text, units_sold::text, sell_through::text, last_sold_on::text,
                  cost_value::text
             from public.report_slow_movers($1, $2, $3, 0.1, $4)`, [business, store, days, limit])).rows;
        // The shared definition takes the highest sell-through ($5) and adds days_since_sale, not selected here.
        const raw = (await db.query<Record<string, string | null>>(rawSlowMovers, [business, store, days, limit, 0.1])).rows
          .map(({ days_since_sale: _daysSinceSale, ...row }) => row);
        expect(reported).toEqual(raw);
      }
    }
  });
});
