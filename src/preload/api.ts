import {
  IPC,
  type AppConfigResult,
  type AuthDeepLink,
  type PrintableReceipt,
  type PrintableSlip,
  type PrinterSettings,
  type PrintOutcome,
  type RendererIpc,
  type StorePcStatus,
} from '../ipc-contract';

/**
 * The whole surface the renderer gets: small task-level functions, never ipcRenderer itself, so a
 * compromised page can only ask for these few things (and main still validates each request).
 * Built from an injected ipc so the renderer can derive its type (StorewiseBridge) from this function.
 */
export function createStorewiseApi(ipc: RendererIpc) {
  // Deep links can arrive before React subscribes (cold start from a link): keep them until someone listens.
  const listeners = new Set<(link: AuthDeepLink) => void>();
  const early: AuthDeepLink[] = [];
  ipc.on(IPC.authDeepLink, (_event, link) => {
    const typed = link as AuthDeepLink; // main only sends links its parser produced
    if (listeners.size === 0) early.push(typed);
    else for (const listener of listeners) listener(typed);
  });

  return {
    session: {
      getItem: (key: string) => ipc.invoke(IPC.sessionGet, key) as Promise<string | null>,
      setItem: (key: string, value: string) => ipc.invoke(IPC.sessionSet, key, value) as Promise<void>,
      removeItem: (key: string) => ipc.invoke(IPC.sessionRemove, key) as Promise<void>,
      /** The keychain is unavailable: the one-time notice, or null. */
      persistenceWarning: () => ipc.invoke(IPC.persistenceWarning) as Promise<string | null>,
    },
    links: {
      /** Resolves false when main refused the URL (not an allowed http(s) origin). */
      openExternal: (url: string) => ipc.invoke(IPC.openExternal, url) as Promise<boolean>,
    },
    auth: {
      onDeepLink(listener: (link: AuthDeepLink) => void): () => void {
        listeners.add(listener);
        for (const link of early.splice(0)) listener(link);
        return () => void listeners.delete(listener);
      },
    },
    app: {
      version: () => ipc.invoke(IPC.appVersion) as Promise<string>,
      config: () => ipc.invoke(IPC.appConfig) as Promise<AppConfigResult>,
    },
    /** This store PC (docs/adr/0270-0272): its status, and the register's state for the update guard. */
    machine: {
      status: () => ipc.invoke(IPC.machineStatus) as Promise<StorePcStatus>,
      reportRegister: (state: { shiftOpen: boolean; unsentSales: number }) =>
        ipc.invoke(IPC.registerState, state) as Promise<boolean>,
      changeSettings: (change: { updateChannel?: 'stable' | 'beta'; autoUpdate?: boolean }) =>
        ipc.invoke(IPC.machineSettingsSet, change) as Promise<{ ok: boolean; message: string }>,
    },
    /** Receipt printing: main picks the printer from this device's settings (docs/adr/0132). */
    printing: {
      printReceipt: (receipt: PrintableReceipt, options: { openDrawer: boolean }) =>
        ipc.invoke(IPC.printReceipt, receipt, options) as Promise<PrintOutcome>,
      printSlip: (slip: PrintableSlip, options: { openDrawer: boolean }) =>
        ipc.invoke(IPC.printSlip, slip, options) as Promise<PrintOutcome>,
      listPrinters: () => ipc.invoke(IPC.printersList) as Promise<{ name: string; displayName: string }[]>,
      getSettings: () => ipc.invoke(IPC.printerSettingsGet) as Promise<PrinterSettings>,
      saveSettings: (settings: PrinterSettings) =>
        ipc.invoke(IPC.printerSettingsSet, settings) as Promise<{ ok: true } | { ok: false; message: string }>,
    },
  };
}
