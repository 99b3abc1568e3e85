import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { printerHostSchema, printerSettingsSchema, type PrinterSettings } from '../../ipc-contract';
import type { PrinterTarget } from './lan-address';

/**
 * This device's receipt printer: printer-settings.json in the app's userData folder (per device, like
 * window-state.json), written by the register's printer settings through the bridge. IT may also name the
 * shop's network printer in storewise.config.json ({"receiptPrinter": {"host": "...", "port": 9100}}): that
 * printer is trusted as configured and is the default until someone chooses otherwise (docs/adr/0132).
 */

export const PRINTER_SETTINGS_FILE = 'printer-settings.json';

export function defaultPrinterSettings(managed: PrinterTarget | null): PrinterSettings {
  return { mode: managed ? 'network' : 'dialog', deviceName: null, network: managed, openDrawerOnCash: true, columns: 48 };
}

type Read = (file: string) => Promise<string>;
const readUtf8: Read = (file) => readFile(file, 'utf8');

export async function loadPrinterSettings(file: string, managed: PrinterTarget | null, read: Read = readUtf8): Promise<PrinterSettings> {
  try {
    const parsed = printerSettingsSchema.safeParse(JSON.parse(await read(file)));
    if (parsed.success) return parsed.data;
  } catch {
    // absent or unreadable: the defaults
  }
  return defaultPrinterSettings(managed);
}

/** Written to a temporary file then renamed, so a crash mid-write never leaves half a file. */
export async function savePrinterSettings(file: string, settings: PrinterSettings): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

const managedSchema = z.object({
  receiptPrinter: z.object({ host: printerHostSchema, port: z.number().int().min(1).max(65535).default(9100) }),
});

/** The receiptPrinter of the first storewise.config.json found (the same places as app-config.ts), or null. */
export async function loadManagedPrinter(candidates: readonly string[], read: Read = readUtf8): Promise<PrinterTarget | null> {
  for (const file of candidates) {
    let raw: string;
    try {
      raw = await read(file);
    } catch {
      continue;
    }
    try {
      const parsed = managedSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data.receiptPrinter : null;
    } catch {
      return null; // app-config.ts reports the broken file
    }
  }
  return null;
}
