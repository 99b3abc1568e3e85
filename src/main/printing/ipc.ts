import type { z } from 'zod';
import { IPC, noArgs, printerSettingsSetArgs, printReceiptArgs, printSlipArgs } from '../../ipc-contract';
import type { PrintService } from './print-service';

/** ipc-handlers.ts's guarded registration: sender checked (the app's top frame), arguments parsed by the schema. */
export type GuardedHandle = <S extends z.ZodType<unknown[]>>(channel: string, schema: S, run: (args: z.infer<S>) => unknown) => void;

/** The printing calls of the bridge: print one structured receipt or slip (report, refund), list printers, read and save this device's settings. */
export function registerPrintingHandlers(handle: GuardedHandle, service: PrintService): void {
  handle(IPC.printReceipt, printReceiptArgs, ([receipt, options]) => service.print(receipt, options));
  handle(IPC.printSlip, printSlipArgs, ([slip, options]) => service.printSlip(slip, options));
  handle(IPC.printersList, noArgs, () => service.listPrinters());
  handle(IPC.printerSettingsGet, noArgs, () => service.getSettings());
  handle(IPC.printerSettingsSet, printerSettingsSetArgs, ([settings]) => service.saveSettings(settings));
}
