/**
 * Reports at a year of sales (issue 14): p50/p95 of every report and the dashboard overview — sales, profit, best
 * and worst sellers, taxes, the breakdowns by store, staff, category and tender, sell-through, slow movers,
 * inventory valuation, stock movements, Z reports and business_overview (owner and cashier) — over a month, a
 * quarter and a year, as the owner (every store) and as a manager (two stores), with row level security on (a
 * request's role and claims). STOREWISE_BENCH_ONLY=regexp runs only the cases whose name matches. Target: p95 under 500 ms on PGlite, 200 ms on PostgreSQL,
 * at 1,000,000 sale lines; issue 32: 200 ms on PostgreSQL at 10,000,000 lines over 100 stores
 * (`npm run seed:large -- --users 0 --sale-lines 10000000 --stores 100`, then DATABASE_URL=... as below). Data: bench/lib/retail-bench.ts (the full seed:large folder, or a scaled set).
 *
 *   npm run seed:large -- --users 0 --data-dir /tmp/large && STOREWISE_BENCH_DATA_DIR=/tmp/large npm run bench -- reports
 *   npm run bench -- reports                       # PGlite in memory at STOREWISE_BENCH_SCALE (0.1)
 *   DATABASE_URL=postgres://... npm run bench -- reports
 */
import { measureCase, openRetailBench } from './lib/retail-bench';

const TARGET_P95_MS = { pglite: 500, postgres: 200 } as const;
const ITERATIONS = Number(process.env.STOREWISE_BENCH_ITERATIONS ?? '20');

async function main(): Promise<void> {
  const bench = await openRetailBench();
  const { db, business } = bench;
  try {
    console.log(`Database: ${bench.label}; ${bench.variants.toLocaleString('en-US')} variants, ` +
      `${bench.saleLines.toLocaleString('en-US')} sale lines, ${bench.stores.length} stores (machine shared and loaded)`);
    const target = TARGET_P95_MS[db.kind];
    const [range] = (await db.query<{ last: string; month: string; quarter: string; year: string }>(
      `select max(day)::text as last, (max(day) - 29)::text as month, (max(day) - 90)::text as quarter,
              (max(day) - 364)::text as year
         from public.sales_daily where business_id = $1`, [business])).rows;
    if (!range?.last) throw new Error('no sales to report on');
    const cashier = bench.cashier;
    const as = (claims: typeof bench.owner) => (sql: string, params: unknown[]) => () =>
      db.asRequest({ role: 'authenticated', claims, readOnly: true, method: 'POST' }, (tx) => tx.query(sql, params));
    const owner = as(bench.owner);
    const manager = as(bench.manager);
    const store = bench.stores[0];
    const cases: [string, () => Promise<unknown>][] = [
      // What any request costs on this machine now (transaction, role, claims): the floor under every figure.
      ['request floor: select 1', owner('select 1', [])],
      ['sales by day, 30 days, all stores', owner('select * from public.report_sales($1, $2, $3, $4)', [business, range.month, range.last, 'day'])],
      ['sales by week, a quarter, all stores', owner('select * from public.report_sales($1, $2, $3, $4)', [business, range.quarter, range.last, 'week'])],
      ['sales by month, a year, all stores', owner('select * from public.report_sales($1, $2, $3, $4)', [business, range.year, range.last, 'month'])],
      ['sales by day, a year, one store', owner('select * from public.report_sales($1, $2, $3, $4, $5)', [business, range.year, range.last, 'day', store])],
      ['profit by day, 30 days', owner('select * from public.report_profit($1, $2, $3, $4)', [business, range.month, range.last, 'day'])],
      ['profit by month, a year', owner('select * from public.report_profit($1, $2, $3, $4)', [business, range.year, range.last, 'month'])],
      ['top 10 products, 30 days', owner('select * from public.report_top_products($1, $2, $3)', [business, range.month, range.last])],
      ['top 10 products, a year', owner('select * from public.report_top_products($1, $2, $3)', [business, range.year, range.last])],
      ['worst 10 products, a year, one store', owner('select * from public.report_top_products($1, $2, $3, $4, true)', [business, range.year, range.last, store])],
      ['worst 10 products, 30 days, all stores', owner('select * from public.report_top_products($1, $2, $3, null, true)', [business, range.month, range.last])],
      ['top 10 products, a year, one store', owner('select * from public.report_top_products($1, $2, $3, $4)', [business, range.year, range.last, store])],
      ['taxes per rate, a year', owner('select * from public.report_taxes($1, $2, $3)', [business, range.year, range.last])],
      ['manager (2 stores): sales by day, a year', manager('select * from public.report_sales($1, $2, $3, $4)', [business, range.year, range.last, 'day'])],
      ['manager (2 stores): top 10 products, a year', manager('select * from public.report_top_products($1, $2, $3)', [business, range.year, range.last])],
      ['manager (2 stores): worst 10 products, a year', manager('select * from public.report_top_products($1, $2, $3, null, true)', [business, range.year, range.last])],
      // The breakdowns (net of refunds, ADR 0144).
      ...(['store', 'staff', 'category', 'tender'] as const).map((dimension): [string, () => Promise<unknown>] =>
        [`sales by ${dimension}, 30 days`, owner('select * from public.report_sales_by($1, $2, $3, $4)', [business, range.month, range.last, dimension])]),
      ['sales by category, a year', owner('select * from public.report_sales_by($1, $2, $3, $4)', [business, range.year, range.last, 'category'])],
      ['sales by store, a year', owner('select * from public.report_sales_by($1, $2, $3, $4)', [business, range.year, range.last, 'store'])],
      ['sell-through, best 50, 30 days', owner('select * from public.report_sell_through($1, $2, $3)', [business, range.month, range.last])],
      // Issue 32: best first over all stores and a whole year (717 ms at 1,000,000 lines and 10 stores, ADR 0170).
      ['sell-through, best 50, a year, all stores', owner('select * from public.report_sell_through($1, $2, $3)', [business, range.year, range.last])],
      ['sell-through, worst 50, 30 days, one store', owner('select * from public.report_sell_through($1, $2, $3, $4, true)', [business, range.month, range.last, store])],
      ['slow movers, 30 days, one store', owner('select * from public.report_slow_movers($1, $2, 30)', [business, store])],
      ['inventory valuation, all stores', owner('select * from public.report_inventory_valuation($1)', [business])],
      ['stock movements by day, 30 days', owner('select * from public.report_stock_movements($1, $2, $3, $4)', [business, range.month, range.last, 'day'])],
      ['Z reports (shifts), 30 days', owner('select * from public.report_shifts($1, $2, $3)', [business, range.month, range.last])],
      ['dashboard overview, owner', owner('select public.business_overview($1, null, $2::date)', [business, range.last])],
      ['dashboard overview, manager (2 stores)', manager('select public.business_overview($1, null, $2::date)', [business, range.last])],
      ['dashboard overview, cashier (own shift)', as(cashier)('select public.business_overview($1)', [business])],
    ];
    const only = process.env.STOREWISE_BENCH_ONLY;
    const chosen = only ? cases.filter(([name]) => new RegExp(only).test(name)) : cases;
    let met = 0;
    for (const [name, fn] of chosen) {
      try {
        if (await measureCase(name, fn, target, ITERATIONS)) met += 1;
      } catch (error) {
        // A statement timeout after the warm-up (the API roles' limit): a result too, go on with the other cases.
        console.log(`${name.padEnd(48)} FAILED: ${error instanceof Error ? error.message : String(error)}  (target ${target} ms)`);
      }
    }
    console.log(`${met} of ${chosen.length} report cases within the p95 target on ${db.kind}`);
    if (met < chosen.length) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

await main();
