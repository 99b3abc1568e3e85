/**
 * Sell-through best first of migration 20261126120000 (ADR 0170): report_sell_through returns exactly what ADR
 * 0144's definition computes from the raw rows (over the pairs with a stock ledger), whether the threshold bound
 * decides (private.sell_through_selling: the lists of most units per store and month, the pairs under the on-hand
 * bound) or the full ranking does; with lists and caps small enough that the demo data takes the deeper rounds and
 * the too-many-pairs branch, every page it decides is still the raw one. A sold-out pair ranks first, a product
 * that does not track stock is left out, and a manager's page holds their store only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db/types';
import { rawSellThrough } from './support/report-raw';
import { DOWNTOWN, daysAgo, newUserClaims, openReportDb, ownerClaims as owner, reportWorld } from './support/report-world';

let db: Db;
let business: string;
const manager = newUserClaims();
const { as, items, openRegister, postSale, addMember } =
  reportWorld(() => ({ db, business }), { label: 'Best', tender: 'cash' });

const columns = `store_id, variant_id, sku, units_sold::text, on_hand_end::text, sell_through::text, revenue::text,
                 last_sold_on::text`;
let untracked = '';
let soldOut = '';
let till: Awaited<ReturnType<typeof openRegister>>;

beforeAll(async () => {
  ({ db, business } = await openReportDb());
  await addMember(manager, 'manager', false, 'best-manager@example.com');
  till = await openRegister(DOWNTOWN, 'BST');
  // A product that does not track stock (a service): sold, no ledger.
  const [service] = (await db.query<{ id: string }>(
    `with p as (insert into public.products (business_id, name, unit, track_stock) values ($1, 'Gift wrapping', 'each', false)
                returning id)
     insert into public.variants (business_id, product_id, sku, price) select $1, p.id, 'SRV-WRAP', 300 from p
     returning id`, [business])).rows;
  untracked = service?.id ?? '';
  // A plain item sold down to nothing Downtown today: sell-through 1.
  const [item] = await items(1);
  soldOut = item?.id ?? '';
  const [stock] = (await db.query<{ qty: string }>(
    'select sum(qty)::text as qty from public.stock_balances where store_id = $1 and variant_id = $2',
    [DOWNTOWN, soldOut])).rows;
  expect(Number(stock?.qty)).toBeGreaterThan(0);
  await postSale(till, [{ variant_id: soldOut, qty: Number(stock?.qty) }, { variant_id: untracked, qty: 2 }],
    { occurred_at: daysAgo(1 / 24) });
}, 300_000);

afterAll(async () => {
  await db.close();
});

const reportPage = (from: string, to: string, store: string | null, limit: number) =>
  as<Record<string, string | null>>(owner, `select ${columns} from public.report_sell_through($1, $2, $3, $4, false, $5)`,
    [business, from, to, store, limit]);
const rawPage = (from: string, to: string, store: string | null, limit: number) =>
  db.query<Record<string, string | null>>(rawSellThrough, [business, from, to, store, false, limit]);

/**
 * The best-first page private.sell_through_page ranks from the candidates a fast path returns (`candidates`: a
 * select whose $5 is the limit), as the owner: the page's rows, and how many candidates there were.
 */
async function pageOf(candidates: string, params: unknown[]): Promise<{ page: Record<string, string | null>[]; checked: number }> {
  const rows = (await as<Record<string, string | number | null>>(owner,
    `with c as (${candidates})
     select ${columns}, a.n::int as candidates
       from (select array_agg(c.store_id) as s, array_agg(c.variant_id) as v, array_agg(c.units) as u,
                    array_agg(c.on_hand) as h, array_agg(c.revenue) as m, array_agg(c.last_day) as d,
                    count(*) as n
               from c) a
       cross join lateral private.sell_through_page(false, $5, a.s, a.v, a.u, a.h, a.m, a.d) p`, params)).rows;
  return {
    page: rows.map(({ candidates: _, ...row }) => row as Record<string, string | null>),
    checked: Number(rows[0]?.candidates),
  };
}

describe('sell-through best first', () => {
  it('equals the raw definition through the threshold bound and through the full ranking', async () => {
    const [r] = (await db.query<{ today: string; week: string; month: string; year: string; past_from: string; past_to: string }>(
      `select current_date::text as today, (current_date - 6)::text as week, (current_date - 29)::text as month,
              (current_date - 364)::text as year, (current_date - 60)::text as past_from,
              (current_date - 20)::text as past_to`)).rows;
    if (!r) throw new Error('no dates');
    let bound = 0;
    let full = 0;
    const ranges: [string, string][] = [[r.week, r.today], [r.month, r.today], [r.year, r.today],
      [r.past_from, r.past_to], [r.today, r.today]];
    for (const [from, to] of ranges) {
      for (const store of [null, DOWNTOWN]) {
        for (const limit of [1, 5, 20, 500]) {
          const reported = (await reportPage(from, to, store, limit)).rows;
          expect(reported.length).toBeGreaterThan(0);
          expect(reported).toEqual((await rawPage(from, to, store, limit)).rows);
          const [{ n = 0 } = {}] = (await as<{ n: number }>(owner,
            'select count(*)::int as n from private.sell_through_selling($1, $2, $3, $4, $5)',
            [business, from, to, store, limit])).rows;
          if (n >= limit) bound += 1; else full += 1;
        }
      }
    }
    // Ranges ending today are decided by the bound; the past range (later movements) and 500 rows are not.
    expect(bound).toBeGreaterThan(8);
    expect(full).toBeGreaterThan(4);
  });

  it('decides the same pages with short lists and small caps (deeper rounds, too many pairs under the bound)', async () => {
    const [r] = (await db.query<{ today: string; month: string }>(
      `select current_date::text as today, (current_date - 29)::text as month`)).rows;
    if (!r) throw new Error('no dates');
    // _few 0 takes the lists whatever the range. Lists of one pair per (store, month) leave most selling pairs to
    // B; caps of 0 and 5 force deeper rounds; the last setting is the report's own (the few-sales path here).
    const settings = [[1, 20000, 0], [2, 5, 0], [2, 40, 0], [4, 0, 0], [8, 200, 0], [null, null, null]] as const;
    let compared = 0;
    for (const store of [null, DOWNTOWN]) {
      for (const limit of [3, 10]) {
        const raw = (await rawPage(r.month, r.today, store, limit)).rows;
        const candidates: number[] = [];
        for (const [perList, cap, few] of settings) {
          const { page, checked } = await pageOf('select * from private.sell_through_selling($1, $2, $3, $4, $5, $6, $7, $8)',
            [business, r.month, r.today, store, limit, perList, cap, few]);
          // On this data every setting decides (the deepest lists hold every pair), and decides the raw page.
          expect(page).toEqual(raw);
          candidates.push(checked);
          compared += 1;
        }
        // One pair a list: B brought pairs no list held (more candidates than lists: stores x 2 months at most).
        expect(candidates[0]).toBeGreaterThan(store ? 2 : 4);
        // The settings took different rounds: their candidate sets differ in size.
        expect(new Set(candidates).size).toBeGreaterThan(1);
      }
    }
    expect(compared).toBe(24);
  });

  it('decides a range with few sales from its sold pairs: a short top by units, the low-stock pairs, or all of them', async () => {
    const [r] = (await db.query<{ today: string; week: string; month: string }>(
      `select current_date::text as today, (current_date - 6)::text as week, (current_date - 29)::text as month`)).rows;
    if (!r) throw new Error('no dates');
    let compared = 0;
    for (const from of [r.week, r.month]) {
      for (const store of [null, DOWNTOWN]) {
        for (const limit of [2, 8]) {
          const raw = (await rawPage(from, r.today, store, limit)).rows;
          const sizes: number[] = [];
          // A top of 1 or 2 x limit leaves most selling pairs to the low-stock read (a top of 1 may hold fewer
          // than a page: then every sold pair); the report's own top holds them all on this data.
          for (const top of [1, limit * 2, limit * 3, null]) {
            const { page, checked } = await pageOf(
              'select * from private.sell_through_few($1, $2, $3, private.stock_pair_stores($1, $4), $4, $5, 20000, $6)',
              [business, from, r.today, store, limit, top]);
            expect(page).toEqual(raw);
            sizes.push(checked);
            compared += 1;
          }
          // The short tops checked fewer pairs than the range sold: the bound left the rest out.
          const [{ sold = 0 } = {}] = (await as<{ sold: number }>(owner,
            'select count(*)::int as sold from private.sell_through_sold($1, $2, $3, $4)', [business, from, r.today, store])).rows;
          expect(Math.min(sizes[1] ?? sold, sizes[2] ?? sold)).toBeLessThan(sold);
        }
      }
    }
    expect(compared).toBe(32);
  });

  it('pads a day with fewer pairs selling than the page with the pairs on hand by SKU, as the full ranking does', async () => {
    // The stores' own day (New York), not the server's: between midnight UTC and midnight in New York they differ.
    // A sale now: in the store's first hour of the day the demo history has none yet (the sold-out sale above is
    // an hour old).
    const [, , plain] = await items(3);
    await postSale(till, [{ variant_id: plain?.id ?? '', qty: 1 }], { occurred_at: new Date().toISOString() });
    const [r] = (await db.query<{ today: string }>(
      'select (now() at time zone time_zone)::date::text as today from public.stores where id = $1', [DOWNTOWN])).rows;
    if (!r) throw new Error('no dates');
    const selling = (await rawPage(r.today, r.today, null, 500)).rows.filter((row) => Number(row.units_sold) > 0).length;
    expect(selling).toBeGreaterThan(0);
    const limit = selling + 7;
    const [{ n = 0 } = {}] = (await as<{ n: number }>(owner,
      'select count(*)::int as n from private.sell_through_selling($1, $2, $2, null, $3)', [business, r.today, limit])).rows;
    expect(n).toBeGreaterThanOrEqual(limit);
    const page = (await reportPage(r.today, r.today, null, limit)).rows;
    expect(page).toEqual((await rawPage(r.today, r.today, null, limit)).rows);
    // The padding: pairs that did not sell, sell-through 0, in SKU order.
    const padding = page.filter((row) => Number(row.units_sold) === 0 && row.revenue === '0');
    expect(padding.length).toBeGreaterThanOrEqual(7);
    expect(padding.map((row) => row.sku)).toEqual(padding.map((row) => row.sku).sort());
  });

  it('ranks a sold-out pair first, leaves out a product that does not track stock, and keeps a manager to their store', async () => {
    const [r] = (await db.query<{ today: string; month: string }>(
      `select current_date::text as today, (current_date - 29)::text as month`)).rows;
    if (!r) throw new Error('no dates');
    const page = (await reportPage(r.month, r.today, null, 10)).rows;
    expect(page[0]).toMatchObject({ store_id: DOWNTOWN, variant_id: soldOut, on_hand_end: '0.000', sell_through: '1.0000' });
    // The service sold two but has no stock record: in neither path, nor in the raw definition.
    const everything = (await as<{ variant_id: string }>(owner,
      'select variant_id from private.sell_through_ranked($1, $2, $3, null, false, 500)', [business, r.month, r.today])).rows;
    expect(everything.length).toBeGreaterThan(10);
    expect(everything.map((row) => row.variant_id)).not.toContain(untracked);
    expect(page.map((row) => row.variant_id)).not.toContain(untracked);
    const [{ sold = '' } = {}] = (await db.query<{ sold: string }>(
      `select coalesce(sum(units), 0)::text as sold from public.sales_daily_variant where variant_id = $1`, [untracked])).rows;
    expect(sold).toBe('2.000');
    const managed = (await as<{ store_id: string }>(manager,
      'select store_id from public.report_sell_through($1, $2, $3, null, false, 50)', [business, r.month, r.today])).rows;
    expect(managed.length).toBeGreaterThan(0);
    expect(new Set(managed.map((row) => row.store_id))).toEqual(new Set([DOWNTOWN]));
  });
});

/**
 * The parts migration 20261209100000 (ADR 0441) changed: a pair's figures from the monthly rollup for the range's
 * whole months and the daily rows around them, its refunds read by variant, the lists of one month over every
 * store, and the sales-alone filter that drops pairs before their refunds are read.
 */
describe('sell-through figures of given pairs', () => {
  /** Every pair the range's canonical figures hold (private.sell_through_sold: daily rows and all the range's refunds). */
  const canonical = (from: string, to: string) => as<{ store_id: string; variant_id: string; units: string; revenue: string; last_day: string | null }>(owner,
    `select store_id, variant_id, units::text, revenue::text, last_day::text from private.sell_through_sold($1, $2, $3, null)
      order by 1, 2`, [business, from, to]);

  it('equals the canonical figures over ranges with and without whole months, refunds netted per pair', async () => {
    const [r] = (await db.query<Record<string, string>>(
      `select current_date::text as today, (current_date - 364)::text as year,
              (date_trunc('month', current_date) - interval '2 months')::date::text as month_start,
              (date_trunc('month', current_date) - interval '1 day')::date::text as last_month_end,
              (date_trunc('month', current_date) - interval '3 months' + interval '9 days')::date::text as mid_month,
              (current_date - 9)::text as ten_days`)).rows;
    if (!r) throw new Error('no dates');
    const ranges: [string, string][] = [[r.year ?? '', r.today ?? ''], [r.month_start ?? '', r.today ?? ''],
      [r.mid_month ?? '', r.last_month_end ?? ''], [r.month_start ?? '', r.last_month_end ?? ''], [r.ten_days ?? '', r.today ?? '']];
    let refunded = 0;
    for (const [from, to] of ranges) {
      const expected = (await canonical(from, to)).rows;
      expect(expected.length).toBeGreaterThan(0);
      const figured = (await as<{ store_id: string; variant_id: string; units: string; revenue: string; last_day: string | null }>(owner,
        `select store_id, variant_id, units::text, revenue::text, last_day::text
           from private.sell_through_of($1, $2, $3, $4::uuid[], $5::uuid[]) order by 1, 2`,
        [business, from, to, expected.map((e) => e.store_id), expected.map((e) => e.variant_id)])).rows;
      expect(figured).toEqual(expected);
      const [{ n = 0 } = {}] = (await as<{ n: number }>(owner,
        'select count(*)::int as n from private.sell_through_refunds_of($1, $2, $3, $4::uuid[], $5::uuid[])',
        [business, from, to, expected.map((e) => e.store_id), expected.map((e) => e.variant_id)])).rows;
      refunded += n;
    }
    // The demo history's refunds were netted in these ranges, not only sales summed.
    expect(refunded).toBeGreaterThan(0);
  });

  it('reads the refunds of the given pairs only: another store of the same variant is not counted', async () => {
    const [r] = (await db.query<{ today: string; year: string }>(
      'select current_date::text as today, (current_date - 364)::text as year')).rows;
    if (!r) throw new Error('no dates');
    const all = (await as<{ store_id: string; variant_id: string; units: string }>(owner,
      `select f.store_id, f.variant_id, f.units::text
         from (select array_agg(s.store_id) as s, array_agg(s.variant_id) as v
                 from private.sell_through_sold($1, $2, $3, null) s) k
        cross join lateral private.sell_through_refunds_of($1, $2, $3, k.s, k.v) f order by 1, 2`,
      [business, r.year, r.today])).rows;
    expect(all.length).toBeGreaterThan(0);
    const one = all[0];
    if (!one) throw new Error('no refunds');
    // The same variant asked for in the other store too: only the pair that had the refund answers, with the same units.
    const other = one.store_id === DOWNTOWN ? '5a000000-0000-4000-8000-000000000002' : DOWNTOWN;
    const asked = (await as<{ store_id: string; units: string }>(owner,
      `select store_id, units::text from private.sell_through_refunds_of($1, $2, $3, $4::uuid[], $5::uuid[])`,
      [business, r.year, r.today, [one.store_id, other], [one.variant_id, one.variant_id]])).rows;
    const expected = all.filter((a) => a.variant_id === one.variant_id).map((a) => ({ store_id: a.store_id, units: a.units }));
    expect(asked.sort((a, b) => a.store_id.localeCompare(b.store_id)))
      .toEqual(expected.sort((a, b) => a.store_id.localeCompare(b.store_id)));
    expect(Number(one.units)).toBeLessThan(0);
  });

  it('lists each month over every store with its frontier, and decides the raw pages from those lists', async () => {
    const [r] = (await db.query<{ today: string; year: string; months: string[] }>(
      `select current_date::text as today, (current_date - 364)::text as year,
              array(select generate_series(date_trunc('month', current_date - 364), date_trunc('month', current_date),
                                           interval '1 month')::date::text) as months`)).rows;
    if (!r) throw new Error('no dates');
    for (const perList of [1, 3]) {
      const listed = (await as<{ month: string; units: string; frontier: string; n: number }>(owner,
        `select t.month::text, m.units::text, t.frontier::text, count(*) over (partition by t.month)::int as n
           from private.monthly_pairs_top($1, $2::date[], $3) t
           join public.sales_monthly_variant m on m.store_id = t.store_id and m.variant_id = t.variant_id and m.month = t.month`,
        [business, r.months, perList])).rows;
      expect(listed.length).toBeGreaterThan(0);
      for (const row of listed) {
        // The month's most units over both stores: nothing outside the list sold more than its frontier.
        const [{ best = '0', outside = null } = {}] = (await db.query<{ best: string; outside: string | null }>(
          `select (array_agg(units order by units desc))[$3]::text as best,
                  (array_agg(units order by units desc))[$3 + 1]::text as outside
             from public.sales_monthly_variant where business_id = $1 and month = $2`, [business, row.month, perList])).rows;
        expect(row.n).toBeLessThanOrEqual(perList);
        expect(Number(row.units)).toBeGreaterThanOrEqual(Number(best));
        if (row.n === perList) expect(Number(row.frontier)).toBe(Number(best));
        else expect(Number(row.frontier)).toBe(0);
        if (outside !== null && row.n === perList) expect(Number(outside)).toBeLessThanOrEqual(Number(row.frontier));
      }
    }
    // A year over two stores at limits under 11 takes the business's lists (40 x limit / (13 months x 2 stores) < 16);
    // short lists and no few-sales path send most pairs to B, and the page is still the raw one.
    for (const limit of [2, 5]) {
      const raw = (await rawPage(r.year, r.today, null, limit)).rows;
      for (const perList of [1, 2, null]) {
        const { page } = await pageOf('select * from private.sell_through_selling($1, $2, $3, $4, $5, $6, 20000, 0)',
          [business, r.year, r.today, null, limit, perList]);
        expect(page).toEqual(raw);
      }
    }
  });

  it('drops the pairs whose sales alone stay under theta before netting their refunds', async () => {
    const [r] = (await db.query<{ today: string; year: string }>(
      'select current_date::text as today, (current_date - 364)::text as year')).rows;
    if (!r) throw new Error('no dates');
    const pairs = (await canonical(r.year, r.today)).rows;
    const args = [business, r.year, r.today, pairs.map((p) => p.store_id), pairs.map((p) => p.variant_id)];
    const every = (await as<{ store_id: string; variant_id: string; units: string; on_hand: string }>(owner,
      `select store_id, variant_id, units::text, on_hand::text
         from private.sell_through_selling_of($1, $2, $3, $4::uuid[], $5::uuid[]) order by 1, 2`, args)).rows;
    expect(every.length).toBeGreaterThan(4);
    // Theta halfway between two neighbouring ratios near the middle: no pair sits on it, so the database's numeric
    // division and this float agree on every side.
    const ratios = [...new Set(every.map((p) => Number(p.units) / (Number(p.units) + Math.max(Number(p.on_hand), 0))))]
      .sort((a, b) => b - a);
    const middle = Math.floor(ratios.length / 2);
    const theta = ((ratios[middle - 1] ?? 1) + (ratios[middle] ?? 0)) / 2;
    const kept = (await as<{ store_id: string; variant_id: string; units: string; on_hand: string }>(owner,
      `select store_id, variant_id, units::text, on_hand::text
         from private.sell_through_selling_of($1, $2, $3, $4::uuid[], $5::uuid[], $6) order by 1, 2`, [...args, theta])).rows;
    // Every pair reaching theta with its refunds netted is kept, with the same figures; fewer pairs than all.
    const reaching = every.filter((p) => Number(p.units) / (Number(p.units) + Math.max(Number(p.on_hand), 0)) >= theta);
    for (const p of reaching) expect(kept).toContainEqual(p);
    expect(kept.length).toBeLessThan(every.length);
    for (const p of kept) expect(every).toContainEqual(p);
  });
});
