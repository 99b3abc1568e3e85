import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { GenericFeed } from '../update-feed';
import { startUpdates, type AppUpdaterLike } from './update-controller';

/** electron-updater's AppUpdater as far as the controller sees it: settable flags, events, and calls recorded. */
class FakeUpdater extends EventEmitter implements AppUpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  feeds: GenericFeed[] = [];
  checks = 0;
  installs: Array<[boolean | undefined, boolean | undefined]> = [];
  constructor(private readonly onCheck: () => Promise<unknown> = async () => null) {
    super();
  }
  setFeedURL(options: GenericFeed) {
    this.feeds.push(options);
  }
  checkForUpdates() {
    this.checks += 1;
    return this.onCheck();
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

function start(overrides: Partial<Parameters<typeof startUpdates>[0]> & { updater?: FakeUpdater } = {}) {
  const updater = overrides.updater ?? new FakeUpdater();
  const logs: string[] = [];
  let tick: (() => void) | null = null;
  const timers: Array<() => void> = [];
  const controller = startUpdates({
    packaged: true,
    hasUpdateConfig: true,
    feedUrl: 'https://updates.storewise.app/desktop/',
    settings: { autoUpdate: true, updateChannel: 'stable' },
    autoUpdateSource: 'default',
    setInterval: (run) => {
      tick = run;
      return 1;
    },
    clearInterval: () => {
      tick = null;
    },
    setTimer: (run) => timers.push(run),
    clearTimer: () => timers.splice(0),
    log: (message) => logs.push(message),
    ...overrides,
    updater,
  });
  return { controller, updater, logs, tick: () => tick?.(), elapse: () => timers.splice(0).forEach((run) => run()) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('startUpdates', () => {
  it('configures electron-updater for background download, install on quit, no downgrade, and checks at once', async () => {
    const { updater, controller } = start();
    await settle();
    expect(updater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.storewise.app/desktop/', channel: 'latest' }]);
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, allowDowngrade: false, checks: 1 });
    expect(controller.guard).not.toBeNull();
  });

  it('the beta channel reads beta.yml', () => {
    const { updater } = start({ settings: { autoUpdate: true, updateChannel: 'beta' } });
    expect(updater.feeds[0]?.channel).toBe('beta');
  });

  it.each([
    ['policy', 'turned off by the machine policy'],
    ['user', "turned off in this computer's settings"],
    ['default', 'a per-machine installation is updated by IT'],
  ] as const)('never checks when auto-update is off (source: %s) and says why', (source, reason) => {
    const { updater, controller, logs } = start({ settings: { autoUpdate: false, updateChannel: 'stable' }, autoUpdateSource: source });
    expect(updater.checks).toBe(0);
    expect(updater.feeds).toEqual([]);
    expect(controller.status()).toEqual({ state: 'off', reason });
    expect(logs).toEqual([`Storewise: updates are off: ${reason}`]);
  });

  it('never contacts an http: feed, nor checks in development', () => {
    const http = start({ feedUrl: 'http://updates.storewise.app/' });
    expect(http.updater.checks).toBe(0);
    expect(http.controller.status()).toEqual({ state: 'off', reason: 'the update URL must use https:, not http:' });
    expect(start({ packaged: false }).updater.checks).toBe(0);
    expect(start({ hasUpdateConfig: false }).updater.checks).toBe(0);
  });

  it('a failed check is logged and shown, never thrown', async () => {
    const { controller, logs } = start({ updater: new FakeUpdater(() => Promise.reject(new Error('offline'))) });
    await settle();
    expect(logs).toContain('Storewise: update check failed: offline');
    expect(controller.status()).toEqual({ state: 'error', message: 'offline' });
  });

  it('a downloaded update restarts the app silently only after the shift closes, and periodic checks stop meanwhile', async () => {
    const { updater, controller, tick, elapse } = start();
    await settle();
    controller.guard?.report({ shiftOpen: true, unsentSales: 0 });
    updater.emit('update-available', { version: '1.5.0' });
    expect(controller.status()).toEqual({ state: 'downloading', version: '1.5.0' });
    updater.emit('update-downloaded', { version: '1.5.0' });
    expect(controller.status()).toEqual({ phase: 'waiting', version: '1.5.0', reason: 'a shift is open' });

    tick();
    await settle();
    expect(updater.checks).toBe(1);
    elapse();
    expect(updater.installs).toEqual([]);

    controller.guard?.report({ shiftOpen: false, unsentSales: 0 });
    elapse();
    expect(updater.installs).toEqual([[true, true]]);
  });
});
