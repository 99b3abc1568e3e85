/**
 * Lifting a recall (issue 29, ADR 0401, 20261204120100_release_recall.sql) over HTTP with supabase-js as each
 * person: owners and managers of the business release a recall's quarantined lots with a reason, recorded on the
 * recall and in the trail; the stock, still on hand, is sellable again and FEFO picks it first when it expires
 * first. Cashiers and other businesses are refused and change nothing. The ledger equals the balances after each.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import {
  expectLedgerEqualsBalances, lotItem, lotQty, lotSale, openShift, type LotItem, type PostedSale,
} from './support/lot-world';

let w: CatalogWorld;
let register = '';
let shift = '';
let item: LotItem;
let recall = '';

const quarantined = async () => (await w.rows<{ recall_id: string | null }>(
  'select recall_id from public.lots where id = $1', [item.lots.EARLY]))[0]?.recall_id ?? null;
const sellOne = (line: Record<string, unknown>) =>
  w.clients.cashier.rpc('post_sale', { _payload: lotSale(register, shift, { variant_id: item.variant, qty: 1, ...line }) });

beforeAll(async () => {
  w = await startCatalogWorld();
  [{ id: register }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT2'`) as [{ id: string }];
  shift = await openShift(w.clients.cashier, register);
  item = await lotItem(w, 'Release Eye Drops', [
    { number: 'EARLY', days: 10, stock: { [downtown]: 3 } }, { number: 'LATER', days: 60, stock: { [downtown]: 2 } }]);
  const started = await w.clients.owner.rpc('start_recall', {
    _business_id: w.businessA, _lot_ids: [item.lots.EARLY], _reason: 'Supplier notice' });
  expect(started.error).toBeNull();
  recall = started.data as string;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

afterEach(async () => {
  if (w) await expectLedgerEqualsBalances(w);
});

describe('release_recall', () => {
  it('is refused to a cashier, another business, anon and bad input, changing nothing', async () => {
    const args = { _recall_id: recall, _reason: 'Lab cleared the lot', _lot_ids: [item.lots.EARLY] };
    for (const [name, client] of [['cashier', w.clients.cashier], ['other', w.clients.other]] as const) {
      expect([name, (await client.rpc('release_recall', args)).error?.code]).toEqual([name, '42501']);
    }
    expect((await w.clients.anon.rpc('release_recall', args)).error).not.toBeNull();
    for (const [bad, code, message] of [
      [{ _reason: '  ' }, '22023', /say why/],
      [{ _lot_ids: [item.lots.LATER] }, '22023', /still quarantined/],
      [{ _lot_ids: [] }, '22023', /1 to 200 lots/],
      [{ _recall_id: randomUUID() }, 'PT404', /no such recall/],
    ] as const) {
      const { error } = await w.clients.owner.rpc('release_recall', { ...args, ...bad });
      expect([error?.code, error?.message]).toEqual([code, expect.stringMatching(message)]);
    }
    expect(await quarantined()).toBe(recall);
    // Still quarantined: a sale naming it is refused, a sale without a lot takes LATER.
    expect((await sellOne({ lot_id: item.lots.EARLY })).error?.code).toBe('22023');
    const fefo = await sellOne({});
    expect(fefo.error).toBeNull();
    expect((fefo.data as PostedSale).lines[0]?.lots?.map((l) => l.lot_number)).toEqual(['LATER']);
  });

  it('a manager releases the lot: recorded on the recall and in the trail, the stock sellable and picked FEFO again', async () => {
    const { data, error } = await w.clients.manager.rpc('release_recall', { _recall_id: recall, _reason: 'Lab cleared the lot' });
    expect(error).toBeNull();
    expect(data).toBe(1);
    expect(await quarantined()).toBeNull();
    expect(await lotQty(w, downtown, item.lots.EARLY as string)).toBe(3);
    const [row] = await w.rows<{ released_by: string; release_reason: string; released: boolean }>(
      `select released_by, release_reason, released_at is not null as released from public.recall_lots where recall_id = $1`, [recall]);
    expect(row).toEqual({ released_by: w.userIds.manager, release_reason: 'Lab cleared the lot', released: true });
    const [trail] = await w.rows<{ actor_id: string; after: { reason: string; lots: { lot_id: string; stock: Record<string, number> }[] } }>(
      `select actor_id, after from public.activity where kind = 'recall.released' and entity_id = $1`, [recall]);
    expect(trail?.actor_id).toBe(w.userIds.manager);
    expect(trail?.after.reason).toBe('Lab cleared the lot');
    expect(trail?.after.lots).toEqual([expect.objectContaining({ lot_id: item.lots.EARLY, stock: { [downtown]: 3 } })]);

    // Sellable: FEFO takes the earliest-expiring lot again, and a sale may name it.
    const fefo = await sellOne({});
    expect(fefo.error).toBeNull();
    expect((fefo.data as PostedSale).lines[0]?.lots?.map((l) => l.lot_number)).toEqual(['EARLY']);
    expect((await sellOne({ lot_id: item.lots.EARLY })).error).toBeNull();
    expect(await lotQty(w, downtown, item.lots.EARLY as string)).toBe(1);

    // The report says so; nothing is left to release.
    const report = await w.clients.owner.rpc('recall_report', { _recall_id: recall });
    expect((report.data as { lots: unknown[] }).lots).toEqual([expect.objectContaining({
      lot_number: 'EARLY', quarantined: false, release_reason: 'Lab cleared the lot' })]);
    const again = await w.clients.owner.rpc('release_recall', { _recall_id: recall, _reason: 'Twice' });
    expect(again.error?.code).toBe('22023');
    expect(again.error?.message).toMatch(/none of its lots is left in quarantine/);
  });
});
