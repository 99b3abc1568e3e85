/**
 * Lots picked earliest-expiring first (issue 29, ADR 0360, 20261203070000_lots_fefo_recalls.sql) over HTTP with
 * supabase-js as each person: a sale line that names no lot is split over the store's lots by expiry, skipping
 * expired ones; an expired lot is sold only by a manager or with a manager's approval (offline: kept and flagged);
 * transfers and counts without a lot follow the same order. The ledger equals the balances after each.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import {
  expectLedgerEqualsBalances, lotItem, lotQty, lotSale, openShift, type PostedSale,
} from './support/lot-world';

let w: CatalogWorld;
const reg: Record<string, string> = {};
let managerShift = '';
let cashierShift = '';

beforeAll(async () => {
  w = await startCatalogWorld();
  for (const r of await w.rows<{ id: string; receipt_prefix: string }>(
    `select id, receipt_prefix from public.registers where receipt_prefix in ('DT1', 'DT2')`)) reg[r.receipt_prefix] = r.id;
  managerShift = await openShift(w.clients.manager, reg.DT1 as string);
  cashierShift = await openShift(w.clients.cashier, reg.DT2 as string);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

afterEach(async () => {
  if (w) await expectLedgerEqualsBalances(w);
});

const cashierSells = async (line: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  w.clients.cashier.rpc('post_sale', { _payload: lotSale(reg.DT2 as string, cashierShift, line, extra) });
const managerSells = async (line: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  w.clients.manager.rpc('post_sale', { _payload: lotSale(reg.DT1 as string, managerShift, line, extra) });
const lineLots = (saleId: string) => w.rows<{ lot_id: string; qty: string; expired: boolean }>(
  `select ll.lot_id, ll.qty, ll.expired from public.sale_line_lots ll join public.sale_lines sl on sl.id = ll.sale_line_id
    where sl.sale_id = $1 order by ll.qty desc`, [saleId]);
const saleCount = async () => Number((await w.rows<{ n: string }>(
  'select count(*) as n from public.sales where business_id = $1', [w.businessA]))[0]?.n);

describe('a sale line without a lot', () => {
  it('takes the earliest-expiring lot first and splits over the next, never an expired or later lot first', async () => {
    const item = await lotItem(w, 'FEFO Yogurt', [
      { number: 'LATE', days: 60, stock: { [downtown]: 4 } },
      { number: 'OLD', days: -10, stock: { [downtown]: 5 } },
      { number: 'SOON', days: 5, stock: { [downtown]: 3 } },
    ]);
    const { data, error } = await cashierSells({ variant_id: item.variant, qty: 5 });
    expect(error).toBeNull();
    const sale = data as PostedSale;
    // The register is told which lots the line took, with their numbers.
    expect(sale.lines[0]?.lots?.map((l) => [l.lot_number, Number(l.qty), l.expired])).toEqual([['SOON', 3, false], ['LATE', 2, false]]);
    expect(sale.lines[0]?.lot_id).toBe(item.lots.SOON);
    expect(sale.review_reasons).toEqual([]);
    expect(await lineLots(sale.id)).toEqual([
      { lot_id: item.lots.SOON, qty: '3.000', expired: false }, { lot_id: item.lots.LATE, qty: '2.000', expired: false }]);
    expect([await lotQty(w, downtown, item.lots.SOON as string), await lotQty(w, downtown, item.lots.LATE as string),
      await lotQty(w, downtown, item.lots.OLD as string)]).toEqual([0, 2, 5]);
    const moves = await w.rows<{ lot_id: string; qty: string }>(
      `select lot_id, qty from public.stock_movements where reference_id = $1 order by qty`, [sale.id]);
    expect(moves).toEqual([{ lot_id: item.lots.SOON, qty: '-3.000' }, { lot_id: item.lots.LATE, qty: '-2.000' }]);

    // More than the unexpired lots hold: the rest goes on the last of them (negative, flagged), not on the expired lot.
    const short = await cashierSells({ variant_id: item.variant, qty: 4 });
    expect(short.error).toBeNull();
    expect((short.data as PostedSale).review_reasons).toEqual([`negative_stock:${item.variant}`]);
    expect([await lotQty(w, downtown, item.lots.LATE as string), await lotQty(w, downtown, item.lots.OLD as string)]).toEqual([-2, 5]);
  });

  it('a lot named by the register (a DataMatrix scan) is taken as named', async () => {
    const item = await lotItem(w, 'Named Drops', [
      { number: 'A', days: 10, stock: { [downtown]: 3 } }, { number: 'B', days: 90, stock: { [downtown]: 3 } }]);
    const { data, error } = await cashierSells({ variant_id: item.variant, qty: 2, lot_id: item.lots.B });
    expect(error).toBeNull();
    expect(await lineLots((data as PostedSale).id)).toEqual([{ lot_id: item.lots.B, qty: '2.000', expired: false }]);
    expect([await lotQty(w, downtown, item.lots.A as string), await lotQty(w, downtown, item.lots.B as string)]).toEqual([3, 1]);
  });
});

describe('an expired lot', () => {
  it('is refused to a cashier online, whole sale unwritten; a manager\'s one-time approval lets it through, recorded', async () => {
    const item = await lotItem(w, 'Expired Milk', [{ number: 'GONE', days: -3, stock: { [downtown]: 4 } }]);
    const before = await saleCount();
    for (const line of [{ variant_id: item.variant, qty: 1 }, { variant_id: item.variant, qty: 1, lot_id: item.lots.GONE }]) {
      const refused = await cashierSells(line);
      expect(refused.error?.code).toBe('42501');
      expect(refused.error?.message).toMatch(/lot GONE expired on .*ask a manager/);
    }
    expect(await saleCount()).toBe(before);
    expect(await lotQty(w, downtown, item.lots.GONE as string)).toBe(4);

    // A cashier cannot approve; a discount approval is not one for an expired lot.
    expect((await w.clients.cashier.rpc('approve_discount', { _store_id: downtown, _purpose: 'expired_lot' })).error?.code).toBe('42501');
    const discountApproval = await w.clients.manager.rpc('approve_discount', { _store_id: downtown, _max_discount_percent: 20 });
    expect((await cashierSells({ variant_id: item.variant, qty: 1 }, { lot_approval_id: discountApproval.data })).error?.code).toBe('42501');

    const approval = await w.clients.manager.rpc('approve_discount', { _store_id: downtown, _purpose: 'expired_lot' });
    expect(approval.error).toBeNull();
    const sold = await cashierSells({ variant_id: item.variant, qty: 2 }, { lot_approval_id: approval.data });
    expect(sold.error).toBeNull();
    const sale = sold.data as PostedSale;
    expect(await lineLots(sale.id)).toEqual([{ lot_id: item.lots.GONE, qty: '2.000', expired: true }]);
    expect(await w.rows('select purpose, used_for, approved_by from public.pos_approvals where id = $1', [approval.data]))
      .toEqual([{ purpose: 'expired_lot', used_for: sale.id, approved_by: w.userIds.manager }]);
    const [trail] = await w.rows<{ actor_id: string; after: { approved_by: string; approval_id: string; lots: { lot_id: string }[] } }>(
      `select actor_id, after from public.activity where kind = 'sale.expired_lot_sold' and entity_id = $1`, [sale.id]);
    expect(trail?.actor_id).toBe(w.userIds.cashier);
    expect(trail?.after).toMatchObject({ approved_by: w.userIds.manager, approval_id: approval.data });
    expect(trail?.after.lots.map((l) => l.lot_id)).toEqual([item.lots.GONE]);

    // The approval was for one sale.
    const reused = await cashierSells({ variant_id: item.variant, qty: 1 }, { lot_approval_id: approval.data });
    expect(reused.error?.code).toBe('42501');
    expect(await lotQty(w, downtown, item.lots.GONE as string)).toBe(2);
  });

  it('a manager selling it is the override, recorded in the trail', async () => {
    const item = await lotItem(w, 'Expired Bread', [{ number: 'STALE', days: -1, stock: { [downtown]: 2 } }]);
    const { data, error } = await managerSells({ variant_id: item.variant, qty: 1, lot_id: item.lots.STALE });
    expect(error).toBeNull();
    const sale = data as PostedSale;
    expect(sale.lines[0]?.lots?.[0]).toMatchObject({ lot_number: 'STALE', expired: true });
    const [trail] = await w.rows<{ after: { approved_by: string; approval_id: string | null } }>(
      `select after from public.activity where kind = 'sale.expired_lot_sold' and entity_id = $1`, [sale.id]);
    expect(trail?.after).toMatchObject({ approved_by: w.userIds.manager, approval_id: null });
  });

  it('sold offline by a cashier is kept and flagged for review, never lost', async () => {
    const item = await lotItem(w, 'Expired Cheese', [{ number: 'OFF', days: -20, stock: { [downtown]: 3 } }]);
    const { data, error } = await cashierSells({ variant_id: item.variant, qty: 1, lot_id: item.lots.OFF }, { offline: true });
    expect(error).toBeNull();
    const sale = data as PostedSale;
    expect(sale.review_reasons).toContain('expired_lot:1');
    expect(await lotQty(w, downtown, item.lots.OFF as string)).toBe(2);
    expect(await lineLots(sale.id)).toEqual([{ lot_id: item.lots.OFF, qty: '1.000', expired: true }]);
  });
});

describe('transfers and counts without a lot', () => {
  it('a transfer sends the earliest-expiring lots that are not expired, one line per lot, and refuses more', async () => {
    const item = await lotItem(w, 'Transfer Juice', [
      { number: 'T-LATE', days: 40, stock: { [downtown]: 5 } },
      { number: 'T-OLD', days: -2, stock: { [downtown]: 9 } },
      { number: 'T-SOON', days: 8, stock: { [downtown]: 2 } },
    ]);
    const tooMuch = await w.clients.manager.rpc('send_transfer', {
      _from_store_id: downtown, _to_store_id: riverside, _lines: [{ variant_id: item.variant, qty: 8 }] });
    expect(tooMuch.error?.code).toBe('22023');
    expect(tooMuch.error?.message).toMatch(/only 7\.?0* on hand in lots neither expired nor recalled/);
    expect(await lotQty(w, downtown, item.lots['T-SOON'] as string)).toBe(2);

    const { data: transfer, error } = await w.clients.manager.rpc('send_transfer', {
      _from_store_id: downtown, _to_store_id: riverside, _lines: [{ variant_id: item.variant, qty: 4 }] });
    expect(error).toBeNull();
    const lines = await w.rows<{ lot_id: string; qty_sent: string }>(
      'select lot_id, qty_sent from public.transfer_lines where transfer_id = $1 order by qty_sent', [transfer]);
    expect(lines).toEqual([{ lot_id: item.lots['T-SOON'], qty_sent: '2.000' }, { lot_id: item.lots['T-LATE'], qty_sent: '2.000' }]);
    expect((await w.clients.owner.rpc('receive_transfer', { _transfer_id: transfer })).error).toBeNull();
    expect([await lotQty(w, riverside, item.lots['T-SOON'] as string), await lotQty(w, riverside, item.lots['T-LATE'] as string),
      await lotQty(w, downtown, item.lots['T-OLD'] as string)]).toEqual([2, 2, 9]);
  });

  it('a count without a lot keeps the latest-expiring stock, takes the shortfall from the earliest, and puts a surplus on the latest', async () => {
    const item = await lotItem(w, 'Count Cream', [
      { number: 'C-SOON', days: 4, stock: { [downtown]: 3 } }, { number: 'C-LATE', days: 70, stock: { [downtown]: 4 } }]);
    const short = await w.clients.manager.rpc('post_count', { _store_id: downtown, _lines: [{ variant_id: item.variant, counted: 5 }] });
    expect(short.error).toBeNull();
    expect((short.data as { lot_id: string; expected: number; counted: number; delta: number }[])
      .map((r) => [r.lot_id, Number(r.expected), Number(r.counted), Number(r.delta)]))
      .toEqual([[item.lots['C-LATE'], 4, 4, 0], [item.lots['C-SOON'], 3, 1, -2]]);
    expect([await lotQty(w, downtown, item.lots['C-SOON'] as string), await lotQty(w, downtown, item.lots['C-LATE'] as string)]).toEqual([1, 4]);

    const surplus = await w.clients.manager.rpc('post_count', { _store_id: downtown, _lines: [{ variant_id: item.variant, counted: 9 }] });
    expect(surplus.error).toBeNull();
    expect([await lotQty(w, downtown, item.lots['C-SOON'] as string), await lotQty(w, downtown, item.lots['C-LATE'] as string)]).toEqual([1, 8]);

    const mixed = await w.clients.manager.rpc('post_count', { _store_id: downtown, _lines: [
      { variant_id: item.variant, counted: 2 }, { variant_id: item.variant, lot_id: item.lots['C-SOON'], counted: 1 }] });
    expect(mixed.error?.code).toBe('22023');
    expect(mixed.error?.message).toMatch(/as a whole or lot by lot/);
    const cashier = await w.clients.cashier.rpc('post_count', { _store_id: downtown, _lines: [{ variant_id: item.variant, counted: 0 }] });
    expect(cashier.error?.code).toBe('42501');
    expect([await lotQty(w, downtown, item.lots['C-SOON'] as string), await lotQty(w, downtown, item.lots['C-LATE'] as string)]).toEqual([1, 8]);
  });
});

describe('another business', () => {
  it('cannot sell, send or count with this business\'s lots', async () => {
    const item = await lotItem(w, 'Private Lot Item', [{ number: 'P1', days: 30, stock: { [downtown]: 3 } }]);
    const sale = await w.clients.other.rpc('post_sale', { _payload: lotSale(reg.DT2 as string, cashierShift,
      { variant_id: item.variant, qty: 1, lot_id: item.lots.P1 }) });
    expect(sale.error?.code).toBe('42501');
    const transfer = await w.clients.other.rpc('send_transfer', {
      _from_store_id: downtown, _to_store_id: riverside, _lines: [{ variant_id: item.variant, qty: 1 }] });
    expect(transfer.error?.code).toBe('42501');
    const lines = await w.clients.other.from('sale_line_lots').select('*');
    expect(lines.error).toBeNull();
    expect(lines.data).toEqual([]);
    expect(await lotQty(w, downtown, item.lots.P1 as string)).toBe(3);
  });
});
