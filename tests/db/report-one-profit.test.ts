/**
 * One profit (issue 25, ADR 0172): the Sales report (report_profit), Products (report_top_products), Breakdown
 * (report_sales_by) and the Overview (business_overview) give the same net sales and gross profit for the same
 * range, refunds netted on the day they happened (before, the Sales report and Products counted sales only).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let today = '';

type Row = Record<string, number | string | null>;
const sum = (rows: Row[], key: string) => rows.reduce((a, r) => a + Number(r[key] ?? 0), 0);

beforeAll(async () => {
  w = await startCatalogWorld();
  [{ today } = { today: '' }] = await w.rows<{ today: string }>(
    `select (now() at time zone time_zone)::date::text as today from public.stores where id = $1`, [downtown]);
  const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`);
  const opened = await w.clients.owner.rpc('open_shift', { _register_id: register, _opening_float: 0 });
  if (opened.error) throw new Error(opened.error.message);
  const shift = (opened.data as { id: string }).id;
  // Apples get a cost of 3.33 a kilo, so each half kilo costs 1.665: rounded per line (1.67 + 1.67), as the
  // Breakdown does, not once over the day (3.33), which put Products a cent off the other screens.
  await w.rows(`insert into public.variant_costs (variant_id, business_id, cost) values ($1, $2, 333)
                on conflict (variant_id) do update set cost = excluded.cost`, [w.f.kgVariant, w.businessA]);
  // Three tees (cost 6.00 each) and two half kilos of apples; then a tee back to the shelf and 0.4 kg thrown away.
  const payload = { id: randomUUID(), register_id: register, shift_id: shift,
    lines: [{ variant_id: w.f.variant, qty: 3 }, { variant_id: w.f.kgVariant, qty: 0.5 }, { variant_id: w.f.kgVariant, qty: 0.5 }] };
  const probe = await w.clients.owner.rpc('post_sale', { _payload: { ...payload, tenders: [{ kind: 'card', amount: 0 }] } });
  const total = Number(/total:(\d+)/.exec(probe.error?.details ?? '')?.[1]);
  const sold = await w.clients.owner.rpc('post_sale', { _payload: { ...payload, tenders: [{ kind: 'card', amount: total }] } });
  if (sold.error) throw new Error(sold.error.message);
  const lines = (sold.data as { lines: { id: string }[] }).lines;
  const back = await w.clients.owner.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: payload.id, shift_id: shift,
    lines: [{ sale_line_id: lines[0]?.id, qty: 1, disposition: 'restock' }, { sale_line_id: lines[1]?.id, qty: 0.4, disposition: 'damaged' }] } });
  if (back.error) throw new Error(back.error.message);
  // An item sold on an earlier day and not today comes back today: Products lists it below the sold items (CI found
  // Products a refund short when the demo's refunds fell on such a day).
  const [earlier] = await w.rows<{ sale_id: string; line_id: string }>(
    `select l.sale_id, l.id as line_id from public.sale_lines l join public.sales s on s.id = l.sale_id
       join public.stores st on st.id = s.store_id
      where s.store_id = $1 and (s.occurred_at at time zone 'UTC')::date < $2::date - 1 and l.qty >= 1
        and l.variant_id not in ($3, $4)
        and not exists (select from public.refund_lines rl where rl.sale_line_id = l.id)
        -- and not sold at Downtown today: the demo rings sales through the day, so by noon (where CI met it) the
        -- latest earlier sale's item had often sold today too and was no longer "refunded only".
        and not exists (select from public.sale_lines t join public.sales ts on ts.id = t.sale_id
                         where ts.store_id = $1 and t.variant_id = l.variant_id
                           and (ts.occurred_at at time zone st.time_zone)::date = $2::date)
      order by s.occurred_at desc limit 1`, [downtown, today, w.f.variant, w.f.kgVariant]);
  if (!earlier) throw new Error('the demo has no earlier sale at Downtown');
  const old = await w.clients.owner.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: earlier.sale_id, shift_id: shift,
    lines: [{ sale_line_id: earlier.line_id, qty: 1, disposition: 'restock' }] } });
  if (old.error) throw new Error(old.error.message);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

async function call(fn: string, args: Record<string, unknown>): Promise<Row[]> {
  const { data, error } = await w.clients.owner.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as Row[];
}

describe('net sales and gross profit are the same on every screen', () => {
  it('today at Downtown: Sales report, Products, Breakdown and Overview agree', async () => {
    const range = { _business_id: w.businessA, _from: today, _to: today, _store_id: downtown };
    const profit = await call('report_profit', range);
    const byStore = await call('report_sales_by', { ...range, _dimension: 'store' });
    const products = await call('report_top_products', { ...range, _limit: 100 });
    const overview = (await w.clients.owner.rpc('business_overview', { _business_id: w.businessA, _store_id: downtown, _today: today }))
      .data as { today: { gross_profit: number } };
    expect(sum(byStore, 'refunds')).toBeGreaterThan(0);
    expect(sum(profit, 'profit')).toBe(sum(byStore, 'profit'));
    expect(sum(profit, 'revenue')).toBe(sum(byStore, 'revenue'));
    expect(sum(products, 'profit')).toBe(sum(profit, 'profit'));
    expect(sum(products, 'revenue')).toBe(sum(profit, 'revenue'));
    expect(Number(overview.today.gross_profit)).toBe(sum(profit, 'profit'));
    const refundedOnly = products.filter((p) => Number(p.units) < 0);
    expect(refundedOnly.length).toBeGreaterThan(0);
    expect(products.slice(-refundedOnly.length)).toEqual(refundedOnly);
    expect(refundedOnly.every((p) => typeof p.description === 'string' && p.description.length > 0)).toBe(true);
  });

  it('over the demo\'s month of sales and refunds, the Sales report equals the Breakdown', async () => {
    const [{ from } = { from: '' }] = await w.rows<{ from: string }>(`select ($1::date - 30)::text as from`, [today]);
    const range = { _business_id: w.businessA, _from: from, _to: today };
    const profit = await call('report_profit', range);
    const byStore = await call('report_sales_by', { ...range, _dimension: 'store' });
    expect(sum(byStore, 'refunds')).toBeGreaterThan(0);
    expect(sum(profit, 'profit')).toBe(sum(byStore, 'profit'));
    expect(sum(profit, 'revenue')).toBe(sum(byStore, 'revenue'));
    expect(sum(profit, 'cost')).toBe(sum(byStore, 'cost'));
  });
});
