import type { Platform, PrintableSlip } from '../../../platform/platform';
import type { ShiftFigures } from '../pos-api';
import type { RefundRequest } from '../refund-panel';
import type { PrintResult } from './print-receipt';
import { printReport } from './print-report';
import { foreignRows } from '../foreign-drawer';

/**
 * Shift reports and refund slips as the printer takes them (docs/adr/0150): the same figures as on screen, amounts
 * in minor units for the printing side to format. On the desktop they go through the bridge like a receipt (ESC/POS
 * to a network printer, else the page with only the slip visible); in the browser through window.print().
 */
const tenderName = (kind: string) => (kind === 'cash' ? 'Cash' : kind === 'card' ? 'Card' : kind === 'other' ? 'Other' : kind);
const amount = (label: string, value: number | null | undefined, bold = false) =>
  ({ label, amount: value === null || value === undefined ? null : Math.round(Number(value)), text: value === null || value === undefined ? '-' : null, bold });
const text = (label: string, value: string, bold = false) => ({ label, amount: null, text: value, bold });
const clip = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : null);

/** An X report (the open shift so far) or a Z report (the closed shift, with the cash counted and the difference). */
export function shiftReportSlip(figures: ShiftFigures, kind: 'X' | 'Z', currency: string, storeName: string | null,
  registerName: string | null, now: Date = new Date()): PrintableSlip {
  const rows = [
    ...(registerName ? [text('Register', registerName.slice(0, 200))] : []),
    text('Opened', new Date(figures.opened_at).toLocaleString()),
    ...(figures.closed_at ? [text('Closed', new Date(figures.closed_at).toLocaleString())] : []),
    amount('Starting float', figures.opening_float),
    text('Sales', String(figures.sales_count)),
    amount('Sales total', figures.sales_total, true),
    amount('Discounts', figures.discount_total),
    amount('Tax', figures.tax_total),
    ...Object.entries(figures.tenders).map(([k, v]) => amount(`Paid by ${tenderName(k)}`.slice(0, 80), v)),
    // Cash rounding (ADR 0251), when there was any: the cash above is already rounded.
    ...(figures.cash_rounding ? [amount('Cash rounding', figures.cash_rounding)] : []),
    text('Refunds', String(figures.refunds_count)),
    amount('Refunds total', figures.refunds_total),
    ...(figures.refunds_cash_rounding ? [amount('Refunds cash rounding', figures.refunds_cash_rounding)] : []),
    amount('Cash in', figures.cash_in),
    amount('Cash out', figures.cash_out),
    amount('Cash expected', figures.expected_cash, true),
    ...(kind === 'Z' ? [amount('Cash counted', figures.counted_total), amount('Difference', figures.difference, true)] : []),
    // Foreign cash per currency (ADR 0395): amounts in their own currency, so as text.
    ...foreignRows(figures, kind).map(([label, value]) => text(label, value)),
    ...(figures.flagged_count > 0 ? [text('Flagged for review', String(figures.flagged_count))] : []),
  ];
  return {
    title: `${kind} report`, storeName: clip(storeName, 200), currency,
    occurredAt: (kind === 'Z' && figures.closed_at ? new Date(figures.closed_at) : now).toISOString(),
    rows: rows.slice(0, 100), barcode: null, footer: null,
  };
}

/** A refund slip: each line refunded, the total paid back and to which tender; the original receipt as a barcode. */
export function refundSlip(refund: Pick<RefundRequest, 'sale' | 'lines' | 'tenderKind' | 'reason' | 'total'>, currency: string,
  storeName: string | null, pending: boolean, now: Date = new Date()): PrintableSlip {
  const rows = [
    text('Original receipt', refund.sale.receipt_number.slice(0, 200)),
    ...refund.lines.slice(0, 90).map((l) => {
      const line = refund.sale.lines.find((s) => s.line_no === l.line_no);
      const name = (line?.description ?? `Line ${l.line_no}`).slice(0, 60);
      return amount(`${l.qty} x ${name}${l.disposition === 'damaged' ? ' (damaged)' : ''}`.slice(0, 80), -l.amount);
    }),
    amount('Refund total', -refund.total, true),
    amount(`Paid back by ${tenderName(refund.tenderKind)}`, refund.total),
    ...(refund.reason.trim() ? [text('Reason', refund.reason.trim().slice(0, 200))] : []),
  ];
  const barcode = /^[\x20-\x7e]{1,40}$/.test(refund.sale.receipt_number) ? refund.sale.receipt_number : null;
  return {
    title: 'Refund', storeName: clip(storeName, 200), currency, occurredAt: now.toISOString(), rows, barcode,
    footer: pending ? 'Saved offline: syncs when the connection returns' : null,
  };
}

/**
 * Prints a slip the way the platform can; never throws (the report or refund is already recorded). While the
 * desktop prints the page (system printer or dialog) the body carries the class under which only the slip shows.
 */
export async function printSlip(
  platform: Pick<Platform, 'printing'>,
  slip: PrintableSlip,
  options: { openDrawer: boolean },
  browserPrint: () => void = () => window.print(),
): Promise<PrintResult> {
  const viaBridge = platform.printing?.printSlip?.bind(platform.printing);
  if (!viaBridge) {
    printReport(browserPrint);
    return { ok: true, via: 'browser' };
  }
  document.body.classList.add('pos-printing-report');
  try {
    return await viaBridge(slip, options);
  } catch {
    return { ok: false, code: 'failed', message: 'The slip could not be printed. Try again.' };
  } finally {
    document.body.classList.remove('pos-printing-report');
  }
}
