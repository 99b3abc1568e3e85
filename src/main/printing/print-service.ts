import type { PrintableReceipt, PrintableSlip, PrinterSettings, PrintOutcome } from '../../ipc-contract';
import { checkPrinterTarget, isAllowedPrinterSetting, type LookupAll, type PrinterTarget } from './lan-address';
import type { RawPrintRequest, RawPrintResult } from './network-printer';
import { receiptJob, type ReceiptJobOptions } from './receipt-escpos';
import { slipJob } from './slip-escpos';

/**
 * What the bridge's printing calls do, with Electron and the network passed in (tested with fakes and a fake TCP
 * printer). The renderer sends a structured receipt; the printer, its address and the drawer wiring come from this
 * device's settings, never from the print call (docs/adr/0132).
 */

export interface SystemPrinter {
  name: string;
  displayName: string;
}

export interface PrintServiceDeps {
  loadSettings(): Promise<PrinterSettings>;
  saveSettings(settings: PrinterSettings): Promise<void>;
  /** The printer of storewise.config.json (trusted as configured), or null. */
  managed: PrinterTarget | null;
  lookup: LookupAll;
  sendRaw(request: RawPrintRequest): Promise<RawPrintResult>;
  /** webContents.getPrintersAsync of the register's window. */
  listPrinters(): Promise<SystemPrinter[]>;
  /** webContents.print of the register's window (its print CSS shows only the receipt). */
  printPage(options: { silent: boolean; deviceName?: string }): Promise<{ ok: boolean; reason: string }>;
  log?: (message: string) => void;
}

export function createPrintService(deps: PrintServiceDeps) {
  const log = deps.log ?? ((message: string) => console.warn(message));

  /** The ESC/POS bytes of one document (a receipt, a report or refund slip) for this device's printer. */
  type Job = (options: ReceiptJobOptions) => Uint8Array;

  async function printNetwork(job: Job, settings: PrinterSettings, openDrawer: boolean): Promise<PrintOutcome> {
    const target = settings.network ?? deps.managed;
    if (!target) return { ok: false, code: 'no-printer', message: 'No network receipt printer is set up on this computer.' };
    const label = `${target.host}:${target.port}`;
    const checked = await checkPrinterTarget(target, deps.managed, deps.lookup);
    if (!checked.ok) {
      log(`Storewise: refused to print to ${label}`);
      return { ok: false, code: 'host-not-allowed', message: checked.message };
    }
    const data = job({ columns: settings.columns, openDrawer: openDrawer && settings.openDrawerOnCash });
    const result = await deps.sendRaw({ address: checked.address, port: target.port, label, data });
    if (!result.ok) log(`Storewise: receipt printer ${label}: ${result.code}`);
    return result.ok ? { ok: true, via: 'network' } : result;
  }

  async function printSystem(settings: PrinterSettings): Promise<PrintOutcome> {
    const printers = await deps.listPrinters();
    const chosen = printers.find((p) => p.name === settings.deviceName);
    if (!chosen) {
      const which = settings.deviceName ? `The printer ${settings.deviceName}` : 'The chosen printer';
      return { ok: false, code: 'no-printer', message: `${which} is not installed on this computer. Choose another in the printer settings.` };
    }
    const result = await deps.printPage({ silent: true, deviceName: chosen.name });
    return result.ok ? { ok: true, via: 'system' } : { ok: false, code: 'failed', message: `Printing to ${chosen.displayName} failed: ${result.reason}.` };
  }

  async function printOnce(job: Job, options: { openDrawer: boolean }): Promise<PrintOutcome> {
    const settings = await deps.loadSettings();
    if (settings.mode === 'network') return printNetwork(job, settings, options.openDrawer);
    if (settings.mode === 'system') return printSystem(settings);
    const result = await deps.printPage({ silent: false });
    // Cancelling the dialog is the cashier's choice, not an error worth a red message.
    if (!result.ok && result.reason !== 'cancelled') return { ok: false, code: 'failed', message: `Printing failed: ${result.reason}.` };
    return { ok: true, via: 'dialog' };
  }

  // One job at a time: two quick clicks must not interleave two receipts on one printer.
  let queue: Promise<unknown> = Promise.resolve();

  function enqueue(job: Job, options: { openDrawer: boolean }): Promise<PrintOutcome> {
    const done = queue.then(() => printOnce(job, options)).catch((error: unknown): PrintOutcome => {
      log(`Storewise: printing failed: ${error instanceof Error ? error.name : 'error'}`);
      return { ok: false, code: 'failed', message: 'Printing failed. Try again.' };
    });
    queue = done;
    return done;
  }

  return {
    print(receipt: PrintableReceipt, options: { openDrawer: boolean }): Promise<PrintOutcome> {
      return enqueue((job) => receiptJob(receipt, job), options);
    },
    /** A shift report or refund slip: ESC/POS on a network printer; otherwise the page (its print CSS shows the slip). */
    printSlip(slip: PrintableSlip, options: { openDrawer: boolean }): Promise<PrintOutcome> {
      return enqueue((job) => slipJob(slip, job), options);
    },
    async listPrinters(): Promise<SystemPrinter[]> {
      return deps.listPrinters();
    },
    getSettings: () => deps.loadSettings(),
    async saveSettings(settings: PrinterSettings): Promise<{ ok: true } | { ok: false; message: string }> {
      if (settings.mode === 'network' && !settings.network && !deps.managed) return { ok: false, message: 'Enter the network printer\'s address.' };
      if (settings.network) {
        const refused = isAllowedPrinterSetting(settings.network, deps.managed);
        if (refused) return { ok: false, message: refused };
      }
      if (settings.mode === 'system' && !settings.deviceName) return { ok: false, message: 'Choose a printer.' };
      await deps.saveSettings(settings);
      return { ok: true };
    },
  };
}

export type PrintService = ReturnType<typeof createPrintService>;
