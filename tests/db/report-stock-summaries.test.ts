/**
 * The stock summaries of 20261125100000_report_stock_shift_speed.sql (ADR 0162) equal an independent computation
 * from the raw ledger and balances: on the demo history (backfilled), and after what writes them — online sales,
 * offline sales synced late, back-dated sales, restocked and damaged refunds (late and offline too), receipts at a
 * new cost (the moving average changes), a balance counted down to zero, stock by lot, store prices set, changed
 * and removed, a variant's price, a product's category, a deleted category, a removed cost and a store's new time
 * zone. The per-shift totals of the Z report likewise after sales (cash and card), refunds, cash in and out and
 * a deleted sale. report_inventory_valuation and report_stock_movements, which read them, still return what the
 * raw queries they replaced return; a cashier reads no summary row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db/types';
import { DOWNTOWN, RIVERSIDE, daysAgo, newUserClaims, openReportDb, reportWorld } from './support/report-world';

let db: Db;
let business: string;
const { asOwner, items: anyItems, openRegister, postSale, refund, addMember } =
  reportWorld(() => ({ db, business }), { label: 'Stock', tender: 'card' });
/** Plain items with a category: a test moves one to a new category and back to none. */
const items = (n: number) => anyItems(n, { categorised: true });

// Written apart from the migration: movements grouped by each store's local day of occurred_at.
const rawMovements = `
  select m.store_id, (m.occurred_at at time zone st.time_zone)::date as day, m.kind, count(*) as movements,
         coalesce(sum(case when m.qty > 0 then m.qty end), 0) as units_in,
         coalesce(sum(case when m.qty < 0 then -m.qty end), 0) as units_out,
         sum(m.qty * coalesce(m.unit_cost, 0)) as cost_value
    from public.stock_movements m join public.stores st on st.id = m.store_id
   group by 1, 2, 3`;
const summaryMovements = `
  select store_id, day, kind, movements, units_in, units_out, cost_value from public.stock_movements_daily`;
// Per store and category over the (store, variant) pairs whose balances (all lots) do not sum to zero.
const rawValue = `
  select pair.store_id, coalesce(p.category_id, '00000000-0000-0000-0000-000000000000'::uuid) as category_id,
         count(*) as variants, sum(pair.qty) as units, sum(pair.qty * coalesce(vc.cost, 0)) as cost_value,
         sum(pair.qty * coalesce(sp.price, v.price)) as retail_value,
         sum(case when vc.variant_id is null then 1 else 0 end) as variants_without_cost
    from (select store_id, variant_id, sum(qty) as qty from public.stock_balances group by 1, 2) pair
    join public.variants v on v.id = pair.variant_id
    join public.products p on p.id = v.product_id
    left join public.variant_costs vc on vc.variant_id = v.id
    left join public.store_prices sp on sp.store_id = pair.store_id and sp.variant_id = v.id
   where pair.qty <> 0
   group by 1, 2`;
// Per shift: its sales, their tenders by kind, its refunds (paid back in cash apart), cash in and out.
const rawShifts = `
  select sh.id as shift_id,
         (select count(*) from public.sales x where x.shift_id = sh.id) as sales_count,
         (select coalesce(sum(x.total), 0) from public.sales x where x.shift_id = sh.id) as gross,
         (select coalesce(sum(t.amount), 0) from public.sale_tenders t join public.sales x on x.id = t.sale_id
           where x.shift_id = sh.id and t.kind = 'cash') as cash,
         (select coalesce(sum(t.amount), 0) from public.sale_tenders t join public.sales x on x.id = t.sale_id
           where x.shift_id = sh.id and t.kind = 'card') as card,
         (select coalesce(sum(t.amount), 0) from public.sale_tenders t join public.sales x on x.id = t.sale_id
           where x.shift_id = sh.id and t.kind = 'other') as other,
         (select coalesce(sum(r.total), 0) from public.refunds r where r.shift_id = sh.id) as refunds,
         (select coalesce(sum(r.total), 0) from public.refunds r where r.shift_id = sh.id and r.tender_kind = 'cash') as cash_refunds,
         (select coalesce(sum(m.amount), 0) from public.cash_movements m where m.shift_id = sh.id and m.kind = 'in') as cash_in,
         (select coalesce(sum(m.amount), 0) from public.cash_movements m where m.shift_id = sh.id and m.kind = 'out') as cash_out
    from public.shifts sh`;
const summaryShifts = `
  select sh.id as shift_id, coalesce(t.sales_count, 0) as sales_count, coalesce(t.gross, 0) as gross,
         coalesce(t.cash, 0) as cash, coalesce(t.card, 0) as card, coalesce(t.other, 0) as other,
         coalesce(t.refunds, 0) as refunds, coalesce(t.cash_refunds, 0) as cash_refunds,
         coalesce(t.cash_in, 0) as cash_in, coalesce(t.cash_out, 0) as cash_out
    from public.shifts sh left join public.shift_totals t on t.shift_id = sh.id`;
const summaryValue = `
  select store_id, category_id, variants, units, cost_value, retail_value, variants_without_cost
    from public.inventory_value where variants <> 0`;

/** Rows in one set and not the other, both ways, and summary rows left with a value but no pair: [] when equal. */
async function differences(): Promise<{ table: string; rows: unknown[] }[]> {
  const out: { table: string; rows: unknown[] }[] = [];
  for (const [table, raw, summary] of [
    ['stock_movements_daily', rawMovements, summaryMovements],
    ['inventory_value', rawValue, summaryValue],
    ['shift_totals', rawShifts, summaryShifts],
  ] as const) {
    const rows = (await db.query(
      `(select 'missing' as side, * from (${raw}) r except select 'missing', * from (${summary}) s)
       union all
       (select 'extra', * from (${summary}) s except select 'extra', * from (${raw}) r)`)).rows;
    if (rows.length > 0) out.push({ table, rows });
  }
  const stray = (await db.query(`select * from public.inventory_value
    where variants = 0 and (units <> 0 or cost_value <> 0 or retail_value <> 0 or variants_without_cost <> 0)`)).rows;
  if (stray.length > 0) out.push({ table: 'inventory_value (no pairs)', rows: stray });
  return out;
}

beforeAll(async () => {
  ({ db, business } = await openReportDb());
}, 300_000);

afterAll(async () => {
  await db?.close();
});

describe('maintained stock summaries', () => {
  it('equal the raw computation on the demo history (backfilled by the migration)', async () => {
    const [{ m = 0, v = 0 } = {}] = (await db.query<{ m: number; v: number }>(
      `select (select count(*) from public.stock_movements_daily where business_id = $1)::int as m,
              (select count(*) from public.inventory_value where business_id = $1)::int as v`, [business])).rows;
    expect(m).toBeGreaterThan(10);
    expect(v).toBeGreaterThan(2);
    expect(await differences()).toEqual([]);
  });

  it('stay equal after online, late offline and back-dated sales and their refunds', async () => {
    const downtown = await openRegister(DOWNTOWN, 'STK1');
    const riverside = await openRegister(RIVERSIDE, 'STK2');
    const [a, b, c] = await items(3);
    if (!a || !b || !c) throw new Error('the demo catalog has no plain items');
    const [{ total = 0 } = {}] = (await db.query<{ total: number }>(
      `select sum(q * p + round(q * p * r / 100))::int as total from unnest($1::int[], $2::int[], $3::numeric[]) as x (q, p, r)`,
      [[2, 1], [a.price, b.price], [a.rate, b.rate]])).rows;
    const online = await postSale(downtown, [{ variant_id: a.id, qty: 2 }, { variant_id: b.id, qty: 1 }],
      { offline: false, tenders: [{ kind: 'card', amount: total }] });
    expect(online.lines).toHaveLength(2);
    await postSale(downtown, [{ variant_id: c.id, qty: 3 }], { occurred_at: new Date(Date.now() - 5 * 3_600_000).toISOString() });
    const backDated = await postSale(riverside, [{ variant_id: a.id, qty: 1 }, { variant_id: c.id, qty: 4 }],
      { occurred_at: daysAgo(40) });
    expect(await differences()).toEqual([]);

    await refund({ sale_id: online.id, lines: [{ sale_line_id: online.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    await refund({ sale_id: backDated.id, occurred_at: daysAgo(30), offline: true,
      lines: [{ sale_line_id: backDated.lines[1]?.id, qty: 2, disposition: 'damaged' }] });
    await refund({ sale_id: backDated.id, occurred_at: daysAgo(29), offline: true,
      lines: [{ sale_line_id: backDated.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    const [{ kinds = 0 } = {}] = (await db.query<{ kinds: number }>(
      `select count(distinct kind)::int as kinds from public.stock_movements where reference_id in
         (select id from public.refunds where sale_id = any ($1::uuid[])) or reference_id = any ($1::uuid[])`,
      [[online.id, backDated.id]])).rows;
    expect(kinds).toBe(2);
    expect(await differences()).toEqual([]);

    // Cash taken in and out of the drawer; a sale paid in cash and refunded; a sale deleted.
    await asOwner(`select public.cash_in_out($1, 'in', 5000, 'Float top-up')`, [downtown.shift]);
    await asOwner(`select public.cash_in_out($1, 'out', 1200, 'Milk for the staff room')`, [downtown.shift]);
    const [{ cashTotal = 0 } = {}] = (await db.query<{ cashTotal: number }>(
      `select (b + round(b * r / 100))::int as "cashTotal" from (select $1::int as b, $2::numeric as r) x`, [b.price, b.rate])).rows;
    const cashSale = await postSale(downtown, [{ variant_id: b.id, qty: 1 }],
      { offline: false, tenders: [{ kind: 'cash', amount: cashTotal }] });
    await refund({ sale_id: cashSale.id, shift_id: downtown.shift, lines: [{ sale_line_id: cashSale.lines[0]?.id, qty: 1, disposition: 'restock' }] });
    const [totals] = (await db.query<{ cash_in: number; cash_out: number; cash: number; refunds: number }>(
      `select cash_in::int, cash_out::int, cash::int, refunds::int from public.shift_totals where shift_id = $1`,
      [downtown.shift])).rows;
    // The shift's refunds: the cash one and the card refund of the online sale (refunds go into a shift, ADR 0171).
    const [{ refunded = 0 } = {}] = (await db.query<{ refunded: number }>(
      'select sum(total)::int as refunded from public.refunds where shift_id = $1', [downtown.shift])).rows;
    expect(refunded).toBeGreaterThan(cashTotal);
    expect(totals).toMatchObject({ cash_in: 5000, cash_out: 1200, cash: cashTotal, refunds: refunded });
    expect(await differences()).toEqual([]);
    await db.query('delete from public.sales where id = $1', [backDated.id]);
    expect(await differences()).toEqual([]);
  });

  // ADR 0430: a sale's update recomputes only the shifts whose sales changed in shift or total.
  it('stay equal when a sale is flagged after its insert, its total changes or it moves to another shift', async () => {
    const downtown = await openRegister(DOWNTOWN, 'STK3');
    const other = await openRegister(DOWNTOWN, 'STK4');
    const [a] = await items(1);
    if (!a) throw new Error('the demo catalog has no plain items');
    // More than the store holds: the ledger goes negative and the sale is updated with its review reason.
    const [{ held = 0 } = {}] = (await db.query<{ held: number }>(
      'select coalesce(sum(qty), 0)::int as held from public.stock_balances where store_id = $1 and variant_id = $2',
      [DOWNTOWN, a.id])).rows;
    const flagged = await postSale(downtown, [{ variant_id: a.id, qty: Math.max(held, 0) + 5 }]);
    const [{ reasons = [] } = {}] = (await db.query<{ reasons: string[] }>(
      'select review_reasons as reasons from public.sales where id = $1', [flagged.id])).rows;
    expect(reasons).toContain(`negative_stock:${a.id}`);
    const before = (await db.query('select * from public.shift_totals where shift_id = $1', [downtown.shift])).rows;
    await db.query(`update public.sales set review_reasons = review_reasons || '{by_hand}' where id = $1`, [flagged.id]);
    expect((await db.query('select * from public.shift_totals where shift_id = $1', [downtown.shift])).rows).toEqual(before);
    expect(await differences()).toEqual([]);
    await db.query('update public.sales set total = total + 100 where id = $1', [flagged.id]);
    const [{ gross = 0 } = {}] = (await db.query<{ gross: number }>(
      'select gross::int from public.shift_totals where shift_id = $1', [downtown.shift])).rows;
    expect(gross).toBe(Number((before[0] as { gross: string }).gross) + 100);
    expect(await differences()).toEqual([]);
    await db.query('update public.sales set shift_id = $2 where id = $1', [flagged.id, other.shift]);
    expect(await differences()).toEqual([]);
    // The business-wide recompute (a bulk load's) gives the same rows as the maintained ones.
    const maintained = (await db.query('select * from public.shift_totals where business_id = $1 order by shift_id', [business])).rows;
    await db.query('select private.compute_shift_totals($1, null)', [business]);
    expect((await db.query('select * from public.shift_totals where business_id = $1 order by shift_id', [business])).rows).toEqual(maintained);
  });

  it('stay equal after receipts at a new cost, a count to zero, lots, prices, categories and costs changing', async () => {
    const [a, b, c] = await items(3);
    if (!a || !b || !c) throw new Error('the demo catalog has no plain items');
    // A receipt at another cost (moving average), back-dated; one for a variant the store never had.
    await asOwner('select public.receive_stock($1, $2, 12, 777, null, null, $3)', [DOWNTOWN, a.id, daysAgo(3)]);
    expect(await differences()).toEqual([]);
    // Down to zero: the pair leaves the count.
    const [{ qty = '0' } = {}] = (await db.query<{ qty: string }>(
      'select coalesce(sum(qty), 0)::text as qty from public.stock_balances where store_id = $1 and variant_id = $2', [RIVERSIDE, b.id])).rows;
    if (Number(qty) !== 0) await asOwner(`select public.adjust_stock($1, $2, $3, 'correction')`, [RIVERSIDE, b.id, -Number(qty)]);
    expect(await differences()).toEqual([]);
    await asOwner(`select public.adjust_stock($1, $2, 2, 'found')`, [RIVERSIDE, b.id]);
    expect(await differences()).toEqual([]);

    // A product tracked by lot: two lots received, one sold down.
    const [lotted] = (await db.query<{ id: string }>(
      `select v.id from public.variants v join public.products p on p.id = v.product_id
        where v.business_id = $1 and p.has_lots order by v.sku limit 1`, [business])).rows;
    if (lotted) {
      await asOwner(`select public.receive_stock($1, $2, 5, 300, 'STK-LOT-1', current_date + 20)`, [DOWNTOWN, lotted.id]);
      await asOwner(`select public.receive_stock($1, $2, 3, 360, 'STK-LOT-2', current_date + 40)`, [DOWNTOWN, lotted.id]);
      expect(await differences()).toEqual([]);
    }

    // Store prices set, changed and removed; the variant's own price; the moving cost; a category.
    await db.query(`insert into public.store_prices (business_id, store_id, variant_id, price) values ($1, $2, $3, 1234)
                    on conflict (store_id, variant_id) do update set price = 1234`, [business, RIVERSIDE, c.id]);
    expect(await differences()).toEqual([]);
    await db.query('update public.store_prices set price = price + 101 where variant_id = $1', [c.id]);
    expect(await differences()).toEqual([]);
    await db.query('delete from public.store_prices where store_id = $1 and variant_id = $2', [RIVERSIDE, c.id]);
    await db.query('update public.variants set price = price + 50 where id = any ($1::uuid[])', [[a.id, b.id, c.id]]);
    expect(await differences()).toEqual([]);
    await db.query('update public.variant_costs set cost = cost + 7 where variant_id = $1', [b.id]);
    await db.query('delete from public.variant_costs where variant_id = $1', [c.id]);
    expect(await differences()).toEqual([]);
    await db.query('insert into public.variant_costs (variant_id, business_id, cost) values ($1, $2, 99)', [c.id, business]);
    expect(await differences()).toEqual([]);

    const [category] = (await db.query<{ id: string }>(
      `insert into public.categories (business_id, name) values ($1, 'Stock summary test') returning id`, [business])).rows;
    await db.query('update public.products set category_id = $1 where id = $2', [category?.id, a.product]);
    expect(await differences()).toEqual([]);
    await db.query('delete from public.categories where id = $1', [category?.id]);
    const [{ cat = 'x' } = {}] = (await db.query<{ cat: string | null }>('select category_id as cat from public.products where id = $1', [a.product])).rows;
    expect(cat).toBeNull();
    expect(await differences()).toEqual([]);
  });

  it('stay equal after a store changes time zone', async () => {
    await db.query(`update public.stores set time_zone = 'Asia/Tokyo' where id = $1`, [RIVERSIDE]);
    expect(await differences()).toEqual([]);
    await db.query(`update public.stores set time_zone = 'America/New_York' where id = $1`, [RIVERSIDE]);
    expect(await differences()).toEqual([]);
  });

  it('give report_inventory_valuation and report_stock_movements the figures of the raw queries they replaced', async () => {
    const valuationRaw = `
      with oh as (select b.store_id, b.variant_id, sum(b.qty) as qty from public.stock_balances b
                   where b.business_id = $1 and ($2::uuid is null or b.store_id = $2) group by 1, 2 having sum(b.qty) <> 0)
      select oh.store_id, coalesce(c.name::text, 'Uncategorised') as category, count(*)::bigint as variants, sum(oh.qty) as units,
             round(sum(oh.qty * coalesce(vc.cost, 0)))::bigint as cost_value,
             round(sum(oh.qty * coalesce(sp.price, v.price)))::bigint as retail_value,
             count(*) filter (where vc.variant_id is null)::bigint as variants_without_cost
        from oh join public.variants v on v.id = oh.variant_id join public.products p on p.id = v.product_id
        left join public.categories c on c.id = p.category_id left join public.variant_costs vc on vc.variant_id = oh.variant_id
        left join public.store_prices sp on sp.store_id = oh.store_id and sp.variant_id = oh.variant_id
       group by 1, 2 order by 1, 2`;
    for (const store of [null, RIVERSIDE]) {
      const report = (await asOwner('select * from public.report_inventory_valuation($1, $2)', [business, store])).rows;
      const raw = (await db.query(valuationRaw, [business, store])).rows;
      expect(raw.length).toBeGreaterThan(1);
      expect(report).toEqual(raw);
    }
    const movementsRaw = `
      select date_trunc($4, (m.occurred_at at time zone st.time_zone)::date)::date as period, m.store_id, m.kind,
             count(*)::bigint as movements, coalesce(sum(m.qty) filter (where m.qty > 0), 0) as units_in,
             coalesce(-sum(m.qty) filter (where m.qty < 0), 0) as units_out,
             round(sum(m.qty * coalesce(m.unit_cost, 0)))::bigint as cost_value
        from public.stock_movements m join public.stores st on st.id = m.store_id
       where m.business_id = $1 and ($5::uuid is null or m.store_id = $5)
         and m.occurred_at >= ($2::date::timestamp at time zone st.time_zone)
         and m.occurred_at < (($3::date + 1)::timestamp at time zone st.time_zone)
       group by 1, 2, 3 order by 1, 2, 3`;
    const [range] = (await db.query<{ from: string; to: string }>(
      `select (current_date - 420)::text as from, (current_date + 1)::text as to`)).rows;
    for (const [grain, store] of [['day', null], ['week', null], ['month', null], ['day', RIVERSIDE]] as const) {
      const report = (await asOwner('select * from public.report_stock_movements($1, $2, $3, $4, $5)',
        [business, range?.from, range?.to, grain, store])).rows;
      const raw = (await db.query(movementsRaw, [business, range?.from, range?.to, grain, store])).rows;
      expect(raw.length).toBeGreaterThan(1);
      expect(report).toEqual(raw);
    }
  });

  it('are not readable by a cashier', async () => {
    const claims = newUserClaims();
    await addMember(claims, 'cashier', true, 'stock-summary-cashier@example.com');
    const seen = await db.asRequest({ role: 'authenticated', claims, readOnly: true, method: 'GET' }, (tx) =>
      tx.query<{ n: number }>(`select (select count(*) from public.stock_movements_daily)::int
                                  + (select count(*) from public.inventory_value)::int
                                  + (select count(*) from public.shift_totals)::int as n`));
    expect(seen.rows[0]?.n).toBe(0);
    const [{ n = 0 } = {}] = (await db.query<{ n: number }>(
      'select count(*)::int as n from public.inventory_value where business_id = $1', [business])).rows;
    expect(n).toBeGreaterThan(0);
  });

  it('go with their business when it is deleted (the cascade reaches balances, sales and shifts in any order)', async () => {
    await db.query('delete from public.businesses where id = $1', [business]);
    const [{ n = -1 } = {}] = (await db.query<{ n: number }>(
      `select (select count(*) from public.stock_movements_daily where business_id = $1)::int
            + (select count(*) from public.inventory_value where business_id = $1)::int
            + (select count(*) from public.shift_totals where business_id = $1)::int as n`, [business])).rows;
    expect(n).toBe(0);
    expect(await differences()).toEqual([]);
  });
});
