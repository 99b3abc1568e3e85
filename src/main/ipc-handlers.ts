import type { z } from 'zod';
import {
  IPC,
  noArgs,
  openExternalArgs,
  sessionGetArgs,
  sessionRemoveArgs,
  sessionSetArgs,
  type AppConfigResult,
} from '../ipc-contract';
import type { SessionVault } from './session-vault';
import { registerPrintingHandlers } from './printing/ipc';
import type { PrintService } from './printing/print-service';
import { registerStorePcHandlers, type StorePc } from './machine/store-pc';

/**
 * Every renderer -> main call lands here. Two checks before any work: the message comes from the app's
 * own top-level frame (not an iframe, not a page we navigated away to), and its arguments match the
 * contract's zod schema. Anything else is refused with an error the renderer sees as a rejected promise.
 */

/** The slice of IpcMainInvokeEvent we rely on (Electron's event satisfies it). */
export interface InvokeEventLike {
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
}

export interface IpcDependencies {
  isAppUrl(url: string): boolean;
  isAllowedExternal(url: string): boolean;
  /** shell.openExternal */
  openExternal(url: string): Promise<void>;
  vault: SessionVault;
  appVersion: string;
  appConfig: AppConfigResult;
  /** Non-null when sessions are kept in memory only; answered once, then null. */
  persistenceWarning: string | null;
  /** Receipt printing (src/main/printing); absent in tests that do not need it. */
  printing?: PrintService;
  /** The store PC's status and update guard (src/main/machine); absent in tests that do not need it. */
  storePc?: Pick<StorePc, 'status' | 'reportRegister' | 'changeSettings'>;
  log?: (message: string) => void;
}

export class IpcRefusedError extends Error {
  override name = 'IpcRefusedError';
}

export function registerIpcHandlers(ipcMain: IpcMainLike, deps: IpcDependencies): void {
  const log = deps.log ?? ((message: string) => console.warn(message));
  let warning = deps.persistenceWarning;

  function handle<S extends z.ZodType<unknown[]>>(channel: string, schema: S, run: (args: z.infer<S>) => unknown) {
    ipcMain.handle(channel, (event, ...args) => {
      const frame = event.senderFrame;
      if (!frame || frame.parent || !deps.isAppUrl(frame.url)) {
        log(`Storewise: refused ${channel} from ${frame?.url ?? 'a destroyed frame'}`);
        throw new IpcRefusedError(`${channel}: sender not allowed`);
      }
      const parsed = schema.safeParse(args);
      if (!parsed.success) {
        log(`Storewise: refused ${channel}: malformed payload`);
        throw new IpcRefusedError(`${channel}: invalid payload`);
      }
      return run(parsed.data);
    });
  }

  handle(IPC.sessionGet, sessionGetArgs, ([key]) => deps.vault.getItem(key));
  handle(IPC.sessionSet, sessionSetArgs, ([key, value]) => deps.vault.setItem(key, value));
  handle(IPC.sessionRemove, sessionRemoveArgs, ([key]) => deps.vault.removeItem(key));
  handle(IPC.openExternal, openExternalArgs, async ([url]) => {
    if (!deps.isAllowedExternal(url)) {
      log(`Storewise: refused to open ${url.slice(0, 200)} outside the app`);
      return false;
    }
    await deps.openExternal(url);
    return true;
  });
  handle(IPC.appVersion, noArgs, () => deps.appVersion);
  handle(IPC.appConfig, noArgs, () => deps.appConfig);
  handle(IPC.persistenceWarning, noArgs, () => {
    const once = warning;
    warning = null;
    return once;
  });
  if (deps.printing) registerPrintingHandlers(handle, deps.printing);
  if (deps.storePc) registerStorePcHandlers(handle, deps.storePc);
}
