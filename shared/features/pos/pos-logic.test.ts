import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addItem, cartTotals, lineFigures, parseMinor, receiptLine, type CatalogItem } from './cart';
import { createScanDetector } from './scanner';
import { enqueueSale, openPosDb, pendingCount, syncOutbox, type OutboxEntry, type SendResult } from './outbox';

const tee: CatalogItem = { variantId: 'v1', name: 'Tee', sku: 'TEE', barcodes: ['4006381333931'], price: 1400, taxRate: 8.875, unit: 'each' };
const apples: CatalogItem = { variantId: 'v2', name: 'Apples', sku: 'APL', barcodes: [], price: 399, taxRate: 8.875, unit: 'kg' };

describe('cart arithmetic (the same as post_sale)', () => {
  it('rounds tax per line half away from zero, on top or included', () => {
    expect(lineFigures({ item: tee, qty: 2, discount: 0 }, false)).toEqual({ gross: 2800, net: 2800, tax: 249, total: 3049 });
    expect(lineFigures({ item: apples, qty: 0.5, discount: 0 }, false)).toEqual({ gross: 200, net: 200, tax: 18, total: 218 });
    expect(lineFigures({ item: { ...tee, taxRate: 20 }, qty: 1, discount: 0 }, true)).toEqual({ gross: 1400, net: 1400, tax: 233, total: 1400 });
    expect(lineFigures({ item: tee, qty: 2, discount: 560 }, false).total).toBe(2439);
  });

  it('adds the same item twice as one line and totals the cart', () => {
    const lines = addItem(addItem(addItem([], tee), tee), apples, 0.5);
    expect(lines).toHaveLength(2);
    expect(cartTotals(lines, false)).toMatchObject({ subtotal: 3000, tax: 267, total: 3267 });
  });

  it('a receipt adds up with a pocket calculator: lines = subtotal, subtotal - discount (+ tax on top) = total', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ price: fc.integer({ min: 0, max: 100_000 }), rate: fc.constantFrom(0, 5, 8.875, 20),
        qty: fc.integer({ min: 1, max: 5000 }), weighed: fc.boolean(), pct: fc.integer({ min: 0, max: 50 }) }), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      (specs, taxInclusive) => {
        const lines = specs.map((s, i) => {
          const qty = s.weighed ? s.qty / 1000 : s.qty;
          const item = { ...tee, variantId: `v${i}`, name: `Item ${i}`, price: s.price, taxRate: s.rate };
          return { item, qty, discount: Math.floor((Math.round(s.price * qty) * s.pct) / 100) };
        });
        const totals = cartTotals(lines, taxInclusive);
        const printed = lines.map((l) => receiptLine(l, taxInclusive));
        expect(printed.reduce((sum, l) => sum + l.total, 0)).toBe(totals.subtotal);
        expect(totals.subtotal - totals.discount + (taxInclusive ? 0 : totals.tax)).toBe(totals.total);
      }), { seed: 25, numRuns: 200 });
  });

  it('parses amounts typed at the till into minor units', () => {
    expect(parseMinor('50', 'USD')).toBe(5000);
    expect(parseMinor('12.5', 'USD')).toBe(1250);
    expect(parseMinor('1000', 'JPY')).toBe(1000);
    expect(parseMinor('abc', 'USD')).toBeNull();
    expect(parseMinor('12,5', 'EUR')).toBe(1250);
    expect(parseMinor('12.505', 'USD')).toBeNull(); // refused, no longer cut to 12.50
    expect(parseMinor('1.255', 'KWD')).toBe(1255);
  });
});

describe('scanner detection by keystroke timing', () => {
  it('fast digits then Enter are a scan; the same typed slowly are not', () => {
    const scans: string[] = [];
    const detector = createScanDetector((code) => scans.push(code));
    [...'4006381333931'].forEach((k, i) => detector.key(k, 1000 + i * 5));
    expect(detector.key('Enter', 1070)).toBe(true);
    [...'4006381333931'].forEach((k, i) => detector.key(k, 5000 + i * 200));
    expect(detector.key('Enter', 8000)).toBe(false);
    expect(scans).toEqual(['4006381333931']);
  });
});

describe('offline outbox', () => {
  it('keeps sales in order until the server has them, sends each exactly once, and stops at the first retry', async () => {
    const db = await openPosDb(`test-${Math.random()}`);
    for (const id of ['a', 'b', 'c']) await enqueueSale(db, { id });
    const server = new Map<string, number>();
    let online = false;
    const send = async (entry: OutboxEntry): Promise<SendResult> => {
      if (!online) return { status: 'retry', error: 'offline' };
      server.set(entry.id, (server.get(entry.id) ?? 0) + 1);
      return { status: 'done', result: entry.id };
    };
    expect(await syncOutbox(db, send)).toEqual({ sent: 0, waiting: 3, rejected: 0 });
    online = true;
    const order: string[] = [];
    expect(await syncOutbox(db, send, (entry) => order.push(entry.id))).toEqual({ sent: 3, waiting: 0, rejected: 0 });
    expect(order).toEqual(['a', 'b', 'c']);
    expect(await syncOutbox(db, send)).toEqual({ sent: 0, waiting: 0, rejected: 0 });
    expect([...server.values()]).toEqual([1, 1, 1]);
    db.close();
  });

  it('survives reopening the database (a reload)', async () => {
    const name = `reload-${Math.random()}`;
    const first = await openPosDb(name);
    await enqueueSale(first, { id: 'x' });
    first.close();
    const again = await openPosDb(name);
    expect(await pendingCount(again)).toBe(1);
    again.close();
  });

  it('a rejected sale stays for a manager and does not block the next', async () => {
    const db = await openPosDb(`reject-${Math.random()}`);
    await enqueueSale(db, { id: 'bad' });
    await enqueueSale(db, { id: 'good' });
    const result = await syncOutbox(db, async (entry) => (entry.id === 'bad' ? { status: 'rejected', error: 'no access' } : { status: 'done', result: 1 }));
    expect(result).toEqual({ sent: 1, waiting: 1, rejected: 1 });
    db.close();
  });
});
