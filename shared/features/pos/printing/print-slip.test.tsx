import { describe, expect, it, vi } from 'vitest';
import type { PrintableSlip, PrintOutcome } from '../../../platform/platform';
import type { RefundableSale, ShiftFigures } from '../pos-api';
import { printSlip, refundSlip, shiftReportSlip } from './print-slip';

const figures: ShiftFigures = {
  shift_id: 's', register_id: 'r', opened_at: '2026-11-22T08:00:00.000Z', closed_at: '2026-11-22T20:00:00.000Z',
  opening_float: 10000, sales_count: 12, sales_total: 54321, discount_total: 300, tax_total: 4100, flagged_count: 1,
  tenders: { cash: 20000, card: 34321 }, refunds_count: 1, refunds_total: 1525, cash_in: 0, cash_out: 2000,
  expected_cash: 26475, counted: { 2000: 13 }, counted_total: 26000, difference: -475,
};
const row = (slip: PrintableSlip, label: string) => slip.rows.find((r) => r.label === label);

describe('shift report and refund slips (docs/adr/0150)', () => {
  it('a Z report carries the count and the difference, an X report neither', () => {
    const z = shiftReportSlip(figures, 'Z', 'USD', 'Fresh Corner', 'Front');
    expect(z.title).toBe('Z report');
    expect(z.occurredAt).toBe(figures.closed_at);
    expect(row(z, 'Cash expected')).toMatchObject({ amount: 26475, bold: true });
    expect(row(z, 'Cash counted')?.amount).toBe(26000);
    expect(row(z, 'Difference')).toMatchObject({ amount: -475, bold: true });
    expect(row(z, 'Paid by Card')?.amount).toBe(34321);
    expect(row(z, 'Flagged for review')?.text).toBe('1');
    const x = shiftReportSlip({ ...figures, closed_at: null, counted: null, counted_total: null, difference: null }, 'X', 'USD', null, null,
      new Date('2026-11-22T12:00:00.000Z'));
    expect(x.occurredAt).toBe('2026-11-22T12:00:00.000Z');
    expect(row(x, 'Difference')).toBeUndefined();
    expect(row(x, 'Cash counted')).toBeUndefined();
  });

  it('a Z report prints the foreign cash per currency in its own currency (ADR 0395)', () => {
    const z = shiftReportSlip({ ...figures, foreign_cash: [{ currency: 'JPY', tenders: 2, expected: 5000, paid: 3350, change: 0,
      counted: 4000, difference: -1000 }] }, 'Z', 'USD', null, null);
    expect(['JPY expected', 'JPY counted', 'JPY difference'].map((l) => row(z, l)?.text)).toEqual(['2 · ¥5,000', '¥4,000', '-¥1,000']);
    expect(row(z, 'JPY expected')?.amount).toBeNull();
  });

  it('a report says the cash rounding of the sales and of the cash refunds when there was any (ADR 0251)', () => {
    const z = shiftReportSlip({ ...figures, cash_rounding: -1, refunds_cash_rounding: 2 }, 'Z', 'CAD', null, null);
    expect(z.rows.map((r) => r.label).slice(8, 13)).toEqual(['Paid by Card', 'Cash rounding', 'Refunds', 'Refunds total',
      'Refunds cash rounding']);
    expect([row(z, 'Cash rounding')?.amount, row(z, 'Refunds cash rounding')?.amount]).toEqual([-1, 2]);
    const exact = shiftReportSlip({ ...figures, cash_rounding: 0, refunds_cash_rounding: 0 }, 'Z', 'USD', null, null);
    expect([row(exact, 'Cash rounding'), row(exact, 'Refunds cash rounding')]).toEqual([undefined, undefined]);
  });

  it('a refund slip lists what went back, the total paid out and the original receipt as its barcode', () => {
    const sale = { id: 'sale', receipt_number: 'DT1-000042', occurred_at: '', total: 3049, store_id: 'st', pending: false,
      lines: [{ line_no: 1, description: 'Tee M', qty: 2, refunded: 0 }] } as unknown as RefundableSale;
    const slip = refundSlip({ sale, tenderKind: 'cash', reason: ' Too small ', total: 1525,
      lines: [{ line_no: 1, qty: 1, disposition: 'damaged', amount: 1525 }] }, 'USD', 'Fresh Corner', true);
    expect(slip.barcode).toBe('DT1-000042');
    expect(slip.rows.map((r) => [r.label, r.amount ?? r.text])).toEqual([
      ['Original receipt', 'DT1-000042'], ['1 x Tee M (damaged)', -1525], ['Refund total', -1525], ['Paid back by Cash', 1525],
      ['Reason', 'Too small'],
    ]);
    expect(slip.footer).toMatch(/offline/);
  });

  it('prints through the bridge with only the slip visible, or through window.print in the browser; never throws', async () => {
    const slip = shiftReportSlip(figures, 'Z', 'USD', null, null);
    const during: boolean[] = [];
    const bridge = vi.fn(async (): Promise<PrintOutcome> => {
      during.push(document.body.classList.contains('pos-printing-report'));
      return { ok: true, via: 'network' };
    });
    const desktop = { printing: { printSlip: bridge, print: vi.fn(), listPrinters: vi.fn(), getSettings: vi.fn(), saveSettings: vi.fn() } };
    expect(await printSlip(desktop, slip, { openDrawer: true })).toEqual({ ok: true, via: 'network' });
    expect(bridge).toHaveBeenCalledWith(slip, { openDrawer: true });
    expect(during).toEqual([true]);
    expect(document.body.classList.contains('pos-printing-report')).toBe(false);

    const browserPrint = vi.fn();
    expect(await printSlip({}, slip, { openDrawer: false }, browserPrint)).toEqual({ ok: true, via: 'browser' });
    expect(browserPrint).toHaveBeenCalledTimes(1);

    bridge.mockRejectedValueOnce(new Error('bridge gone'));
    expect(await printSlip(desktop, slip, { openDrawer: false })).toMatchObject({ ok: false, code: 'failed' });
    expect(document.body.classList.contains('pos-printing-report')).toBe(false);
  });
});
