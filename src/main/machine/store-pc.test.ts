import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { IPC } from '../../ipc-contract';
import { createMemoryStore } from '../credential-store';
import { registerIpcHandlers, type InvokeEventLike } from '../ipc-handlers';
import { createSessionVault } from '../session-vault';
import type { GenericFeed } from '../update-feed';
import type { ElectronProxyConfig } from './proxy-config';
import { startStorePc, type StorePcDeps } from './store-pc';

/** The store PC wired as main wires it, with a fake disk, fake sessions and a fake electron-updater. */
class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  feeds: GenericFeed[] = [];
  checks = 0;
  installs = 0;
  setFeedURL(feed: GenericFeed) {
    this.feeds.push(feed);
  }
  async checkForUpdates() {
    this.checks += 1;
    return null;
  }
  quitAndInstall() {
    this.installs += 1;
  }
}

function machine(files: Record<string, string>, overrides: Partial<StorePcDeps> = {}) {
  const disk = new Map(Object.entries(files));
  const proxies: ElectronProxyConfig[] = [];
  const logs: string[] = [];
  const updater = new FakeUpdater();
  const deps: StorePcDeps = {
    platform: 'linux',
    arch: 'x64',
    version: '1.4.0',
    execPath: '/opt/Storewise/storewise',
    env: {},
    userData: '/home/ana/.config/Storewise',
    readFile: async (file) => {
      const text = disk.get(file);
      if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return text;
    },
    writeFile: async (file, text) => void disk.set(file, text),
    sessions: [{ setProxy: async (config) => void proxies.push(config) }],
    updater,
    packaged: true,
    hasUpdateConfig: true,
    feedUrl: 'https://updates.storewise.app/desktop/',
    log: (message) => logs.push(message),
    ...overrides,
  };
  return { deps, disk, proxies, logs, updater, start: () => startStorePc(deps) };
}

const POLICY = '/etc/storewise/policy.json';

describe('the user\'s own settings', () => {
  it('saves a change IT did not lock, and refuses one it did', async () => {
    const saved: unknown[] = [];
    const pc = machine({ [POLICY]: JSON.stringify({ locked: ['autoUpdate'] }) }, { saveSettings: async (file, settings) => void saved.push([file, settings]) });
    const started = await pc.start();
    expect(await started.changeSettings({ updateChannel: 'beta' })).toEqual({ ok: true, message: expect.stringMatching(/next start/) });
    expect(saved).toEqual([['/home/ana/.config/Storewise/desktop-settings.json', { updateChannel: 'beta' }]]);
    expect(await started.changeSettings({ autoUpdate: false })).toEqual({ ok: false, message: 'Set by your IT department: autoUpdate' });
    expect(saved).toHaveLength(1);
  });
});

describe('the store PC at start', () => {
  it('applies the machine policy: proxy on the sessions, updates off, channel and locks in the status', async () => {
    const pc = machine({
      [POLICY]: JSON.stringify({ updateChannel: 'beta', autoUpdate: false, proxy: { mode: 'fixed', servers: [{ url: 'http://proxy.local:3128' }], bypass: ['<local>'] } }),
    });
    const started = await pc.start();
    expect(pc.proxies).toEqual([{ mode: 'fixed_servers', proxyRules: 'http://proxy.local:3128', proxyBypassRules: '<local>' }]);
    expect(pc.updater.checks).toBe(0);
    const status = started.status();
    expect(status).toMatchObject({
      version: '1.4.0', channel: 'beta', platform: 'linux', arch: 'x64', policyProblem: null,
      locked: ['updateChannel', 'autoUpdate', 'proxy'], update: 'Automatic updates are off: turned off by the machine policy',
    });
    expect(pc.logs).toContain('Storewise: machine policy from /etc/storewise/policy.json');
  });

  it('a broken policy is logged and shown, never thrown, and keeps updates off', async () => {
    const pc = machine({ [POLICY]: '{"autoUpdate": tru' });
    const started = await pc.start();
    expect(started.status().policyProblem).toMatch(/policy\.json is not valid JSON/);
    expect(pc.logs.some((line) => /machine policy has a problem/.test(line))).toBe(true);
    expect(pc.updater.checks).toBe(0);
    expect(started.status().update).toBe('Automatic updates are off: turned off by the machine policy');
    // The proxy still gets the default (the system's), so the app works behind a system proxy.
    expect(pc.proxies).toEqual([{ mode: 'system' }]);
  });

  it('keeps one random device id across starts (electron-updater\'s staging id file)', async () => {
    const pc = machine({});
    const first = (await pc.start()).status().deviceId;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(pc.disk.get('/home/ana/.config/Storewise/.updaterId')).toBe(first);
    expect((await pc.start()).status().deviceId).toBe(first);
  });

  it('without a policy, updates run on the stable channel and the guard hears the register through IPC', async () => {
    const pc = machine({});
    const started = await pc.start();
    expect(pc.updater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.storewise.app/desktop/', channel: 'latest' }]);

    const handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => unknown>();
    registerIpcHandlers({ handle: (channel, listener) => void handlers.set(channel, listener) }, {
      isAppUrl: (url) => url.startsWith('app://storewise/'),
      isAllowedExternal: () => false,
      openExternal: async () => undefined,
      vault: createSessionVault(createMemoryStore(), 'x'),
      appVersion: '1.4.0',
      appConfig: { ok: false, message: 'unconfigured' },
      persistenceWarning: null,
      storePc: started,
      log: () => undefined,
    });
    const app = { senderFrame: { url: 'app://storewise/index.html#/dashboard/pos', parent: null } };
    const invoke = async (channel: string, event: InvokeEventLike, ...args: unknown[]) => handlers.get(channel)?.(event, ...args);

    expect(await invoke(IPC.machineStatus, app)).toMatchObject({ channel: 'stable', update: 'Checking for updates' });
    await invoke(IPC.registerState, app, { shiftOpen: true, unsentSales: 0 });
    pc.updater.emit('update-downloaded', { version: '1.5.0' });
    expect(started.status().update).toBe('Version 1.5.0 is ready: it installs when the shift is closed and every sale is sent (now: a shift is open)');

    // Malformed or foreign reports are refused before they reach the guard.
    await expect(invoke(IPC.registerState, app, { shiftOpen: 'no', unsentSales: 0 })).rejects.toThrow(/invalid payload/);
    await expect(invoke(IPC.registerState, app, { shiftOpen: false, unsentSales: -1 })).rejects.toThrow(/invalid payload/);
    await expect(invoke(IPC.registerState, { senderFrame: { url: 'https://evil.example/', parent: null } }, { shiftOpen: false, unsentSales: 0 }))
      .rejects.toThrow(/sender not allowed/);
    expect(started.status().update).toMatch(/a shift is open/);
  });
});
