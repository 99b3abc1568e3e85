import { describe, expect, it } from 'vitest';
import { EscPosBuilder, encodeText, isPrintable } from './escpos';
import { printableReceiptSchema, type PrintableReceipt } from '../../ipc-contract';
import { moneyFormatter, receiptJob, twoColumns, wrap } from './receipt-escpos';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('ESC/POS text', () => {
  it('encodes Windows-1252 and turns every control character into a space', () => {
    expect(encodeText('Café €5')).toEqual([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]);
    // ESC p (drawer kick), GS V (cut), LF and a C1 control inside a product name print as spaces.
    expect(encodeText('a\x1bp\x00\x19b\x1dV\nc\u009bd')).toEqual([...'a p  b V c d'].map((ch) => ch.charCodeAt(0)));
  });

  it('prints accented letters outside the code page without their accent, and "?" for the rest', () => {
    expect(encodeText('Gőzź')).toEqual([0x47, 0x6f, 0x7a, 0x7a]);
    expect(encodeText('Łó')).toEqual([0x3f, 0xf3]);
    expect(encodeText('茶')).toEqual([0x3f]);
    expect(isPrintable('$1.00')).toBe(true);
    expect(isPrintable('₹1.00')).toBe(false);
  });

  it('uses the ISO code when the currency symbol is not in the code page', () => {
    expect(moneyFormatter('USD', 'en-US')(1524)).toBe('$15.24');
    expect(moneyFormatter('EUR', 'en-US')(1524)).toBe('€15.24');
    expect(moneyFormatter('INR', 'en-US')(1524)).toMatch(/^INR\s15\.24$/);
    expect(moneyFormatter('JPY', 'en-US')(1524)).toBe('¥1,524');
  });
});

describe('ESC/POS commands', () => {
  it('CODE128 barcode: height, width, text below, then GS k 73 n {B data', () => {
    const job = new EscPosBuilder().barcode128('DT1-000042').build();
    const data = [...'DT1-000042'].map((ch) => ch.charCodeAt(0));
    expect(job).toEqual(bytes(0x1d, 0x68, 80, 0x1d, 0x77, 2, 0x1d, 0x48, 2, 0x1d, 0x66, 0, 0x1d, 0x6b, 73, 12, 0x7b, 0x42, ...data));
  });

  it('refuses barcode data outside printable ASCII instead of printing a wrong code', () => {
    expect(() => new EscPosBuilder().barcode128('DT1\x1b')).toThrow(/printable ASCII/);
    expect(() => new EscPosBuilder().barcode128('')).toThrow(/printable ASCII/);
  });

  it('init selects the code page; cut and drawer kick are GS V and ESC p', () => {
    expect(new EscPosBuilder().init().cut().drawerKick().build()).toEqual(
      bytes(0x1b, 0x40, 0x1b, 0x74, 16, 0x1d, 0x56, 66, 3, 0x1b, 0x70, 0, 25, 250));
  });
});

describe('receipt layout', () => {
  it('puts two columns on one line and cuts the left one when they do not fit', () => {
    expect(twoColumns('Total', '$1.00', 16)).toBe('Total      $1.00');
    expect(twoColumns('A very long product name', '$1.00', 16)).toBe('A very lon $1.00');
  });

  it('wraps at spaces within the width', () => {
    expect(wrap('Thank you for shopping with us', 12)).toEqual(['Thank you', 'for shopping', 'with us']);
    expect(wrap('abcdefghijklmnop', 6)).toEqual(['abcdef', 'ghijkl', 'mnop']);
    expect(wrap('', 10)).toEqual([]);
  });
});

describe('the receipt job', () => {
  const receipt: PrintableReceipt = {
    receiptNumber: 'DT1-000042', occurredAt: '2026-12-01T15:00:00.000Z', storeName: 'Zurich', header: null, footer: null,
    currency: 'CHF', lines: [{ name: 'Apples 1.234 kg', qty: 1, unitPrice: 492, total: 492 }], subtotal: 492, discount: 0,
    tax: 0, total: 492, taxByRate: [], tenders: [{ kind: 'cash', amount: 490, tendered: 500, change: 10 }], pending: false,
  };
  const text = (r: PrintableReceipt) => Buffer.from(receiptJob(r, { columns: 42, openDrawer: false, locale: 'en-US' })).toString('latin1');

  it('prints the cash rounding and what was paid under the exact total (ADR 0251)', () => {
    const printed = text({ ...receipt, cashRounding: -2 });
    expect(printed).toMatch(/TOTAL {2,}CHF 4\.92/);
    expect(printed).toMatch(/Cash rounding {2,}-CHF 0\.02/);
    expect(printed).toMatch(/PAID {2,}CHF 4\.90/);
    expect(printedOrder(printed, ['TOTAL', 'Cash rounding', 'PAID', 'Change'])).toBe(true);
  });

  it('prints a foreign cash tender with its currency and rate (ADR 0395)', () => {
    const printed = text({ ...receipt, currency: 'USD', tenders: [{ kind: 'cash', amount: 1400, tendered: 2165, change: 765,
      foreign: { currency: 'EUR', rate: '1.0825', tendered: 2000 } }] });
    expect(printed).toMatch(/Cash {2,}\$21\.65/);
    expect(printed).toMatch(/at 1\.0825 {2,}(\u0080|EUR ?)20\.00/);
    expect(printedOrder(printed, ['Cash', 'at 1.0825', 'Change'])).toBe(true);
    expect(printableReceiptSchema.safeParse({ ...receipt, tenders: [{ kind: 'cash', amount: 1, tendered: 1, change: 0,
      foreign: { currency: 'EUR', rate: '1e3', tendered: 1 } }] }).success).toBe(false);
  });

  it('prints no rounding line when there is none', () => {
    expect(text(receipt)).not.toContain('Cash rounding');
    expect(printableReceiptSchema.safeParse({ ...receipt, cashRounding: 0.5 }).success).toBe(false);
  });
});

function printedOrder(text: string, parts: string[]): boolean {
  const at = parts.map((p) => text.indexOf(p));
  return at.every((n, i) => n >= 0 && (i === 0 || n > (at[i - 1] ?? -1)));
}
