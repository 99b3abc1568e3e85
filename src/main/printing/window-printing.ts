import type { WebContents } from 'electron';
import type { SystemPrinter } from './print-service';

/**
 * The print service's two Electron calls on the register's window: its printers (getPrintersAsync) and printing
 * the page, whose print CSS shows only the 80 mm receipt (shared/features/pos/receipt.tsx). Silent with a
 * deviceName when the device chose a printer; the system dialog otherwise.
 */
type Contents = Pick<WebContents, 'print' | 'getPrintersAsync'>;

export async function listWindowPrinters(contents: Contents | null): Promise<SystemPrinter[]> {
  if (!contents) return [];
  return (await contents.getPrintersAsync()).map((printer) => ({ name: printer.name, displayName: printer.displayName || printer.name }));
}

export function printWindow(contents: Contents | null, options: { silent: boolean; deviceName?: string }): Promise<{ ok: boolean; reason: string }> {
  if (!contents) return Promise.resolve({ ok: false, reason: 'the register window is closed' });
  return new Promise((resolve) => {
    contents.print(
      {
        silent: options.silent,
        ...(options.deviceName ? { deviceName: options.deviceName } : {}),
        printBackground: false,
        margins: { marginType: 'none' },
      },
      (success, failureReason) => resolve({ ok: success, reason: success ? '' : failureReason || 'unknown error' }),
    );
  });
}
