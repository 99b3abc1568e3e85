import { describe, expect, it } from 'vitest';
import { receiptEmail } from './receipt-email';

// The params request_receipt_email queues (private.receipt_email_params), for a pharmacy sale paid in euros.
const params = {
  receipt_number: 'DT1-000042', store_name: 'Downtown', currency: 'USD', occurred_local: '2026-12-02 10:15',
  tax_inclusive: true, subtotal: 2800, discount_total: 0, tax_total: 0, total: 2800, change_total: 765,
  lines: [
    { description: 'Amoxicillin 500 mg', qty: 3, unit_price: 500, line_total: 1500, amount: 1500,
      serial: null, lots: [{ lot_number: 'A12', expires_on: '2026-12-20', qty: 2 }, { lot_number: 'B07', expires_on: null, qty: 1 }] },
    { description: 'Nova X phone', qty: 1, unit_price: 1300, line_total: 1300, amount: 1300, serial: '356938035643809', lots: [] },
  ],
  taxes: [],
  tenders: [{ kind: 'cash', amount: 2800, tendered: 3565, change: 765, currency: 'EUR', rate: 1.0825, foreign_tendered: 3300 }],
};

describe('the receipt email', () => {
  it('names each line\'s lots and serial and the foreign cash handed over, as the printed receipt does', () => {
    const mail = receiptEmail('ken@example.com', params);
    expect(mail).not.toBeNull();
    const text = mail?.text.split('\n') ?? [];
    const at = (start: string) => text.findIndex((line) => line.startsWith(start));
    expect(text[at('Amoxicillin') + 1]).toBe('  Lot A12 exp. 2026-12-20 x 2');
    expect(text[at('Amoxicillin') + 2]).toBe('  Lot B07 x 1');
    expect(text[at('Nova X phone') + 1]).toBe('  Serial 356938035643809');
    expect(text).toContain('Cash in EUR: €33.00 at 1.0825 USD per EUR: $35.65');
    expect(text).toContain('Change: $7.65');
    expect(mail?.html).toContain('Lot A12 exp. 2026-12-20 x 2');
    expect(mail?.html).toContain('Cash in EUR: €33.00 at 1.0825 USD per EUR');
  });

  it('reads rows queued before the lots and foreign cash were sent (no serial, lots or currency) as before', () => {
    const old = { ...params, lines: params.lines.map(({ serial: _s, lots: _l, ...line }) => line),
      tenders: [{ kind: 'cash', amount: 2800, tendered: 3000, change: 200 }], change_total: 200 };
    const text = receiptEmail('ken@example.com', old)?.text.split('\n') ?? [];
    expect(text.filter((line) => line.startsWith('  '))).toEqual([]);
    expect(text).toContain('Cash: $30.00');
  });

  it('a foreign tender with a malformed currency is not a receipt: the row is skipped', () => {
    const bad = { ...params, tenders: [{ ...params.tenders[0], currency: 'euro' }] };
    expect(receiptEmail('ken@example.com', bad)).toBeNull();
  });
});
