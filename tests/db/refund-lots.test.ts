/**
 * Refunds of a sale line split over lots (issue 29, ADR 0400, 20261204120000_refunds_return_each_lot.sql) over HTTP
 * with supabase-js: every refunded unit goes back to a lot the line took it from, a partial refund to a recalled lot
 * first and then the latest-expiring one, never more to a lot than the line took from it; damaged units count
 * against their lot without moving stock. The stock of each lot equals the ledger after each test. And the receipt
 * (sale_receipt, ADR 0403) lists the lots the server picked for the line, for the cashier who rang it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import { expectLedgerEqualsBalances, lotItem, lotQty, lotSale, openShift, type PostedSale } from './support/lot-world';

let w: CatalogWorld;
let register = '';
let shift = '';

interface RefundAnswer { lines: { sale_line_id: string; lots: { lot_number: string; qty: number }[] | null }[] }

beforeAll(async () => {
  w = await startCatalogWorld();
  [{ id: register }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`) as [{ id: string }];
  shift = await openShift(w.clients.manager, register);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

afterEach(async () => {
  if (w) await expectLedgerEqualsBalances(w);
});

/** The manager sells qty of the item without naming a lot (FEFO splits it); returns the sale and its line id. */
async function sell(variant: string, qty: number): Promise<{ sale: string; line: string }> {
  const { data, error } = await w.clients.manager.rpc('post_sale', { _payload: lotSale(register, shift, { variant_id: variant, qty }) });
  expect(error).toBeNull();
  const sale = data as PostedSale;
  return { sale: sale.id, line: sale.lines[0]?.id as string };
}

const refund = (sale: string, line: string, qty: number, disposition = 'restock') =>
  w.clients.manager.rpc('post_refund', { _payload: {
    id: randomUUID(), sale_id: sale, shift_id: shift, reason: 'Customer return',
    lines: [{ sale_line_id: line, qty, disposition }] } });

const stock = async (lots: Record<string, string>) => Object.fromEntries(
  await Promise.all(Object.entries(lots).map(async ([n, id]) => [n, await lotQty(w, downtown, id)] as const)));

describe('a refund of a line split over two lots', () => {
  it('in full puts each unit back on the lot it came from', async () => {
    const item = await lotItem(w, 'Refund Milk', [
      { number: 'SOON', days: 5, stock: { [downtown]: 2 } }, { number: 'LATE', days: 40, stock: { [downtown]: 6 } }]);
    const { sale, line } = await sell(item.variant, 5);
    expect(await stock(item.lots)).toEqual({ SOON: 0, LATE: 3 });
    const { data, error } = await refund(sale, line, 5);
    expect(error).toBeNull();
    expect((data as RefundAnswer).lines[0]?.lots?.map((l) => [l.lot_number, Number(l.qty)])).toEqual([['LATE', 3], ['SOON', 2]]);
    expect(await stock(item.lots)).toEqual({ SOON: 2, LATE: 6 });
    const moves = await w.rows<{ lot_id: string; qty: string }>(
      `select m.lot_id, m.qty from public.stock_movements m join public.refunds f on f.id = m.reference_id
        where f.sale_id = $1 order by m.qty`, [sale]);
    expect(moves).toEqual([{ lot_id: item.lots.SOON, qty: '2.000' }, { lot_id: item.lots.LATE, qty: '3.000' }]);
  });

  it('in parts returns the latest-expiring lot first, counts damaged units, and never returns more than a lot gave', async () => {
    const item = await lotItem(w, 'Refund Yogurt', [
      { number: 'SOON', days: 5, stock: { [downtown]: 3 } }, { number: 'LATE', days: 40, stock: { [downtown]: 4 } }]);
    const { sale, line } = await sell(item.variant, 5);
    expect(await stock(item.lots)).toEqual({ SOON: 0, LATE: 2 });
    expect((await refund(sale, line, 1)).error).toBeNull();
    expect(await stock(item.lots)).toEqual({ SOON: 0, LATE: 3 });
    // The second unit from LATE comes back damaged: no stock moves, but LATE has given back all it took.
    expect((await refund(sale, line, 1, 'damaged')).error).toBeNull();
    expect(await stock(item.lots)).toEqual({ SOON: 0, LATE: 3 });
    const { data, error } = await refund(sale, line, 2);
    expect(error).toBeNull();
    expect((data as RefundAnswer).lines[0]?.lots?.map((l) => [l.lot_number, Number(l.qty)])).toEqual([['SOON', 2]]);
    expect(await stock(item.lots)).toEqual({ SOON: 2, LATE: 3 });
    const rows = await w.rows<{ lot_id: string; qty: string }>(
      `select x.lot_id, sum(x.qty)::text as qty from public.refund_line_lots x join public.refund_lines rl on rl.id = x.refund_line_id
        where rl.sale_line_id = $1 group by x.lot_id`, [line]);
    expect(Object.fromEntries(rows.map((r) => [r.lot_id, r.qty])))
      .toEqual({ [item.lots.LATE as string]: '2.000', [item.lots.SOON as string]: '2.000' });
    const over = await refund(sale, line, 2);
    expect(over.error?.code).toBe('22023');
    expect(over.error?.message).toMatch(/only 1\.000 left/);
    expect((await refund(sale, line, 1)).error).toBeNull();
    expect(await stock(item.lots)).toEqual({ SOON: 3, LATE: 3 });
  });

  it('after a recall, a partial refund returns the recalled lot first, so the unit is quarantined too', async () => {
    const item = await lotItem(w, 'Refund Formula', [
      { number: 'SOON', days: 5, stock: { [downtown]: 2 } }, { number: 'LATE', days: 40, stock: { [downtown]: 2 } }]);
    const { sale, line } = await sell(item.variant, 4);
    const recall = await w.clients.owner.rpc('start_recall', {
      _business_id: w.businessA, _lot_ids: [item.lots.SOON], _reason: 'Supplier notice' });
    expect(recall.error).toBeNull();
    const { data, error } = await refund(sale, line, 1);
    expect(error).toBeNull();
    expect((data as RefundAnswer).lines[0]?.lots?.map((l) => l.lot_number)).toEqual(['SOON']);
    expect(await stock(item.lots)).toEqual({ SOON: 1, LATE: 0 });
  });

  it('the lots a refund returned are read by the business only', async () => {
    const item = await lotItem(w, 'Refund Drops', [{ number: 'ONLY', days: 30, stock: { [downtown]: 2 } }]);
    const { sale, line } = await sell(item.variant, 1);
    expect((await refund(sale, line, 1)).error).toBeNull();
    const [rl] = await w.rows<{ id: string }>('select id from public.refund_lines where sale_line_id = $1', [line]);
    const mine = await w.clients.manager.from('refund_line_lots').select('lot_id, qty').eq('refund_line_id', rl?.id);
    expect(mine.data).toEqual([{ lot_id: item.lots.ONLY, qty: 1 }]);
    const theirs = await w.clients.other.from('refund_line_lots').select('lot_id').eq('refund_line_id', rl?.id);
    expect(theirs.data).toEqual([]);
  });
});

describe('the receipt of a line split over two lots', () => {
  it('lists each lot with its expiry and quantity for the cashier who rang it; nobody else reads it', async () => {
    const [{ id: dt2 }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT2'`) as [{ id: string }];
    const cashierShift = await openShift(w.clients.cashier, dt2);
    const item = await lotItem(w, 'Receipt Cheese', [
      { number: 'C-SOON', days: 3, stock: { [downtown]: 1 } }, { number: 'C-LATE', days: 20, stock: { [downtown]: 5 } }]);
    const { data, error } = await w.clients.cashier.rpc('post_sale', { _payload: lotSale(dt2, cashierShift, { variant_id: item.variant, qty: 3 }) });
    expect(error).toBeNull();
    const sale = (data as PostedSale).id;
    const receipt = await w.clients.cashier.rpc('sale_receipt', { _sale_id: sale });
    expect(receipt.error).toBeNull();
    const [expSoon, expLate] = (await w.rows<{ d: string }>(
      `select expires_on::text as d from public.lots where id = any($1::uuid[]) order by expires_on`, [[item.lots['C-SOON'], item.lots['C-LATE']]]))
      .map((r) => r.d);
    expect((receipt.data as { lines: { lots: unknown[] }[] }).lines[0]?.lots).toEqual([
      { lot_number: 'C-SOON', expires_on: expSoon, qty: 1 }, { lot_number: 'C-LATE', expires_on: expLate, qty: 2 }]);
    expect((await w.clients.other.rpc('sale_receipt', { _sale_id: sale })).error?.code).toBe('PT404');
  });
});
