import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  addTender, allocate, cartTotals, changeDue, discountAmount, discountLimitPercent, lineFigures, maxDiscountPercent, priceCart,
  tenderState, type CartEntry, type CatalogItem,
} from './cart';
import { countedObject, countedTotal } from './denominations';
import {
  enqueue, enqueueSale, listParked, openPosDb, parkCart, pendingEntries, resumeParked, syncOutbox, waitingSaleIds,
  type OutboxEntry, type SendResult,
} from './outbox';
import { originalTender, refundLineAmount, refundRole } from './refund-math';
import { shortcutOf } from './shortcuts';

const tee: CatalogItem = { variantId: 'v1', name: 'Tee', sku: 'TEE', barcodes: [], price: 1400, taxRate: 8.875, unit: 'each' };
const mug: CatalogItem = { variantId: 'v2', name: 'Mug', sku: 'MUG', barcodes: [], price: 999, taxRate: 20, unit: 'each' };
const cheese: CatalogItem = { variantId: 'v3', name: 'Cheese', sku: 'CHZ', barcodes: [], price: 1899, taxRate: 5, unit: 'kg' };
const entry = (item: CatalogItem, qty: number, extra: Partial<CartEntry> = {}): CartEntry => ({ item, qty, discount: 0, ...extra });

describe('discounts', () => {
  it('a percent rounds down (never past the percent post_sale checks), an amount never exceeds the line', () => {
    expect(discountAmount(1395, { kind: 'percent', value: 10 })).toBe(139);
    expect(discountAmount(1400, { kind: 'percent', value: 10 })).toBe(140);
    expect(discountAmount(500, { kind: 'amount', value: 800 })).toBe(500);
    expect(discountAmount(500, { kind: 'percent', value: 150 })).toBe(500);
    expect(discountAmount(500, undefined)).toBe(0);
  });

  it('spreads an amount in whole minor units that add up exactly (largest remainder)', () => {
    expect(allocate(100, [1000, 1000, 1000])).toEqual([34, 33, 33]);
    expect(allocate(100, [1, 1, 1])).toEqual([1, 1, 1]);
    expect(allocate(1000, [2800, 999])).toEqual([737, 263]);
    expect(allocate(5000, [300, 200])).toEqual([300, 200]);
    expect(allocate(7, [0, 0])).toEqual([0, 0]);
  });

  it('a line discount then a cart discount over what remains; totals and the max percent follow', () => {
    const lines = priceCart([entry(tee, 2, { lineDiscount: { kind: 'percent', value: 10 } }), entry(mug, 1)], { kind: 'amount', value: 300 });
    // Tee: 2800 - 280 = 2520 left, mug 999: 300 spread 2520:999 -> 215 + 85.
    expect(lines.map((l) => l.discount)).toEqual([280 + 215, 85]);
    expect(cartTotals(lines, false)).toMatchObject({ subtotal: 3799, discount: 580 });
    expect(maxDiscountPercent(lines)).toBeCloseTo((495 * 100) / 2800, 6);
    const pct = priceCart([entry(tee, 1), entry(mug, 1)], { kind: 'percent', value: 25 });
    expect(pct.map((l) => l.discount)).toEqual([350, 249]);
    expect(maxDiscountPercent(pct)).toBeLessThanOrEqual(25);
  });

  it('mirrors the role limits of private.discount_limit_percent', () => {
    expect([discountLimitPercent('owner'), discountLimitPercent('manager'), discountLimitPercent('cashier'), discountLimitPercent(null)])
      .toEqual([100, 50, 10, 0]);
  });
});

describe('tax per line in minor units, on top or included', () => {
  it('rounds half away from zero per line after the discount', () => {
    // 999 * 20 % = 199.8 -> 200 on top; included: 999 * 20 / 120 = 166.5 -> 167.
    expect(lineFigures(entry(mug, 1), false)).toEqual({ gross: 999, net: 999, tax: 200, total: 1199 });
    expect(lineFigures(entry(mug, 1), true)).toEqual({ gross: 999, net: 999, tax: 167, total: 999 });
    // Weighed: 0.375 kg of 1899 = 712.125 -> 712; 5 % = 35.6 -> 36.
    expect(lineFigures(entry(cheese, 0.375), false)).toEqual({ gross: 712, net: 712, tax: 36, total: 748 });
    const discounted = priceCart([entry(mug, 1)], { kind: 'amount', value: 99 });
    expect(lineFigures(discounted[0] as CartEntry, true)).toEqual({ gross: 999, net: 900, tax: 150, total: 900 });
    const totals = cartTotals(priceCart([entry(tee, 1), entry(mug, 2)]), false);
    expect(totals.taxByRate).toEqual([{ rate: 8.875, tax: 124 }, { rate: 20, tax: 400 }]);
    expect(totals.total).toBe(1400 + 124 + 1998 + 400);
  });
});

describe('split tenders and change', () => {
  it('card for part, cash for the rest with change; the amounts add up to the total', () => {
    let t = addTender(3049, [], 'card', 2000);
    expect(t).toEqual([{ kind: 'card', amount: 2000, tendered: 2000 }]);
    t = addTender(3049, t as never, 'cash', 2000);
    expect(t).toEqual([{ kind: 'card', amount: 2000, tendered: 2000 }, { kind: 'cash', amount: 1049, tendered: 2000 }]);
    expect(tenderState(3049, t as never)).toEqual({ paid: 3049, remaining: 0, change: 951, rounding: 0, complete: true });
  });

  it('an empty amount pays the rest; card never pays more than remains; nothing after it is paid', () => {
    expect(addTender(1000, [], 'other', null)).toEqual([{ kind: 'other', amount: 1000, tendered: 1000 }]);
    expect(addTender(1000, [], 'card', 1500)).toMatch(/cannot be more/);
    expect(addTender(1000, [{ kind: 'card', amount: 1000, tendered: 1000 }], 'cash', 5)).toMatch(/already paid/);
    expect(addTender(1000, [], 'cash', 0)).toMatch(/above zero/);
    expect(changeDue(1049, 2000)).toBe(951);
    expect(changeDue(1049, 1000)).toBe(0);
  });
});

describe('refund amounts as post_refund computes them', () => {
  it('a part of a line is its rounded share; the last part takes what remains', () => {
    const line = { line_no: 1, qty: 3, line_total: 1000, refunded: 0 };
    expect(refundLineAmount(line, 1)).toBe(333);
    expect(refundLineAmount({ ...line, refunded: 1, refundedAmount: 333 }, 2)).toBe(667);
  });

  it('parts are priced from cumulative quantities: a gram at a time never pays back more than the line (ADR 0171)', () => {
    const line = { line_no: 1, qty: 0.999, line_total: 500, refunded: 0, refundedAmount: 0 };
    let paid = 0;
    for (let gram = 0; gram < 999; gram++) {
      paid += refundLineAmount({ ...line, refunded: gram / 1000, refundedAmount: paid }, 0.001);
      expect(paid).toBeLessThanOrEqual(500);
    }
    expect(paid).toBe(500);
    expect(originalTender([{ kind: 'cash', amount: 1049 }, { kind: 'card', amount: 2000 }])).toBe('card');
  });

  it('a refund is a cashier\'s when the signed-in person or the one switched in is a cashier (post_refund reads the session)', () => {
    expect(refundRole('cashier', 'manager')).toBe('cashier');
    expect(refundRole('manager', 'cashier')).toBe('cashier');
    expect(refundRole('owner', 'manager')).toBe('manager');
    expect(refundRole('manager', 'manager')).toBe('manager');
  });
});

describe('counting the drawer', () => {
  it('ignores empty and bad counts and totals by denomination', () => {
    const counted = countedObject({ 2000: '3', 25: '4', 100: '', 500: 'x' });
    expect(counted).toEqual({ 2000: 3, 25: 4 });
    expect(countedTotal(counted)).toBe(6100);
  });
});

describe('keyboard shortcuts', () => {
  it('Alt + a letter by its code, never with Ctrl or Meta', () => {
    expect(shortcutOf({ altKey: true, ctrlKey: false, metaKey: false, code: 'KeyD' })).toBe('discount');
    expect(shortcutOf({ altKey: true, ctrlKey: true, metaKey: false, code: 'KeyD' })).toBeNull();
    expect(shortcutOf({ altKey: false, ctrlKey: false, metaKey: false, code: 'KeyD' })).toBeNull();
  });
});

describe('outbox: sales and refunds in one queue, parked carts', () => {
  it('a refund of a sale made offline waits behind it and is sent after it, each once', async () => {
    const db = await openPosDb(`refund-${Math.random()}`);
    await enqueueSale(db, { id: 's1' });
    await enqueue(db, 'refund', { id: 'r1', sale_id: 's1' });
    expect([...(await waitingSaleIds(db))]).toEqual(['s1']);
    const calls: string[] = [];
    let online = false;
    const send = async (e: OutboxEntry): Promise<SendResult> => {
      if (!online) return { status: 'retry', error: 'offline' };
      calls.push(`${e.kind}:${e.id}`);
      return { status: 'done', result: null };
    };
    expect(await syncOutbox(db, send)).toMatchObject({ sent: 0, waiting: 2 });
    // The refund never overtakes the sale it refunds.
    expect((await pendingEntries(db)).map((e) => e.kind)).toEqual(['sale', 'refund']);
    online = true;
    expect(await syncOutbox(db, send)).toMatchObject({ sent: 2, waiting: 0 });
    expect(calls).toEqual(['sale:s1', 'refund:r1']);
    db.close();
  });

  it('a sign-in that expired (401) keeps every sale waiting; after signing in again they sync once', async () => {
    const db = await openPosDb(`expired-${Math.random()}`);
    for (const id of ['a', 'b']) await enqueueSale(db, { id });
    const posted = new Map<string, number>();
    let signedIn = false;
    // sendSale answers retry on 401 (pos-api.ts): here the same contract.
    const send = async (e: OutboxEntry): Promise<SendResult> => {
      if (!signedIn) return { status: 'retry', error: 'JWT expired' };
      posted.set(e.id, (posted.get(e.id) ?? 0) + 1);
      return { status: 'done', result: null };
    };
    expect(await syncOutbox(db, send)).toMatchObject({ sent: 0, waiting: 2, rejected: 0 });
    expect((await pendingEntries(db))[0]?.attempts).toBe(1);
    signedIn = true;
    expect(await syncOutbox(db, send)).toMatchObject({ sent: 2, waiting: 0 });
    expect([...posted.values()]).toEqual([1, 1]);
    db.close();
  });

  it('parks carts per register, survives a reopen, and a resume takes a cart once', async () => {
    const name = `park-${Math.random()}`;
    const db = await openPosDb(name);
    const first = await parkCart(db, 'reg-1', 'Tee', { entries: [1] });
    await parkCart(db, 'reg-2', 'Mug', { entries: [2] });
    db.close();
    const again = await openPosDb(name);
    expect((await listParked(again, 'reg-1')).map((p) => p.label)).toEqual(['Tee']);
    const [one, two] = await Promise.all([resumeParked(again, first.id), resumeParked(again, first.id)]);
    expect([one, two].filter(Boolean)).toHaveLength(1);
    expect(await listParked(again, 'reg-1')).toEqual([]);
    expect(await listParked(again, 'reg-2')).toHaveLength(1);
    again.close();
  });
});

describe('outbox in batches (post_sales)', () => {
  it('sends consecutive sales together, refunds alone and in order; a refusal in a batch stays, a retry stops the pass', async () => {
    const db = await openPosDb(`batch-${Math.random()}`);
    for (const id of ['s1', 's2', 's3']) await enqueueSale(db, { id });
    await enqueue(db, 'refund', { id: 'r1', sale_id: 's1' });
    for (const id of ['s4', 's5', 's6']) await enqueueSale(db, { id });
    const calls: string[] = [];
    const send = async (e: OutboxEntry): Promise<SendResult> => {
      calls.push(e.id);
      return { status: 'done', result: null };
    };
    const sendBatch = async (entries: OutboxEntry[]) => {
      calls.push(`[${entries.map((e) => e.id).join(',')}]`);
      return { status: 'done' as const, results: entries.map((e): SendResult => (
        e.id === 's2' ? { status: 'rejected', error: 'no access' } : e.id === 's5' ? { status: 'retry', error: 'deadlock' } : { status: 'done', result: null })) };
    };
    expect(await syncOutbox(db, send, undefined, { sendBatch, batchSize: 50 })).toEqual({ sent: 5, waiting: 2, rejected: 1 });
    expect(calls).toEqual(['[s1,s2,s3]', 'r1', '[s4,s5,s6]']);
    expect((await pendingEntries(db)).map((e) => [e.id, e.lastError])).toEqual([['s2', 'rejected: no access'], ['s5', 'deadlock']]);
    db.close();
  });

  it('a batch that fails as a whole is halved down to one sale, which then waits; without post_sales one at a time', async () => {
    const db = await openPosDb(`batch-fallback-${Math.random()}`);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await enqueueSale(db, { id });
    const sizes: number[] = [];
    const down = await syncOutbox(db, async () => ({ status: 'retry', error: 'offline' }), undefined,
      { sendBatch: async (entries) => { sizes.push(entries.length); return { status: 'retry', error: 'offline' }; }, batchSize: 4 });
    expect(down).toEqual({ sent: 0, waiting: 5, rejected: 0 });
    expect(sizes).toEqual([4, 2]);
    expect((await pendingEntries(db)).map((e) => e.attempts)).toEqual([1, 0, 0, 0, 0]);
    // Too long for the server as 4, fine as 2: everything goes.
    const ok = await syncOutbox(db, async () => ({ status: 'done', result: null }), undefined, {
      sendBatch: async (entries) => (entries.length > 2 ? { status: 'retry', error: 'timeout' }
        : { status: 'done', results: entries.map(() => ({ status: 'done', result: null }) as SendResult) }), batchSize: 4 });
    expect(ok).toEqual({ sent: 5, waiting: 0, rejected: 0 });
    for (const id of ['a', 'b', 'c']) await enqueueSale(db, { id });
    const single: string[] = [];
    const up = await syncOutbox(db, async (e) => { single.push(e.id); return { status: 'done', result: null }; }, undefined,
      { sendBatch: async () => ({ status: 'unsupported' }), batchSize: 2 });
    expect(up).toEqual({ sent: 3, waiting: 0, rejected: 0 });
    expect(single).toEqual(['a', 'b', 'c']);
    db.close();
  });

  it('a long outbox goes in calls of 50 (the most post_sales takes), in order, each sale once, reported as it leaves', async () => {
    const db = await openPosDb(`batch-long-${Math.random()}`);
    const ids = Array.from({ length: 120 }, (_, i) => `s${i}`);
    for (const id of ids) await enqueueSale(db, { id });
    const sizes: number[] = [];
    const sentIds: string[] = [];
    const result = await syncOutbox(db, async () => ({ status: 'retry', error: 'not expected' }), (e) => sentIds.push(e.id), {
      sendBatch: async (entries) => {
        sizes.push(entries.length);
        return { status: 'done', results: entries.map((): SendResult => ({ status: 'done', result: null })) };
      },
      batchSize: 500,
    });
    expect(result).toEqual({ sent: 120, waiting: 0, rejected: 0 });
    expect(sizes).toEqual([50, 50, 20]);
    expect(sentIds).toEqual(ids);
    expect(await pendingEntries(db)).toEqual([]);
    db.close();
  });
});
