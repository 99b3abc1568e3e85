import type { PrintableSlip } from '../../ipc-contract';
import { EscPosBuilder } from './escpos';
import { moneyFormatter, twoColumns, wrap, type ReceiptJobOptions } from './receipt-escpos';

/**
 * A shift report (X, Z) or a refund slip as one ESC/POS job, laid out like the receipt (receipt-escpos.ts): store name,
 * title and date centred, then one row per figure (label left, amount or text right), the barcode when there is one,
 * the footer, cut, and the drawer kick when asked (a refund paid out in cash, where the device is set so).
 */
export function slipJob(slip: PrintableSlip, options: ReceiptJobOptions): Uint8Array {
  const width = options.columns;
  const money = moneyFormatter(slip.currency, options.locale);
  const date = new Date(slip.occurredAt).toLocaleString(options.locale, options.timeZone ? { timeZone: options.timeZone } : {});
  const job = new EscPosBuilder().init().align('center');

  if (slip.storeName) job.bold(true).size(2, 2).line(slip.storeName.slice(0, width / 2)).size(1, 1).bold(false);
  job.line().bold(true).line(slip.title.slice(0, width)).bold(false).line(date).align('left').line('-'.repeat(width));
  for (const row of slip.rows) {
    const value = row.amount !== null ? money(row.amount) : (row.text ?? '');
    if (row.bold) job.bold(true);
    job.line(twoColumns(row.label, value.slice(0, width), width));
    if (row.bold) job.bold(false);
  }
  job.line('-'.repeat(width));
  if (slip.barcode) job.line().align('center').barcode128(slip.barcode).line().align('left');
  for (const line of wrap(slip.footer ?? '', width)) job.line(line);
  job.feed(3).cut();
  if (options.openDrawer) job.drawerKick();
  return job.build();
}
