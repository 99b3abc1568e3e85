import type { DesktopSettings } from '../machine/policy-schema';
import type { SettingSource } from '../machine/desktop-settings';
import { updateFeedFrom, type GenericFeed } from '../update-feed';
import { createInstallGuard, type GuardPhase, type InstallGuard } from './install-guard';

/**
 * Automatic updates (docs/adr/0272) with electron-updater: the channel the settings give (stable reads
 * latest*.yml, beta reads beta*.yml), staged rollouts as electron-updater implements them (a release's
 * `stagingPercentage` in the yml: each install has a random id in userData and takes the update only when the
 * id falls within the percentage), download in the background, and the install guard deciding when a
 * downloaded version may restart the app. Off when the settings say so (machine policy or user), in
 * development, and without an HTTPS feed.
 */

/** The slice of electron-updater's AppUpdater used here (its NsisUpdater, MacUpdater... satisfy it). */
export interface AppUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  setFeedURL(options: GenericFeed): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-not-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type UpdateStatus =
  | { state: 'off'; reason: string }
  | { state: 'checking' }
  | { state: 'up-to-date'; latest: string | null }
  | { state: 'downloading'; version: string }
  | { state: 'error'; message: string }
  | GuardPhase;

export interface UpdateController {
  /** Null when updates are off. */
  guard: InstallGuard | null;
  status(): UpdateStatus;
  check(): Promise<void>;
  stop(): void;
}

export const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;

export function startUpdates(options: {
  packaged: boolean;
  hasUpdateConfig: boolean;
  feedUrl: string | undefined;
  settings: Pick<DesktopSettings, 'autoUpdate' | 'updateChannel'>;
  autoUpdateSource: SettingSource;
  updater: AppUpdaterLike;
  intervalMs?: number;
  graceMs?: number;
  setInterval?: (run: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  log?: (message: string) => void;
  onStatus?: (status: UpdateStatus) => void;
}): UpdateController {
  const log = options.log ?? ((message: string) => console.warn(message));
  let current: UpdateStatus = { state: 'off', reason: 'not started' };
  const set = (next: UpdateStatus) => {
    current = next;
    options.onStatus?.(next);
  };
  const off = (reason: string): UpdateController => {
    log(`Storewise: updates are off: ${reason}`);
    set({ state: 'off', reason });
    return { guard: null, status: () => current, check: async () => undefined, stop: () => undefined };
  };

  if (!options.settings.autoUpdate) {
    return off(options.autoUpdateSource === 'policy' ? 'turned off by the machine policy'
      : options.autoUpdateSource === 'user' ? 'turned off in this computer\'s settings'
      : 'a per-machine installation is updated by IT');
  }
  if (!options.packaged || !options.hasUpdateConfig) return off('this build has no update feed (development or unpublished)');
  const feed = updateFeedFrom(options.feedUrl, options.settings.updateChannel === 'beta' ? 'beta' : 'latest');
  if (!feed.ok) return off(feed.reason);

  const { updater } = options;
  updater.autoDownload = true;
  // Quitting is always a safe moment: nothing is being sold once the window is gone.
  updater.autoInstallOnAppQuit = true;
  // Going from beta back to stable waits for stable to pass the beta version instead of installing an older one.
  updater.allowDowngrade = false;
  updater.setFeedURL(feed.feed);

  const guard = createInstallGuard({
    install: () => updater.quitAndInstall(true, true),
    graceMs: options.graceMs,
    setTimer: options.setTimer,
    clearTimer: options.clearTimer,
    log,
    onChange: (phase) => set(phase),
  });
  updater.on('update-available', (info) => set({ state: 'downloading', version: info.version }));
  updater.on('update-not-available', (info) => set({ state: 'up-to-date', latest: info.version ?? null }));
  updater.on('update-downloaded', (info) => guard.updateDownloaded(info.version));
  updater.on('error', (error) => {
    log(`Storewise: update failed: ${error.message}`);
    set({ state: 'error', message: error.message });
  });

  let checking: Promise<void> | null = null;
  const check = (): Promise<void> => {
    // Once a version is downloaded and waiting, another check would only download it again.
    if (checking || guard.phase().phase !== 'idle') return checking ?? Promise.resolve();
    set({ state: 'checking' });
    checking = updater.checkForUpdates().then(
      () => undefined,
      (error: unknown) => {
        log(`Storewise: update check failed: ${error instanceof Error ? error.message : String(error)}`);
        set({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    ).finally(() => {
      checking = null;
    });
    return checking;
  };

  const every = (options.setInterval ?? ((run, ms) => setInterval(run, ms)))(() => void check(), options.intervalMs ?? CHECK_EVERY_MS);
  void check();
  return {
    guard,
    status: () => current,
    check,
    stop: () => (options.clearInterval ?? ((handle) => clearInterval(handle as NodeJS.Timeout)))(every),
  };
}
