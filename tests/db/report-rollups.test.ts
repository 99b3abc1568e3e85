/**
 * The monthly variant rollups (supabase/migrations/20261124110000_report_rollups.sql, ADR 0151) equal an
 * independent computation from the raw sale lines, on the demo history and after online sales (a second sale of
 * the same variant on the same day updates a row), a late offline sync, a back-dated sale, refunds, a deleted sale,
 * a store's new time zone and a rebuild with triggers off (as seed:large loads). report_top_products, which ranks
 * from them with a pruned candidate set, gives exactly the raw ranking — best and worst, all stores, one store, a
 * manager limited to one store — over ranges with whole and partial months. A cashier reads no rollup row; a
 * manager of one store reads that store's rows and none of the all-stores table.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db, JwtClaims } from '../../supabase/local/db/types';

const OWNER1 = '22222222-2222-4222-8222-222222222222';
const DOWNTOWN = '5a000000-0000-4000-8000-000000000001';
const RIVERSIDE = '5a000000-0000-4000-8000-000000000002';

let db: Db;
let business: string;
let stores: string[];
const owner: JwtClaims = { role: 'authenticated', sub: OWNER1, aud: 'authenticated' };
const manager: JwtClaims = { role: 'authenticated', sub: randomUUID(), aud: 'authenticated' };
const cashier: JwtClaims = { role: 'authenticated', sub: randomUUID(), aud: 'authenticated' };
const as = <T = Record<string, unknown>>(claims: JwtClaims, sql: string, params: unknown[] = []) =>
  db.asRequest({ role: 'authenticated', claims, readOnly: false, method: 'POST' }, (tx) => tx.query<T>(sql, params));

// Raw daily figures per store and local day of the sale, written apart from the migrations.
const rawDaily = `
  select s.business_id, s.store_id, (s.occurred_at at time zone st.time_zone)::date as day, l.variant_id,
         sum(l.qty) as units, sum(l.line_total - l.tax_amount) as revenue, sum(round(l.qty * coalesce(c.unit_cost, 0))) as cost
    from public.sale_lines l join public.sales s on s.id = l.sale_id join public.stores st on st.id = s.store_id
    left join public.sale_line_costs c on c.sale_line_id = l.id
   group by 1, 2, 3, 4`;
const rawStore = `
  select store_id, date_trunc('month', day::timestamp)::date as month, variant_id, count(*) as days, sum(units) as units,
         sum(revenue) as revenue, sum(greatest(revenue, 0)) as bound, sum(cost) as cost
    from (${rawDaily}) d group by 1, 2, 3`;
const rollupStore = `
  select store_id, month, variant_id, days, units, revenue, revenue_bound, cost from public.sales_monthly_variant`;
const rawBusiness = `
  select business_id, date_trunc('month', day::timestamp)::date as month, variant_id, count(*) as days,
         sum(units) as units, sum(revenue) as revenue, sum(greatest(revenue, 0)) as bound, sum(cost) as cost
    from (${rawDaily}) d group by 1, 2, 3`;
const rollupBusiness = `
  select business_id, month, variant_id, days, units, revenue, revenue_bound, cost
    from public.sales_monthly_variant_business`;

async function differences(): Promise<{ table: string; rows: unknown[] }[]> {
  const out: { table: string; rows: unknown[] }[] = [];
  for (const [table, raw, rollup] of [
    ['sales_monthly_variant', rawStore, rollupStore],
    ['sales_monthly_variant_business', rawBusiness, rollupBusiness],
  ] as const) {
    const rows = (await db.query(
      `(select 'missing' as side, * from (${raw}) r except select 'missing', * from (${rollup}) s)
       union all
       (select 'extra', * from (${rollup}) s except select 'extra', * from (${raw}) r)`)).rows;
    if (rows.length > 0) out.push({ table, rows: rows.slice(0, 5) });
  }
  return out;
}

interface Seller { variant_id: string; description: string; units: number; revenue: number; profit: number }
const normalise = (rows: Record<string, unknown>[]): Seller[] => rows.map((r) => ({
  variant_id: String(r.variant_id), description: String(r.description), units: Number(r.units),
  revenue: Number(r.revenue), profit: Number(r.profit) }));

/** The ranking from the raw lines of the stores in scope: best by revenue; worst = unsold variants on sale first. */
/**
 * The ranking written apart from the rollups: by sales revenue net of tax in the range (best first, or unsold then
 * lowest), each listed with its units, revenue and profit net of the range's refunds (ADR 0172).
 */
async function rawSellers(from: string, to: string, scope: string[], worst: boolean, limit: number): Promise<Seller[]> {
  const { rows } = await db.query(
    `with f as (
       select l.variant_id, (s.occurred_at at time zone st.time_zone)::date as day, l.description, l.qty,
              l.line_total - l.tax_amount as revenue, round(l.qty * coalesce(c.unit_cost, 0)) as cost
         from public.sale_lines l join public.sales s on s.id = l.sale_id join public.stores st on st.id = s.store_id
         left join public.sale_line_costs c on c.sale_line_id = l.id
        where s.business_id = $1 and s.store_id = any ($4::uuid[])
          and (s.occurred_at at time zone st.time_zone)::date between $2::date and $3::date
     ), back as (
       select l.variant_id, sum(rl.qty) as units,
              sum(rl.amount - case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end) as revenue,
              sum(case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end) as cost
         from public.refund_lines rl join public.refunds r on r.id = rl.refund_id join public.stores st on st.id = r.store_id
         join public.sale_lines l on l.id = rl.sale_line_id
         left join public.sale_line_costs c on c.sale_line_id = l.id
        where r.business_id = $1 and r.store_id = any ($4::uuid[])
          and (r.occurred_at at time zone st.time_zone)::date between $2::date and $3::date
        group by 1
     ), sold as (
       select g.variant_id, d.description, g.units - coalesce(b.units, 0) as units,
              g.revenue - coalesce(b.revenue, 0) as revenue,
              (g.revenue - coalesce(b.revenue, 0)) - (round(g.cost) - coalesce(b.cost, 0)) as profit, g.revenue as rank
         from (select variant_id, sum(qty) as units, sum(revenue) as revenue, sum(cost) as cost from f group by 1) g
         join (select distinct on (variant_id) variant_id, description from f
                order by variant_id, day desc, description desc) d on d.variant_id = g.variant_id
         left join back b on b.variant_id = g.variant_id
     ), unsold as (
       select v.id as variant_id, p.name || coalesce(' ' || nullif(concat_ws(' / ', v.option1, v.option2, v.option3), ''), '') as description,
              -coalesce(b.units, 0) as units, -coalesce(b.revenue, 0) as revenue, -coalesce(b.revenue, 0) + coalesce(b.cost, 0) as profit
         from public.variants v join public.products p on p.id = v.product_id
         left join back b on b.variant_id = v.id
        where v.business_id = $1 and v.archived_at is null and p.archived_at is null
          and v.created_at < (($3::date + 1)::timestamp at time zone 'UTC')
          and (not p.track_stock or exists (select 1 from public.stock_balances b
                                             where b.variant_id = v.id and b.store_id = any ($4::uuid[])))
          and not exists (select 1 from f where f.variant_id = v.id)
     )
     select variant_id, description, units, revenue, profit from (
       select 1 as k, * from sold where not $5
       union all select 0, variant_id, description, units, revenue, profit, 0 from unsold where $5
       union all select 1, * from sold where $5) x
      order by k, case when $5 then rank end asc, case when not $5 then rank end desc, variant_id
      limit $6`, [business, from, to, scope, worst, limit]);
  return normalise(rows);
}

async function reported(claims: JwtClaims, from: string, to: string, store: string | null, worst: boolean, limit: number) {
  const { rows } = await as(claims, 'select * from public.report_top_products($1, $2, $3, $4, $5, $6)',
    [business, from, to, store, worst, limit]);
  return normalise(rows);
}

async function openRegister(store: string, prefix: string): Promise<{ register: string; shift: string }> {
  const [reg] = (await db.query<{ id: string }>(
    `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
    [business, store, `Rollup ${prefix}`, prefix])).rows;
  const shift = (await as<{ s: { id: string } }>(owner, 'select public.open_shift($1, 0) as s', [reg?.id])).rows[0]?.s.id ?? '';
  // A till open since long ago: offline sales and refunds keep their back dates inside their shift (ADR 0171).
  await db.query(`update public.shifts set opened_at = now() - interval '400 days' where id = $1`, [shift]);
  return { register: reg?.id ?? '', shift };
}

async function postSale(at: { register: string; shift: string }, lines: { variant_id: string; qty: number }[],
  extra: Record<string, unknown> = {}): Promise<{ id: string; lines: { id: string }[] }> {
  const payload = { id: randomUUID(), register_id: at.register, shift_id: at.shift, lines,
    tenders: [{ kind: 'card', amount: 0 }], offline: true, ...extra };
  const sale = (await as<{ s: { id: string } }>(owner, 'select public.post_sale($1::jsonb) as s', [JSON.stringify(payload)])).rows[0]?.s;
  const saleLines = (await db.query<{ id: string }>('select id from public.sale_lines where sale_id = $1 order by line_no', [sale?.id])).rows;
  return { id: sale?.id ?? '', lines: saleLines };
}

async function addMember(claims: JwtClaims, role: string, allStores: boolean, email: string): Promise<void> {
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '{}'::jsonb,
             '{"full_name": "Rollup Member"}'::jsonb, now(), now())`, [claims.sub, email]);
  await db.query(`insert into public.business_members (business_id, user_id, role, all_stores) values ($1, $2, $3, $4)`,
    [business, claims.sub, role, allStores]);
  if (!allStores) {
    await db.query(`insert into public.member_store_access (business_id, user_id, store_id) values ($1, $2, $3)`,
      [business, claims.sub, DOWNTOWN]);
  }
}

/** Ranges over the demo history: a year, 30 days, one whole month, partial months at both ends, one day. */
async function ranges(): Promise<[string, string][]> {
  const [r] = (await db.query<Record<string, string>>(
    `select max(day)::text as last, (max(day) - 364)::text as year, (max(day) - 29)::text as month,
            (date_trunc('month', max(day)::timestamp) - interval '1 month')::date::text as m_from,
            (date_trunc('month', max(day)::timestamp) - interval '1 day')::date::text as m_to,
            (date_trunc('month', max(day)::timestamp) - interval '2 months' + interval '14 days')::date::text as p_from,
            (max(day) - 3)::text as p_to
       from public.sales_daily_variant where business_id = $1`, [business])).rows;
  if (!r) throw new Error('no demo sales');
  return [[r.year!, r.last!], [r.month!, r.last!], [r.m_from!, r.m_to!], [r.p_from!, r.p_to!], [r.p_to!, r.p_to!]];
}

beforeAll(async () => {
  db = await openDb({ memory: true });
  business = (await db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [OWNER1])).rows[0]?.id ?? '';
  stores = (await db.query<{ id: string }>('select id from public.stores where business_id = $1', [business])).rows.map((r) => r.id);
  await addMember(manager, 'manager', false, 'rollup-manager@example.com');
  await addMember(cashier, 'cashier', true, 'rollup-cashier@example.com');
}, 300_000);

afterAll(async () => {
  await db?.close();
});

describe('monthly variant rollups', () => {
  it('equal the raw lines on the demo history (backfilled by the migration)', async () => {
    const [{ n = 0 } = {}] = (await db.query<{ n: number }>(
      'select count(*)::int as n from public.sales_monthly_variant where business_id = $1', [business])).rows;
    expect(n).toBeGreaterThan(20);
    expect(await differences()).toEqual([]);
  });

  it('stay equal after online, repeated, late offline and back-dated sales, refunds, a deletion and a time zone change', async () => {
    const downtown = await openRegister(DOWNTOWN, 'ROL1');
    const riverside = await openRegister(RIVERSIDE, 'ROL2');
    const items = (await db.query<{ id: string }>(
      `select v.id from public.variants v join public.products p on p.id = v.product_id
        where v.business_id = $1 and not p.has_lots and p.unit = 'each' and p.track_stock order by v.sku limit 2`,
      [business])).rows;
    const [a, b] = items;
    if (!a || !b) throw new Error('the demo catalog has no plain items');
    const first = await postSale(downtown, [{ variant_id: a.id, qty: 2 }, { variant_id: b.id, qty: 1 }]);
    // The same variant again on the same day and store: the daily row is updated, not inserted.
    await postSale(downtown, [{ variant_id: a.id, qty: 1 }]);
    expect(await differences()).toEqual([]);
    await postSale(riverside, [{ variant_id: b.id, qty: 3 }], { occurred_at: new Date(Date.now() - 6 * 3_600_000).toISOString() });
    const backDated = await postSale(riverside, [{ variant_id: a.id, qty: 1 }, { variant_id: b.id, qty: 4 }],
      { occurred_at: new Date(Date.now() - 45 * 86_400_000).toISOString() });
    await as(owner, 'select public.post_refund($1::jsonb)', [JSON.stringify({ id: randomUUID(), sale_id: first.id, shift_id: downtown.shift,
      lines: [{ sale_line_id: first.lines[0]?.id, qty: 1, disposition: 'restock' }] })]);
    expect(await differences()).toEqual([]);

    await db.query('delete from public.sales where id = $1', [backDated.id]);
    expect(await differences()).toEqual([]);
    await db.query(`update public.stores set time_zone = 'Pacific/Auckland' where id = $1`, [RIVERSIDE]);
    expect(await differences()).toEqual([]);
    await db.query(`update public.stores set time_zone = 'America/New_York' where id = $1`, [RIVERSIDE]);
    expect(await differences()).toEqual([]);
  });

  it('are rebuilt by refresh_sales_summaries after a load with triggers off (seed:large)', async () => {
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query('delete from public.sales_monthly_variant where business_id = $1', [business]);
      await tx.query('delete from public.sales_monthly_variant_business where business_id = $1', [business]);
      await tx.query('select private.refresh_sales_summaries($1)', [business]);
    });
    const [{ n = 0 } = {}] = (await db.query<{ n: number }>(
      'select count(*)::int as n from public.sales_monthly_variant_business where business_id = $1', [business])).rows;
    expect(n).toBeGreaterThan(20);
    expect(await differences()).toEqual([]);
  });
});

describe('report_top_products from the rollups', () => {
  it('ranks best sellers exactly as the raw lines, for every range, scope and page size', async () => {
    let compared = 0;
    for (const [from, to] of await ranges()) {
      for (const limit of [1, 3, 10]) {
        expect(await reported(owner, from, to, null, false, limit)).toEqual(await rawSellers(from, to, stores, false, limit));
        expect(await reported(owner, from, to, RIVERSIDE, false, limit)).toEqual(await rawSellers(from, to, [RIVERSIDE], false, limit));
        expect(await reported(manager, from, to, null, false, limit)).toEqual(await rawSellers(from, to, [DOWNTOWN], false, limit));
        compared += 1;
      }
    }
    const [year] = await ranges();
    expect((await reported(owner, year![0], year![1], null, false, 10)).length).toBe(10);
    expect(compared).toBe(15);
  });

  it('puts unsold variants on sale first among the worst, then the lowest revenue', async () => {
    for (const [from, to] of await ranges()) {
      for (const limit of [3, 100]) {
        expect(await reported(owner, from, to, null, true, limit)).toEqual(await rawSellers(from, to, stores, true, limit));
        expect(await reported(owner, from, to, DOWNTOWN, true, limit)).toEqual(await rawSellers(from, to, [DOWNTOWN], true, limit));
        expect(await reported(manager, from, to, null, true, limit)).toEqual(await rawSellers(from, to, [DOWNTOWN], true, limit));
      }
    }
    // The page of 100 over a year mixes both kinds (the demo catalog has fewer than 100 unsold variants), so the
    // summed fallback is compared too.
    const [year] = await ranges();
    const worst = await reported(owner, year![0], year![1], null, true, 100);
    expect(worst.some((r) => r.revenue === 0 && r.units === 0)).toBe(true);
    expect(worst.some((r) => r.revenue > 0)).toBe(true);
  });

  it('a cashier reads no rollup row and gets no ranking; a one-store manager reads only that store', async () => {
    const count = async (claims: JwtClaims, table: string, column = 'business_id') =>
      (await as<{ n: number; stores: string[] | null }>(claims,
        `select count(*)::int as n, array_agg(distinct ${column})::text[] as stores from public.${table}`)).rows[0];
    expect((await count(cashier, 'sales_monthly_variant'))?.n).toBe(0);
    expect((await count(cashier, 'sales_monthly_variant_business'))?.n).toBe(0);
    const refused = await as(cashier, 'select * from public.report_top_products($1, current_date - 30, current_date)', [business])
      .then(() => null, (error: { code?: string }) => error.code);
    expect(refused).toBe('42501');
    expect((await count(manager, 'sales_monthly_variant_business'))?.n).toBe(0);
    const mine = await count(manager, 'sales_monthly_variant', 'store_id');
    expect(mine?.n).toBeGreaterThan(0);
    expect(mine?.stores).toEqual([DOWNTOWN]);
    expect((await count(owner, 'sales_monthly_variant', 'store_id'))?.stores).toEqual(expect.arrayContaining([DOWNTOWN, RIVERSIDE]));
  });
});
