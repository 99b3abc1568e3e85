/**
 * The one contract between the shared product and the place it runs (browser or Electron).
 * web/ and renderer/ each implement it once (`satisfies Platform`); tests pass a fake.
 * Nothing in shared/ may know where it runs except through this interface.
 */

/** Storage that supabase-js persists its session in (its `auth.storage` option). */
export interface SessionStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/** An auth link that reached the app from outside (desktop deep link). */
export type AuthDeepLink =
  | { kind: 'oauth-callback'; code: string }
  | { kind: 'recovery'; params: Record<string, string> };

export interface SupabaseConfig {
  url: string;
  anonKey: string;
}

/** A receipt as a printer takes it: text and figures in minor units; the printing side formats (docs/adr/0132). */
export interface PrintableReceipt {
  receiptNumber: string;
  /** ISO date-time of the sale. */
  occurredAt: string;
  storeName: string | null;
  header: string | null;
  footer: string | null;
  currency: string;
  /** total: qty x unit price as the catalog prices it (tax included when taxInclusive): the lines add up to subtotal. */
  lines: { name: string; qty: number; unitPrice: number; total: number }[];
  /** The store's prices include tax: the tax lines are shown as included, not added to the subtotal. */
  taxInclusive?: boolean;
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  /** What cash rounding added to the total (negative: took off), when it did (issue 29, ADR 0251). */
  cashRounding?: number;
  taxByRate: { rate: number; tax: number }[];
  /** foreign: cash in another currency, what was handed over in its minor units and the rate (ADR 0395). */
  tenders: { kind: string; amount: number; tendered: number; change: number;
    foreign?: { currency: string; rate: string; tendered: number } }[];
  /** Saved offline, not synced yet (printed as a note). */
  pending: boolean;
  /**
   * The business logo as a grayscale picture (one byte a pixel, 0 black, base64), made by the register from the
   * logo; the ESC/POS side fits it to the printer's dots and dithers it (docs/adr/0321).
   */
  logo?: { width: number; height: number; gray: string } | null;
}

/**
 * A slip that is not a sale's receipt (docs/adr/0150): a shift's X or Z report, a refund. A title, rows of a label
 * and either an amount in minor units (formatted by the printing side, like the receipt's) or a short text, and an
 * optional CODE128 barcode (a refund prints the original receipt's number).
 */
export interface PrintableSlip {
  title: string;
  storeName: string | null;
  currency: string;
  /** ISO date-time the slip is about (the report's moment, the refund's). */
  occurredAt: string;
  rows: { label: string; amount: number | null; text: string | null; bold: boolean }[];
  barcode: string | null;
  footer: string | null;
}

export type PrintErrorCode = 'refused' | 'timeout' | 'unreachable' | 'host-not-allowed' | 'no-printer' | 'out-of-paper' | 'failed';
export type PrintOutcome = { ok: true; via: 'network' | 'system' | 'dialog' } | { ok: false; code: PrintErrorCode; message: string };

/** How this device prints receipts; kept per device by the desktop app. */
export interface PrinterSettings {
  /** dialog: the system print dialog; system: silently to deviceName; network: raw ESC/POS over TCP. */
  mode: 'dialog' | 'system' | 'network';
  deviceName: string | null;
  network: { host: string; port: number } | null;
  /** Open the cash drawer (wired to the network printer) after a sale paid in cash. */
  openDrawerOnCash: boolean;
  /** Characters per line of the network printer (48 on most 80 mm printers, 42 on some). */
  columns: 42 | 48;
}

/** Receipt printing where the platform has more than the browser's window.print() (the desktop). */
export interface ReceiptPrinting {
  print(receipt: PrintableReceipt, options: { openDrawer: boolean }): Promise<PrintOutcome>;
  /** A report or refund slip the same way (the drawer opens for a refund paid out in cash, where set so). */
  printSlip?(slip: PrintableSlip, options: { openDrawer: boolean }): Promise<PrintOutcome>;
  listPrinters(): Promise<{ name: string; displayName: string }[]>;
  getSettings(): Promise<PrinterSettings>;
  saveSettings(settings: PrinterSettings): Promise<{ ok: true } | { ok: false; message: string }>;
}

export interface Platform {
  kind: 'web' | 'desktop';
  /** Where the Supabase project lives. */
  supabase: SupabaseConfig;
  /** Session persistence for supabase-js (web: localStorage; desktop: OS keychain through the bridge). */
  sessionStorage: SessionStorage;
  /** supabase-js flow type: the desktop must use PKCE (its redirects come back through a deep link). */
  authFlow: 'implicit' | 'pkce';
  /** Redirect targets put into auth emails and OAuth requests. */
  redirects: {
    /** After email confirmation or OAuth sign-in (web: origin + '/'; desktop: storewise://auth/callback). */
    signIn: string;
    /** After sign-up on /signup (web: origin + '/#pricing'). */
    signUpConfirmed: string;
    /** The password-reset link target (web: origin + '/reset-password'; desktop: storewise://auth/reset). */
    passwordReset: string;
  };
  /**
   * Starts an OAuth sign-in given the provider URL built by supabase-js.
   * Web: navigates the window. Desktop: opens the system browser; the code comes back as a deep link.
   */
  openOAuthUrl(url: string): void;
  /** Opens an http(s) link outside the app (web: new tab; desktop: system browser). */
  openExternal(url: string): void;
  /** Subscribes to auth links that arrive from outside; returns the unsubscribe function. */
  onAuthDeepLink(listener: (link: AuthDeepLink) => void): () => void;
  /** Shown once when the platform cannot remember the sign-in (desktop without a keychain). */
  sessionPersistenceWarning?: () => Promise<string | null>;
  /** Silent and network receipt printing (desktop); absent on the web, where the browser prints. */
  printing?: ReceiptPrinting;
  /**
   * The web app's service worker (docs/adr/0200), which keeps the app shell and the register usable offline.
   * Started by the dashboard, never by the public pages; absent on the desktop (its build is on disk, app://).
   */
  offlineShell?: OfflineShell;
  /** The store PC's own state (desktop only, docs/adr/0270-0272): version, channel, machine policy, updates. */
  machine?: StorePc;
}

/** What a store PC knows about itself; no personal data (the device id is a random id the app made). */
export interface StorePcStatus {
  version: string;
  channel: 'stable' | 'beta';
  platform: 'win32' | 'darwin' | 'linux';
  arch: 'x64' | 'arm64' | 'ia32';
  deviceId: string;
  autoUpdate: boolean;
  /** The machine policy could not be applied in full (shown to the user; IT fixes the file). */
  policyProblem: string | null;
  /** Settings IT set or locked. */
  locked: ('updateChannel' | 'autoUpdate' | 'proxy')[];
  /** The update, in a sentence for the settings screen ("Up to date", "1.5.0 installs after the shift closes"). */
  update: string;
}

export interface StorePc {
  status(): Promise<StorePcStatus>;
  /** The register's state, so an update never restarts an open shift or unsent sales (main decides). */
  reportRegister(state: { shiftOpen: boolean; unsentSales: number }): void;
  /** The user's own update settings; main refuses what IT set or locked. */
  changeSettings(change: { updateChannel?: 'stable' | 'beta'; autoUpdate?: boolean }): Promise<{ ok: boolean; message: string }>;
}

export interface OfflineShell {
  /**
   * Registers the worker (once). `onUpdateReady` hears when a newer build has installed in the background and
   * waits for this tab to let it take over; `apply` switches to it (the page reloads). Returns an unsubscribe.
   */
  start(onUpdateReady: (apply: () => void) => void): () => void;
}
