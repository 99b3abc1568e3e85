import { describe, expect, it } from 'vitest';
import { formatReceiptLot } from '../../lib/receipt-lot';
import { toPrintable } from './printing/printable';
import type { ReceiptData } from './receipt';
import { awaitsLots, withLots } from './receipt-lots';
import { lotKey, noPacks } from './shop-packs';

/** ADR 0403: the receipt lists the lots the server picked once the sale has posted; offline it names none. */
const receipt: ReceiptData = {
  receiptNumber: 'DT1-000001', occurredAt: '2026-12-04T10:00:00Z', saleId: 'sale-1', header: null, footer: null,
  currency: 'USD', subtotal: 1500, discount: 0, tax: 0, total: 1500, taxByRate: [], tenders: [], pending: false,
  awaitLots: true,
  lines: [
    { name: 'Yogurt', qty: 5, unitPrice: 100, total: 500 },
    { name: 'Drops', qty: 1, unitPrice: 500, total: 500, detail: 'Lot D1 exp. 2027-01-01', lotNamed: true },
    { name: 'Soap', qty: 1, unitPrice: 500, total: 500 },
  ],
};
const soon = { lot_number: 'SOON', expires_on: '2026-12-10', qty: 3 };
const late = { lot_number: 'LATE', expires_on: null, qty: 2 };

describe('receipt lots', () => {
  it('formats a lot with its expiry and quantity', () => {
    expect(formatReceiptLot(soon)).toBe('Lot SOON exp. 2026-12-10 x 3');
    expect(formatReceiptLot(late)).toBe('Lot LATE x 2');
  });

  it('waits for lots only when a line of a lot-tracked item held here names no lot', () => {
    const packs = { ...noPacks, lots: { [lotKey('v-yogurt', 'SOON')]: 'l1', [lotKey('v-drops', 'D1')]: 'l2' } };
    expect(awaitsLots(packs, [{ variantId: 'v-yogurt', lotNamed: false }])).toBe(true);
    expect(awaitsLots(packs, [{ variantId: 'v-drops', lotNamed: true }, { variantId: 'v-soap', lotNamed: false }])).toBe(false);
    // A variant id that only starts like another's is not taken for it.
    expect(awaitsLots(packs, [{ variantId: 'v-yog', lotNamed: false }])).toBe(false);
    expect(awaitsLots(noPacks, [{ variantId: 'v-yogurt', lotNamed: false }])).toBe(false);
  });

  it('puts the server\'s lots on the lines that named none, stops waiting, and prints them', () => {
    const filled = withLots(receipt, [[soon, late], [{ lot_number: 'D1', expires_on: '2027-01-01', qty: 1 }], []]);
    expect(filled.awaitLots).toBe(false);
    expect(filled.lines.map((l) => l.lots?.map((x) => x.lot_number) ?? null)).toEqual([['SOON', 'LATE'], null, null]);
    expect(toPrintable(filled).lines.map((l) => l.name)).toEqual([
      'Yogurt Lot SOON exp. 2026-12-10 x 3 Lot LATE x 2', 'Drops Lot D1 exp. 2027-01-01', 'Soap']);
  });
});
