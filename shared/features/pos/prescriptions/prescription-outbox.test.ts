import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { enqueueSale, openPosDb, syncOutbox } from '../outbox';
import { saleLinePayload } from '../sale-line-payload';

/**
 * ADR 0390: a prescription recorded at the register rides in the sale's outbox payload, so a sale made offline
 * reaches post_sale with it (the database refuses or flags a prescription-only line without one).
 */
describe('a prescription in the outbox', () => {
  it('is kept in the queued sale and sent as post_sale reads it', async () => {
    const db = await openPosDb(`rx-${Math.random()}`);
    const line = saleLinePayload({ item: { variantId: 'v-oxy', name: 'Oxycodone 5 mg', sku: 'OXY', barcodes: [], price: 2400, taxRate: 0,
      unit: 'each' }, qty: 1, discount: 0, prescription: { prescriber: ' Dr. Ana Ruiz', number: 'RX-1 ', writtenOn: '2026-11-30',
      refillsAuthorised: 2, refillsRemaining: 1 } });
    await enqueueSale(db, { id: 's1', offline: true, lines: [line, saleLinePayload({ item: { variantId: 'v-para', name: 'Paracetamol',
      sku: 'PARA', barcodes: [], price: 399, taxRate: 0, unit: 'each' }, qty: 2, discount: 0 })] });
    const sent: unknown[] = [];
    const result = await syncOutbox(db, async (entry) => {
      sent.push(entry.payload);
      return { status: 'done', result: null };
    });
    expect(result.sent).toBe(1);
    expect(sent).toEqual([expect.objectContaining({ lines: [
      { variant_id: 'v-oxy', qty: 1, unit_price: 2400, discount: 0, prescription: { prescriber: 'Dr. Ana Ruiz', number: 'RX-1',
        written_on: '2026-11-30', refills_authorised: 2, refills_remaining: 1 } },
      { variant_id: 'v-para', qty: 2, unit_price: 399, discount: 0 },
    ] })]);
  });
});
