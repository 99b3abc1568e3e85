import type { Platform, PrintOutcome } from '../../../platform/platform';
import type { ReceiptData } from '../receipt';
import { logoForPrinting } from './logo-gray';
import { paidInCash, toPrintable } from './printable';

export type PrintResult = PrintOutcome | { ok: true; via: 'browser' };

/**
 * Prints one receipt the way the platform can: on the desktop through the bridge (silently to the chosen
 * printer, or raw ESC/POS to the network printer with the drawer kick for cash); in the browser with
 * window.print(), whose print CSS shows only the receipt (receipt.tsx). Never throws: the sale is already
 * in the outbox, so a printing problem is a message for the cashier, not a lost sale.
 */
export async function printReceipt(
  platform: Pick<Platform, 'printing'>,
  data: ReceiptData,
  browserPrint: () => void = () => window.print(),
): Promise<PrintResult> {
  if (!platform.printing) {
    browserPrint();
    return { ok: true, via: 'browser' };
  }
  try {
    // The logo on the ESC/POS slip (docs/adr/0321); a logo that cannot be loaded is left off, never the receipt.
    const logo = data.logoUrl ? await logoForPrinting(data.logoUrl) : null;
    return await platform.printing.print({ ...toPrintable(data), ...(logo ? { logo } : {}) }, { openDrawer: paidInCash(data) });
  } catch {
    return { ok: false, code: 'failed', message: 'The receipt could not be printed. The sale is saved; try again.' };
  }
}
