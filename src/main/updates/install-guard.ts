/**
 * When a downloaded update may restart the app (docs/adr/0272). Never while a shift is open or the register's
 * outbox holds sales that have not reached the server: a restart there would interrupt a sale or leave the
 * day's takings unsent. The update waits for close of day (the register reports no open shift and an empty
 * outbox) or for the app to quit, when electron-updater installs it anyway (autoInstallOnAppQuit).
 *
 * Until the register has reported at all, the state is unknown and counts as busy: a PC whose register
 * screen was never opened installs on quit only.
 */

export interface RegisterState {
  shiftOpen: boolean;
  /** Sales (and other entries) in the outbox not yet accepted by the server. */
  unsentSales: number;
}

export type GuardPhase =
  | { phase: 'idle' }
  | { phase: 'waiting'; version: string; reason: string }
  | { phase: 'scheduled'; version: string }
  | { phase: 'installing'; version: string };

export interface InstallGuardOptions {
  /** Restarts into the downloaded update (autoUpdater.quitAndInstall). */
  install(): void;
  /** Time between close of day and the restart, so a Z report can print; re-armed if the register gets busy. */
  graceMs?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  log?: (message: string) => void;
  onChange?: (phase: GuardPhase) => void;
}

export interface InstallGuard {
  /** What the register says now (from the renderer, through IPC). */
  report(state: RegisterState): void;
  /** electron-updater finished downloading this version. */
  updateDownloaded(version: string): void;
  phase(): GuardPhase;
}

export function busyReason(state: RegisterState | null): string | null {
  if (state === null) return 'the register has not reported its shift yet';
  if (state.shiftOpen) return 'a shift is open';
  if (state.unsentSales > 0) return `${state.unsentSales} sale${state.unsentSales === 1 ? '' : 's'} not sent yet`;
  return null;
}

export function createInstallGuard(options: InstallGuardOptions): InstallGuard {
  const graceMs = options.graceMs ?? 60_000;
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as NodeJS.Timeout));
  const log = options.log ?? ((message: string) => console.warn(message));
  let state: RegisterState | null = null;
  let pending: string | null = null;
  // The register was busy at some point since the download: only then does "not busy" mean close of day.
  let sawBusy = false;
  let timer: unknown = null;
  let current: GuardPhase = { phase: 'idle' };

  const set = (next: GuardPhase) => {
    current = next;
    options.onChange?.(next);
  };

  const cancelTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };

  const wait = (version: string, reason: string) => {
    if (current.phase === 'waiting' && current.reason === reason && current.version === version) return;
    log(`Storewise: update ${version} waits: ${reason}`);
    set({ phase: 'waiting', version, reason });
  };

  function evaluate(): void {
    if (pending === null || current.phase === 'installing') return;
    const reason = busyReason(state);
    if (reason !== null) {
      // Unknown is not busy for this purpose: a first report of "no shift" after start is not close of day.
      if (state !== null) sawBusy = true;
      cancelTimer();
      wait(pending, reason);
      return;
    }
    if (!sawBusy) {
      // Downloaded while nobody was selling: installing now would still restart someone's screen mid-task.
      wait(pending, 'installs when the app quits');
      return;
    }
    if (timer !== null) return;
    const version = pending;
    set({ phase: 'scheduled', version });
    timer = setTimer(() => {
      timer = null;
      // The state may have changed without a report reaching us in between: check once more.
      if (busyReason(state) !== null || pending !== version) return evaluate();
      log(`Storewise: the shift is closed and every sale is sent: installing update ${version}`);
      set({ phase: 'installing', version });
      options.install();
    }, graceMs);
  }

  return {
    report(next) {
      state = { shiftOpen: next.shiftOpen, unsentSales: next.unsentSales };
      evaluate();
    },
    updateDownloaded(version) {
      pending = version;
      // A register already busy counts: close of day is when that business ends.
      sawBusy = state !== null && busyReason(state) !== null;
      cancelTimer();
      evaluate();
    },
    phase: () => current,
  };
}
