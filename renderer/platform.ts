import type { Platform, SupabaseConfig } from '../shared/platform/platform';
import type { StorewiseBridge } from './bridge';

/** The links Supabase sends the desktop back to: they arrive as deep links handled by src/main/deep-link.ts. */
export const DESKTOP_REDIRECTS = {
  signIn: 'storewise://auth/callback',
  signUpConfirmed: 'storewise://auth/callback',
  passwordReset: 'storewise://auth/reset',
} as const;

/**
 * The desktop: sessions in the OS keychain through the bridge (never localStorage), PKCE because
 * redirects come back as deep links, and every outside link through the main process's allow list.
 */
export function createDesktopPlatform(bridge: StorewiseBridge, supabase: SupabaseConfig) {
  const openOutside = (url: string) => {
    void bridge.links.openExternal(url).then((opened) => {
      if (!opened) console.warn('Storewise refused to open a link outside the app:', url);
    });
  };
  return {
    kind: 'desktop',
    supabase,
    sessionStorage: {
      getItem: (key) => bridge.session.getItem(key),
      setItem: (key, value) => bridge.session.setItem(key, value),
      removeItem: (key) => bridge.session.removeItem(key),
    },
    authFlow: 'pkce',
    redirects: { ...DESKTOP_REDIRECTS },
    openOAuthUrl: openOutside,
    openExternal: openOutside,
    onAuthDeepLink: (listener) => bridge.auth.onDeepLink(listener),
    sessionPersistenceWarning: () => bridge.session.persistenceWarning(),
    machine: {
      status: () => bridge.machine.status(),
      // Fire and forget: a refused or failed report only means the update keeps waiting.
      reportRegister: (state) => void bridge.machine.reportRegister(state).catch(() => undefined),
      changeSettings: (change) => bridge.machine.changeSettings(change),
    },
    // Silent and network receipt printing through main (docs/adr/0132).
    printing: {
      print: (receipt, options) => bridge.printing.printReceipt(receipt, options),
      printSlip: (slip, options) => bridge.printing.printSlip(slip, options),
      listPrinters: () => bridge.printing.listPrinters(),
      getSettings: () => bridge.printing.getSettings(),
      saveSettings: (settings) => bridge.printing.saveSettings(settings),
    },
  } satisfies Platform;
}
