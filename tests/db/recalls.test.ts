/**
 * Recalls (issue 29, ADR 0360, 20261203070000_lots_fefo_recalls.sql) over HTTP with supabase-js as each person:
 * start_recall quarantines all of a lot's stock in every store at once (still on hand and counted, never sold
 * again; offline sales of it are kept and flagged), recall_report lists the stock and every sale of the lots with
 * the customer where known; owners and managers only, each business its own. The ledger equals the balances
 * after each test.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import {
  expectLedgerEqualsBalances, lotItem, lotQty, lotSale, openShift, type LotItem, type PostedSale,
} from './support/lot-world';

let w: CatalogWorld;
const reg: Record<string, string> = {};
let cashierShift = '';
let ownerShift = '';
let item: LotItem;
let customerId = '';
const sold: string[] = [];

interface Report {
  recall: { id: string; reason: string; created_by: string };
  lots: { lot_id: string; lot_number: string; on_hand_at_recall: number; stock: { store_id: string; qty: number }[] }[];
  sales: { sale_id: string; lot_number: string; qty: number; store_id: string; customer: { name: string; phone: string } | null }[];
}

const recallCount = async () => Number((await w.rows<{ n: string }>('select count(*) as n from public.recalls'))[0]?.n);
const cashierSells = async (line: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  w.clients.cashier.rpc('post_sale', { _payload: lotSale(reg.DT2 as string, cashierShift, line, extra) });

beforeAll(async () => {
  w = await startCatalogWorld();
  for (const r of await w.rows<{ id: string; receipt_prefix: string }>(
    `select id, receipt_prefix from public.registers where receipt_prefix in ('DT1', 'DT2')`)) reg[r.receipt_prefix] = r.id;
  cashierShift = await openShift(w.clients.cashier, reg.DT2 as string);
  ownerShift = await openShift(w.clients.owner, reg.DT1 as string);
  item = await lotItem(w, 'Recall Infant Formula', [
    { number: 'R-BAD', days: 30, stock: { [downtown]: 6, [riverside]: 4 } },
    { number: 'R-GOOD', days: 90, stock: { [downtown]: 5 } },
  ]);
  customerId = randomUUID();
  const customer = await w.clients.cashier.rpc('create_customer', {
    _id: customerId, _business_id: w.businessA, _name: 'Rita Parent', _phone: '+1 555 010 7777', _email: null });
  expect(customer.error).toBeNull();
  // Before the recall: one sale with the customer (FEFO takes R-BAD), one without.
  for (const extra of [{ customer_id: customerId }, {}]) {
    const { data, error } = await cashierSells({ variant_id: item.variant, qty: 1 }, extra);
    expect(error).toBeNull();
    sold.push((data as PostedSale).id);
  }
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

afterEach(async () => {
  if (w) await expectLedgerEqualsBalances(w);
});

describe('start_recall', () => {
  it('is refused to a cashier, another business, anon and bad input, writing nothing', async () => {
    const before = await recallCount();
    const args = { _business_id: w.businessA, _lot_ids: [item.lots['R-BAD']], _reason: 'Supplier notice' };
    for (const [name, client] of [['cashier', w.clients.cashier], ['other', w.clients.other], ['admin', w.clients.admin]] as const) {
      expect([name, (await client.rpc('start_recall', args)).error?.code]).toEqual([name, '42501']);
    }
    expect((await w.clients.anon.rpc('start_recall', args)).error).not.toBeNull();
    // Another business's owner naming their own business but these lots.
    const otherBusiness = await w.clients.other.rpc('start_recall', { ...args, _business_id: w.businessB });
    expect(otherBusiness.error?.code).toBe('22023');
    for (const [bad, message] of [
      [{ _lot_ids: [] }, /at least one lot/],
      [{ _reason: '  ' }, /say why/],
      [{ _lot_ids: [randomUUID()] }, /lots of this business/],
    ] as const) {
      const { error } = await w.clients.owner.rpc('start_recall', { ...args, ...bad });
      expect(error?.code).toBe('22023');
      expect(error?.message).toMatch(message);
    }
    expect(await recallCount()).toBe(before);
    expect(await w.rows('select quarantined_at from public.lots where id = $1', [item.lots['R-BAD']])).toEqual([{ quarantined_at: null }]);
  });

  it('a manager quarantines all of the lot\'s stock in every store: still on hand, audited, the ledger untouched', async () => {
    const ledgerBefore = await w.rows('select count(*) as n from public.stock_movements where lot_id = $1', [item.lots['R-BAD']]);
    const { data: recall, error } = await w.clients.manager.rpc('start_recall', {
      _business_id: w.businessA, _lot_ids: [item.lots['R-BAD']], _reason: 'Supplier notice 2026-12' });
    expect(error).toBeNull();
    const [lot] = await w.rows<{ quarantined_at: string | null; recall_id: string }>(
      'select quarantined_at, recall_id from public.lots where id = $1', [item.lots['R-BAD']]);
    expect(lot?.quarantined_at).not.toBeNull();
    expect(lot?.recall_id).toBe(recall);
    // Every store's stock of the lot is quarantined and still counted: 6 - 2 sold Downtown, 4 at Riverside.
    expect(await w.rows('select on_hand from public.recall_lots where recall_id = $1', [recall])).toEqual([{ on_hand: '8.000' }]);
    expect([await lotQty(w, downtown, item.lots['R-BAD'] as string), await lotQty(w, riverside, item.lots['R-BAD'] as string)]).toEqual([4, 4]);
    const sheet = await w.clients.manager.rpc('count_sheet', { _store_id: downtown, _variant_ids: [item.variant] });
    expect((sheet.data as { lot_number: string; on_hand: number }[]).map((r) => [r.lot_number, Number(r.on_hand)]))
      .toEqual([['R-BAD', 4], ['R-GOOD', 5]]);
    expect(await w.rows('select count(*) as n from public.stock_movements where lot_id = $1', [item.lots['R-BAD']])).toEqual(ledgerBefore);
    const [trail] = await w.rows<{ actor_id: string; after: { reason: string; lots: { lot_id: string; stock: Record<string, number> }[] } }>(
      `select actor_id, after from public.activity where kind = 'recall.started' and entity_id = $1`, [recall]);
    expect(trail?.actor_id).toBe(w.userIds.manager);
    expect(trail?.after.reason).toBe('Supplier notice 2026-12');
    expect(trail?.after.lots[0]?.stock).toEqual({ [downtown]: 4, [riverside]: 4 });

    const again = await w.clients.owner.rpc('start_recall', {
      _business_id: w.businessA, _lot_ids: [item.lots['R-BAD']], _reason: 'Twice' });
    expect(again.error?.code).toBe('22023');
    expect(again.error?.message).toMatch(/already recalled/);
  });
});

describe('a recalled lot', () => {
  it('is never sold online, by anyone; a sale without a lot takes another lot', async () => {
    for (const [client, register, shift] of [[w.clients.cashier, reg.DT2, cashierShift], [w.clients.owner, reg.DT1, ownerShift]] as const) {
      const named = await client.rpc('post_sale', { _payload: lotSale(register as string, shift,
        { variant_id: item.variant, qty: 1, lot_id: item.lots['R-BAD'] }) });
      expect(named.error?.code).toBe('22023');
      expect(named.error?.message).toMatch(/lot R-BAD is recalled/);
    }
    const fefo = await cashierSells({ variant_id: item.variant, qty: 2 });
    expect(fefo.error).toBeNull();
    expect((fefo.data as PostedSale).lines[0]?.lots?.map((l) => l.lot_number)).toEqual(['R-GOOD']);
    expect([await lotQty(w, downtown, item.lots['R-BAD'] as string), await lotQty(w, downtown, item.lots['R-GOOD'] as string)]).toEqual([4, 3]);

    // When the only stock is recalled, a line without a lot is refused rather than selling it.
    const onlyRecalled = await lotItem(w, 'Recall Only Item', [{ number: 'Q1', days: 30, stock: { [downtown]: 3 } }]);
    await w.rows(`update public.lots set quarantined_at = now(), recall_id = (select id from public.recalls limit 1) where id = $1`,
      [onlyRecalled.lots.Q1]);
    const refused = await cashierSells({ variant_id: onlyRecalled.variant, qty: 1 });
    expect(refused.error?.code).toBe('22023');
    expect(await lotQty(w, downtown, onlyRecalled.lots.Q1 as string)).toBe(3);
  });

  it('sold offline is kept and flagged for review; a transfer without a lot leaves it behind', async () => {
    const { data, error } = await cashierSells({ variant_id: item.variant, qty: 1, lot_id: item.lots['R-BAD'] }, { offline: true });
    expect(error).toBeNull();
    expect((data as PostedSale).review_reasons).toContain('recalled_lot:1');
    sold.push((data as PostedSale).id);
    expect(await lotQty(w, downtown, item.lots['R-BAD'] as string)).toBe(3);

    const sent = await w.clients.owner.rpc('send_transfer', {
      _from_store_id: downtown, _to_store_id: riverside, _lines: [{ variant_id: item.variant, qty: 3 }] });
    expect(sent.error).toBeNull();
    expect(await w.rows('select lot_id from public.transfer_lines where transfer_id = $1', [sent.data]))
      .toEqual([{ lot_id: item.lots['R-GOOD'] }]);
    const tooMuch = await w.clients.owner.rpc('send_transfer', {
      _from_store_id: downtown, _to_store_id: riverside, _lines: [{ variant_id: item.variant, qty: 1 }] });
    expect(tooMuch.error?.code).toBe('22023');
  });
});

describe('recall_report', () => {
  it('lists the stock per store and every sale of the lot with the customer where known', async () => {
    const [{ id: recall } = { id: '' }] = await w.rows<{ id: string }>(
      'select recall_id as id from public.lots where id = $1', [item.lots['R-BAD']]);
    const { data, error } = await w.clients.owner.rpc('recall_report', { _recall_id: recall });
    expect(error).toBeNull();
    const report = data as Report;
    expect(report.recall).toMatchObject({ id: recall, reason: 'Supplier notice 2026-12', created_by: w.userIds.manager });
    expect(report.lots).toHaveLength(1);
    expect(report.lots[0]).toMatchObject({ lot_number: 'R-BAD', on_hand_at_recall: 8 });
    expect(report.lots[0]?.stock.map((s) => [s.store_id, Number(s.qty)]).sort())
      .toEqual([[downtown, 3], [riverside, 4]].sort());
    expect(report.sales.map((s) => s.sale_id).sort()).toEqual([...sold].sort());
    const withCustomer = report.sales.find((s) => s.sale_id === sold[0]);
    expect(withCustomer?.customer).toMatchObject({ name: 'Rita Parent', phone: '+1 555 010 7777' });
    expect(report.sales.filter((s) => s.customer === null)).toHaveLength(2);
    expect(report.sales.every((s) => s.lot_number === 'R-BAD' && Number(s.qty) === 1)).toBe(true);
  });

  it('a manager limited to Downtown sees Downtown only; a cashier, another business and anon see nothing', async () => {
    const [{ id: recall } = { id: '' }] = await w.rows<{ id: string }>(
      'select recall_id as id from public.lots where id = $1', [item.lots['R-BAD']]);
    const manager = await w.clients.manager.rpc('recall_report', { _recall_id: recall });
    expect(manager.error).toBeNull();
    expect((manager.data as Report).lots[0]?.stock.map((s) => s.store_id)).toEqual([downtown]);
    expect((manager.data as Report).sales.every((s) => s.store_id === downtown)).toBe(true);
    for (const [name, client] of [['cashier', w.clients.cashier], ['other', w.clients.other]] as const) {
      expect([name, (await client.rpc('recall_report', { _recall_id: recall })).error?.code]).toEqual([name, '42501']);
    }
    expect((await w.clients.anon.rpc('recall_report', { _recall_id: recall })).data ?? null).toBeNull();
    expect((await w.clients.owner.rpc('recall_report', { _recall_id: randomUUID() })).error?.code).toBe('PT404');
    // The tables: owners and managers of the business read them; a cashier and another business read nothing.
    for (const client of [w.clients.cashier, w.clients.other]) {
      expect((await client.from('recalls').select('id')).data).toEqual([]);
      expect((await client.from('recall_lots').select('lot_id')).data).toEqual([]);
    }
    expect((await w.clients.manager.from('recalls').select('id')).data).toEqual([{ id: recall }]);
  });
});
