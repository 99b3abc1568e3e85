/**
 * `npm run seed:large`'s retail set (scripts/seed-large/retail.ts) at a small size: the rows are the ones the
 * database functions would write. Counts as asked, every balance the sum of its ledger, one sale ledger row per
 * (sale, variant) with the sold quantity, sale totals the sums of their lines, refunds the sums of their lines and
 * restocked through the ledger, register counters at the last receipt, the summaries (ADR 0143) equal to the raw
 * rows, weekly seasonality visible, and the retail owner can read the reports under row level security.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db } from '../../supabase/local/db/types';
import { parseSeedLargeArgs, seedLarge } from '../../scripts/seed-large';
import { RETAIL_MANAGER_EMAIL, RETAIL_OWNER_EMAIL } from '../../scripts/seed-large/retail';

let db: Db;
let business: string;
const VARIANTS = 600;
const LINES = 6_000;

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await db.query<T>(sql, params)).rows[0] as T;

beforeAll(async () => {
  db = await openDb({ memory: true });
  const options = parseSeedLargeArgs(['--users', '0', '--retail-variants', String(VARIANTS), '--sale-lines', String(LINES)]);
  const report = await seedLarge(db, options);
  expect(report.retail?.saleLines).toBe(LINES);
  business = report.retail?.businessId ?? '';
}, 600_000);

afterAll(async () => {
  await db?.close();
});

describe('seed:large retail set', () => {
  it('has the business, 10 stores, the variants with barcodes and costs, and the sale lines asked for', async () => {
    const counts = await one<Record<string, number>>(
      `select (select count(*) from public.stores where business_id = $1)::int as stores,
              (select count(*) from public.variants where business_id = $1)::int as variants,
              (select count(*) from public.variant_costs where business_id = $1)::int as costs,
              (select count(distinct variant_id) from public.barcodes where business_id = $1)::int as barcoded,
              (select count(*) from public.sale_lines where business_id = $1)::int as lines,
              (select count(*) from public.sale_line_costs where business_id = $1)::int as line_costs,
              (select count(*) from public.refunds where business_id = $1)::int as refunds,
              (select count(*) from public.products where business_id = $1 and option1_name is not null)::int as sized`,
      [business]);
    expect(counts).toMatchObject({ stores: 10, variants: VARIANTS, costs: VARIANTS, barcoded: VARIANTS, lines: LINES, line_costs: LINES });
    expect(counts.refunds).toBeGreaterThan(0);
    expect(counts.sized).toBeGreaterThan(0);
  });

  it('keeps every balance equal to the sum of its ledger, with a ledger row per sold (sale, variant)', async () => {
    const drift = await one<{ n: number }>(
      `select count(*)::int as n from public.stock_balances b
        where b.business_id = $1
          and b.qty <> (select coalesce(sum(m.qty), 0) from public.stock_movements m
                         where m.store_id = b.store_id and m.variant_id = b.variant_id and m.lot_id is not distinct from b.lot_id)`,
      [business]);
    expect(drift.n).toBe(0);
    const unbalanced = await one<{ n: number }>(
      `select count(*)::int as n from public.stock_movements m
        where m.business_id = $1 and not exists (select 1 from public.stock_balances b where b.store_id = m.store_id and b.variant_id = m.variant_id)`,
      [business]);
    expect(unbalanced.n).toBe(0);
    const mismatch = await one<{ n: number }>(
      `select count(*)::int as n from (
         select l.sale_id, l.variant_id, sum(l.qty) as sold from public.sale_lines l where l.business_id = $1 group by 1, 2) x
        where (select -sum(m.qty) from public.stock_movements m
                where m.reference_type = 'sale' and m.reference_id = x.sale_id and m.variant_id = x.variant_id) is distinct from x.sold`,
      [business]);
    expect(mismatch.n).toBe(0);
  });

  it('writes sale totals, tenders, refunds and receipt counters as post_sale and post_refund do', async () => {
    const bad = await one<Record<string, number>>(
      `select (select count(*) from public.sales s where s.business_id = $1 and not exists (
                 select 1 from (select sum(l.qty * l.unit_price)::bigint as subtotal, sum(l.tax_amount)::bigint as tax,
                                       sum(l.line_total)::bigint as total
                                  from public.sale_lines l where l.sale_id = s.id) x
                  where x.subtotal = s.subtotal and x.tax = s.tax_total and x.total = s.total))::int as totals,
              (select count(*) from public.sales s where s.business_id = $1 and s.total is distinct from
                 (select sum(t.amount) from public.sale_tenders t where t.sale_id = s.id))::int as tenders,
              (select count(*) from public.refunds r where r.business_id = $1 and r.total is distinct from
                 (select sum(rl.amount) from public.refund_lines rl where rl.refund_id = r.id))::int as refunds,
              (select count(*) from public.refunds r where r.business_id = $1 and not exists
                 (select 1 from public.stock_movements m where m.reference_type = 'refund' and m.reference_id = r.id))::int as restocked,
              (select count(*) from private.register_counters c join public.registers g on g.id = c.register_id
                where g.business_id = $1 and c.last_seq <> (select count(*) from public.sales s where s.register_id = g.id))::int as counters`,
      [business]);
    expect(bad).toEqual({ totals: 0, tenders: 0, refunds: 0, restocked: 0, counters: 0 });
  });

  it('has summaries equal to the raw sales and a weekly pattern', async () => {
    const raw = await one<{ receipts: string; gross: string; cost: string }>(
      `select count(*)::text as receipts, sum(total)::text as gross,
              (select sum(round(l.qty * c.unit_cost))::text from public.sale_lines l join public.sale_line_costs c on c.sale_line_id = l.id
                where l.business_id = $1) as cost
         from public.sales where business_id = $1`, [business]);
    const summary = await one<{ receipts: string; gross: string; cost: string }>(
      `select sum(receipts)::text as receipts, sum(gross)::text as gross, sum(cost)::text as cost
         from public.sales_daily where business_id = $1`, [business]);
    expect(summary).toEqual(raw);
    // Saturdays sell more lines than Tuesdays (weights 1.5 and 0.85).
    const week = await one<{ saturday: number; tuesday: number }>(
      `select sum(lines) filter (where extract(isodow from day) = 6)::int as saturday,
              sum(lines) filter (where extract(isodow from day) = 2)::int as tuesday
         from public.sales_daily where business_id = $1`, [business]);
    expect(week.saturday).toBeGreaterThan(week.tuesday);
  });

  it('lets the retail owner read every store and the manager two, under row level security', async () => {
    const who = async (email: string) => {
      const user = await one<{ id: string }>('select id from auth.users where email = $1', [email]);
      return db.asRequest({ role: 'authenticated', claims: { role: 'authenticated', sub: user.id, aud: 'authenticated' }, readOnly: true },
        (tx) => tx.query<{ stores: number }>(
          `select count(distinct store_id)::int as stores from public.report_sales($1, current_date - 400, current_date, 'month')`, [business]));
    };
    expect((await who(RETAIL_OWNER_EMAIL)).rows[0]?.stores).toBe(10);
    expect((await who(RETAIL_MANAGER_EMAIL)).rows[0]?.stores).toBe(2);
  });

  it('is added once: a second run skips the retail set', async () => {
    const again = await seedLarge(db, parseSeedLargeArgs(['--users', '0', '--retail-variants', '10', '--sale-lines', '10']));
    expect(again.retail?.skipped).toMatch(/exists already/);
  });
});
