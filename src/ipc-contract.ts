/**
 * The one contract between the Electron main process, the preload and the renderer: channel names,
 * payload schemas and the shapes that cross the bridge. Main validates every payload against these
 * schemas (a compromised renderer can send anything); the preload uses the same names so they cannot drift.
 * Types only from shared/: this file is compiled into main, preload (sandboxed, bundled) and renderer.
 */
import { z } from 'zod';
import type { AuthDeepLink, PrintableReceipt, PrintableSlip, PrinterSettings, SupabaseConfig } from '../shared/platform/platform';

export const IPC = {
  sessionGet: 'storewise:session:get',
  sessionSet: 'storewise:session:set',
  sessionRemove: 'storewise:session:remove',
  openExternal: 'storewise:links:open-external',
  appVersion: 'storewise:app:version',
  appConfig: 'storewise:app:config',
  persistenceWarning: 'storewise:session:persistence-warning',
  /** main -> renderer event: an accepted storewise:// auth link. */
  authDeepLink: 'storewise:auth:deep-link',
  /** Print one receipt (a structured receipt, never bytes or a host: main takes the printer from its settings). */
  printReceipt: 'storewise:printing:print-receipt',
  /** Print a shift report or refund slip (structured, like a receipt). */
  printSlip: 'storewise:printing:print-slip',
  printersList: 'storewise:printing:list',
  printerSettingsGet: 'storewise:printing:settings-get',
  printerSettingsSet: 'storewise:printing:settings-set',
  /** This store PC: version, channel, device id, machine policy problem, update state (docs/adr/0270-0272). */
  machineStatus: 'storewise:machine:status',
  /** The register's shift and outbox, for the update guard. */
  registerState: 'storewise:machine:register-state',
  /** The user's own update channel and switch (refused by main where IT set or locked them). */
  machineSettingsSet: 'storewise:machine:settings-set',
} as const;

/** supabase-js storage keys look like `sb-<project>-auth-token` (and `...-code-verifier` during PKCE). */
export const sessionKeySchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, 'storage keys are plain identifiers');

/** A serialized supabase-js session is a few KB; anything far larger is not a session. */
export const sessionValueSchema = z.string().max(64 * 1024);

export const sessionGetArgs = z.tuple([sessionKeySchema]);
export const sessionSetArgs = z.tuple([sessionKeySchema, sessionValueSchema]);
export const sessionRemoveArgs = z.tuple([sessionKeySchema]);
export const openExternalArgs = z.tuple([z.string().min(1).max(4096)]);
export const noArgs = z.tuple([]);

export const supabaseConfigSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  anonKey: z.string().min(1).max(4096),
}) satisfies z.ZodType<SupabaseConfig>;

// ---------------------------------------------------------------------------------------------------------------
// Receipt printing (docs/adr/0132). Text fields are bounded; the ESC/POS encoder also turns any control
// character into a space, so no field can carry a printer command.
const printText = (max: number) => z.string().max(max);
/** The largest logo the register sends (an 80 mm roll is 576 dots wide; half as tall at most). */
export const LOGO_MAX_WIDTH = 576;
export const LOGO_MAX_HEIGHT = 288;
/** The bytes a (valid, padded) base64 text decodes to, without decoding it (no Buffer in the preload). */
const base64Length = (text: string) => (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
const minor = z.number().int().min(-1e13).max(1e13);

export const printableReceiptSchema = z.strictObject({
  // Printed as a CODE128 (code set B) barcode: printable ASCII only.
  receiptNumber: z.string().regex(/^[\x20-\x7e]{1,40}$/),
  occurredAt: z.iso.datetime({ offset: true }),
  storeName: printText(200).nullable(),
  header: printText(500).nullable(),
  footer: printText(500).nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  lines: z.array(z.object({ name: printText(200), qty: z.number().finite().min(-1e6).max(1e6), unitPrice: minor, total: minor }))
    .max(500),
  taxInclusive: z.boolean().optional(),
  subtotal: minor,
  discount: minor,
  tax: minor,
  total: minor,
  cashRounding: z.number().int().min(-100000).max(100000).optional(),
  taxByRate: z.array(z.object({ rate: z.number().finite().min(0).max(100), tax: minor })).max(20),
  // foreign: cash in another currency (ADR 0395), printed under its tender with the rate it was taken at.
  tenders: z.array(z.object({ kind: z.enum(['cash', 'card', 'other']), amount: minor, tendered: minor, change: minor,
    foreign: z.strictObject({ currency: z.string().regex(/^[A-Z]{3}$/), rate: z.string().regex(/^\d{1,9}(\.\d{1,10})?$/),
      tendered: minor }).optional() })).max(10),
  pending: z.boolean(),
  // The logo's pixels, bounded (576 x 288 grey bytes, 162 kB) and of exactly width x height bytes.
  logo: z.strictObject({ width: z.number().int().min(1).max(LOGO_MAX_WIDTH), height: z.number().int().min(1).max(LOGO_MAX_HEIGHT),
    gray: z.base64().max(Math.ceil((LOGO_MAX_WIDTH * LOGO_MAX_HEIGHT) / 3) * 4) })
    .refine((logo) => base64Length(logo.gray) === logo.width * logo.height, 'the logo has width x height pixels')
    .nullable().optional(),
}) satisfies z.ZodType<PrintableReceipt>;

/** A host name (RFC 1123 labels) or an IPv4 / IPv6 literal; main checks it is on the LAN before connecting. */
export const printerHostSchema = z.string().min(1).max(253).refine(
  (host) => z.ipv4().safeParse(host).success || z.ipv6().safeParse(host).success
    || /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(host),
  'a host name or an IP address',
);

export const printerSettingsSchema = z.strictObject({
  mode: z.enum(['dialog', 'system', 'network']),
  deviceName: z.string().min(1).max(256).nullable(),
  network: z.object({ host: printerHostSchema, port: z.number().int().min(1).max(65535) }).nullable(),
  openDrawerOnCash: z.boolean(),
  columns: z.union([z.literal(42), z.literal(48)]),
}) satisfies z.ZodType<PrinterSettings>;

export const printReceiptArgs = z.tuple([printableReceiptSchema, z.strictObject({ openDrawer: z.boolean() })]);

export const printableSlipSchema = z.strictObject({
  title: printText(60),
  storeName: printText(200).nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  occurredAt: z.iso.datetime({ offset: true }),
  rows: z.array(z.strictObject({ label: printText(80), amount: minor.nullable(), text: printText(200).nullable(), bold: z.boolean() }))
    .max(100),
  barcode: z.string().regex(/^[\x20-\x7e]{1,40}$/).nullable(),
  footer: printText(500).nullable(),
}) satisfies z.ZodType<PrintableSlip>;
export const printSlipArgs = z.tuple([printableSlipSchema, z.strictObject({ openDrawer: z.boolean() })]);
export const printerSettingsSetArgs = z.tuple([printerSettingsSchema]);

export const registerStateArgs = z.tuple([z.strictObject({
  shiftOpen: z.boolean(),
  unsentSales: z.number().int().min(0).max(1_000_000),
})]);

/** What a user may choose for this computer from the app (the proxy is IT's, in the machine policy). */
export const machineSettingsSetArgs = z.tuple([z.strictObject({
  updateChannel: z.enum(['stable', 'beta']).optional(),
  autoUpdate: z.boolean().optional(),
})]);

/** What main answers on appConfig: the Supabase project, or why there is none (shown to the user). */
export type AppConfigResult = { ok: true; config: SupabaseConfig } | { ok: false; message: string };

export type { AuthDeepLink, PrintableReceipt, PrintableSlip, PrinterSettings };
export type { StorePcStatus } from '../shared/platform/platform';
export type { PrintOutcome } from '../shared/platform/platform';

/**
 * The slice of Electron's ipcRenderer the preload uses. Declared here instead of importing Electron's
 * types so the renderer's type-check (DOM libs only) never pulls in Node and Electron declarations.
 */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}
