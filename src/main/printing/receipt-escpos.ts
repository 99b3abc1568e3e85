import type { PrintableReceipt } from '../../ipc-contract';
import { minorToPlain } from '../../../shared/lib/money';
import { EscPosBuilder, isPrintable } from './escpos';
import { dotsFor, logoRaster } from './escpos-raster';
import { taxLabel } from '../../../shared/lib/tax-label';

/**
 * The 80 mm receipt as one ESC/POS job: the same content as the on-screen receipt (shared/features/pos/receipt.tsx):
 * store header, number and date, lines, subtotal, discount, tax per rate, total, tenders, change, the receipt
 * number as a CODE128 barcode, footer, then cut and, for cash sales when the device is set so, the drawer kick.
 */
export interface ReceiptJobOptions {
  columns: 42 | 48;
  openDrawer: boolean;
  /** Locale and time zone for amounts and the date (the defaults of the machine otherwise). */
  locale?: string;
  timeZone?: string;
}

/** Amounts with the currency symbol when the printer's code page has it ($, €, £), else with the ISO code. */
export function moneyFormatter(currency: string, locale?: string): (minor: number) => string {
  const symbol = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const fmt = isPrintable(symbol.format(0)) ? symbol : new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'code' });
  // The exact decimal in the currency's digits (shared/lib/money.ts). Intl puts narrow no-break spaces in some
  // locales; the printer's code page has the plain one.
  return (minor) => fmt.format(minorToPlain(minor, currency) as `${number}`).replace(/[\u202f\u00a0]/g, ' ');
}

/** left and right on one line of `width` characters; the left side is cut when both do not fit. */
export function twoColumns(left: string, right: string, width: number): string {
  const room = Math.max(0, width - right.length - 1);
  const cut = left.length > room ? left.slice(0, room) : left;
  return cut + ' '.repeat(Math.max(1, width - cut.length - right.length)) + right;
}

/** Splits text into lines of at most `width` characters, at spaces where it can. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let rest = paragraph.trim();
    if (rest === '') continue;
    while (rest.length > width) {
      const space = rest.lastIndexOf(' ', width);
      const at = space > 0 ? space : width;
      lines.push(rest.slice(0, at).trimEnd());
      rest = rest.slice(at).trimStart();
    }
    lines.push(rest);
  }
  return lines;
}

const tenderLabel = (kind: string) => (kind === 'cash' ? 'Cash' : kind === 'card' ? 'Card' : 'Other');

export function receiptJob(receipt: PrintableReceipt, options: ReceiptJobOptions): Uint8Array {
  const width = options.columns;
  const money = moneyFormatter(receipt.currency, options.locale);
  const date = new Date(receipt.occurredAt).toLocaleString(options.locale, options.timeZone ? { timeZone: options.timeZone } : {});
  const job = new EscPosBuilder().init().align('center');

  if (receipt.logo) {
    const { width, height, gray } = receipt.logo;
    job.raw(logoRaster({ width, height, pixels: new Uint8Array(Buffer.from(gray, 'base64')) }, dotsFor(options.columns))).line();
  }
  if (receipt.storeName) job.bold(true).size(2, 2).line(receipt.storeName.slice(0, width / 2)).size(1, 1).bold(false);
  for (const line of wrap(receipt.header ?? '', width)) job.line(line);
  job.line().line(`Receipt ${receipt.receiptNumber}`).line(date).align('left').line('-'.repeat(width));

  for (const line of receipt.lines) {
    for (const part of wrap(line.name, width)) job.line(part);
    job.line(twoColumns(`  ${line.qty} x ${money(line.unitPrice)}`, money(line.total), width));
  }
  job.line('-'.repeat(width)).line(twoColumns('Subtotal', money(receipt.subtotal), width));
  if (receipt.discount > 0) job.line(twoColumns('Discount', `-${money(receipt.discount)}`, width));
  for (const t of receipt.taxByRate) job.line(twoColumns(taxLabel(t.rate, receipt.taxInclusive), money(t.tax), width));
  job.bold(true).line(twoColumns('TOTAL', money(receipt.total), width)).bold(false);
  // Cash rounding (ADR 0251): the exact total stays; what rounding added and what was paid follow it.
  if (receipt.cashRounding) {
    job.line(twoColumns('Cash rounding', money(receipt.cashRounding), width))
      .bold(true).line(twoColumns('PAID', money(receipt.total + receipt.cashRounding), width)).bold(false);
  }
  for (const t of receipt.tenders) {
    job.line(twoColumns(tenderLabel(t.kind), money(t.kind === 'cash' ? t.tendered : t.amount), width));
    // Foreign cash (ADR 0395): what was handed over in its currency and the rate it was taken at.
    if (t.foreign) {
      job.line(twoColumns(`  at ${t.foreign.rate}`, moneyFormatter(t.foreign.currency, options.locale)(t.foreign.tendered), width));
    }
    if (t.change > 0) job.line(twoColumns('Change', money(t.change), width));
  }

  job.line().align('center').barcode128(receipt.receiptNumber).line();
  if (receipt.pending) job.line('Saved offline: syncs when the connection returns');
  for (const line of wrap(receipt.footer ?? '', width)) job.line(line);
  job.feed(3).cut();
  if (options.openDrawer) job.drawerKick();
  return job.build();
}
