import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC } from '../ipc-contract';
import type * as AppProtocol from './app-protocol';
import { buildContentSecurityPolicy } from './csp';

/**
 * The Electron entry (index.ts) wired against a fake 'electron' module: the other tests prove each
 * module's rules, this one proves index.ts hands them the right values (the policy's app origin to the IPC
 * check, the project's CSP to the protocol, every web contents to the navigation guard, !isPackaged to
 * DevTools, deep links through the parser...). A wiring slip there would bypass every unit-tested rule.
 */
const fake = await vi.hoisted(async () => {
  // vi.hoisted runs before the file's imports, so it loads what it needs itself.
  const { EventEmitter: Emitter } = await import('node:events');
  const app = Object.assign(new Emitter(), {
    isPackaged: true,
    locked: true,
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => app.locked),
    quit: vi.fn(),
    whenReady: vi.fn(() => Promise.resolve()),
    setAsDefaultProtocolClient: vi.fn(),
    getPath: vi.fn(() => process.env.STOREWISE_TEST_USERDATA!),
    getVersion: () => '1.2.3',
  });
  const windows: Array<{ options: unknown; webContents: EventEmitter & { send: ReturnType<typeof vi.fn> }; loadURL: ReturnType<typeof vi.fn> }> = [];
  class BrowserWindow extends Emitter {
    static getAllWindows = () => windows;
    webContents = Object.assign(new Emitter(), { send: vi.fn() });
    loadURL = vi.fn(() => Promise.resolve());
    constructor(readonly options: unknown) {
      super();
      windows.push(this);
    }
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 820 });
    isMaximized = () => false;
    isMinimized = () => false;
    maximize = vi.fn();
    restore = vi.fn();
    show = vi.fn();
    focus = vi.fn();
  }
  const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const updaterSession = { setProxy: vi.fn(() => Promise.resolve()) };
  return {
    app,
    windows,
    BrowserWindow,
    ipcHandlers,
    ipcMain: { handle: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => unknown) => ipcHandlers.set(channel, listener)) },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    session: {
      defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn(), setProxy: vi.fn(() => Promise.resolve()) },
      fromPartition: vi.fn(() => updaterSession),
    },
    screen: {
      getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
      getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    },
    shell: { openExternal: vi.fn(() => Promise.resolve()) },
    autoUpdater: {
      setFeedURL: vi.fn(), checkForUpdates: vi.fn(() => Promise.resolve(null)), checkForUpdatesAndNotify: vi.fn(() => Promise.resolve(null)),
      on: vi.fn(), quitAndInstall: vi.fn(),
    },
    registerAppProtocol: vi.fn(),
  };
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.BrowserWindow,
  ipcMain: fake.ipcMain,
  protocol: fake.protocol,
  screen: fake.screen,
  session: fake.session,
  shell: fake.shell,
}));
vi.mock('electron-updater', () => ({ default: { autoUpdater: fake.autoUpdater } }));
// No keychain in unit tests: the entry must fall back to memory, not crash.
vi.mock('keytar', () => ({ default: { getPassword: () => Promise.reject(new Error('no keychain in unit tests')) } }));
vi.mock('./app-protocol', async (original) => ({ ...(await original<typeof AppProtocol>()), registerAppProtocol: fake.registerAppProtocol }));

const PROJECT = 'https://abcd.supabase.co';
const dir = mkdtempSync(path.join(tmpdir(), 'storewise-entry-'));
const APP_FRAME = { senderFrame: { url: 'app://storewise/index.html#/', parent: null } };

beforeAll(async () => {
  writeFileSync(path.join(dir, 'storewise.config.json'), JSON.stringify({ url: PROJECT, anonKey: 'anon' }));
  writeFileSync(path.join(dir, 'app-update.yml'), 'provider: generic\nurl: http://updates.storewise.app/\n');
  vi.stubEnv('STOREWISE_CONFIG', path.join(dir, 'storewise.config.json'));
  vi.stubEnv('STOREWISE_TEST_USERDATA', dir);
  vi.stubEnv('ELECTRON_RENDERER_URL', 'http://localhost:5173');
  // A build whose feed was given as http: must never check for updates.
  vi.stubEnv('MAIN_VITE_UPDATE_URL', 'http://updates.storewise.app/');
  Object.assign(process, { resourcesPath: dir });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  await import('./index');
  await vi.waitFor(() => expect(fake.windows[0]?.loadURL).toHaveBeenCalled());
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  Reflect.deleteProperty(process, 'resourcesPath');
  rmSync(dir, { recursive: true, force: true });
});

const mainWindow = () => fake.windows[0]!;

/** A web contents stand-in for 'web-contents-created'. */
function newContents() {
  const contents = Object.assign(new EventEmitter(), {
    openHandler: undefined as undefined | ((details: { url: string }) => { action: string }),
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      contents.openHandler = handler;
    },
  });
  fake.app.emit('web-contents-created', {}, contents);
  const prevented = (event: string, ...args: unknown[]) => {
    let wasPrevented = false;
    contents.emit(event, { preventDefault: () => (wasPrevented = true) }, ...args);
    return wasPrevented;
  };
  return { contents, prevented };
}

describe('Electron entry wiring', () => {
  it('sandboxes every renderer and registers app:// with exactly its privileges', () => {
    expect(fake.app.enableSandbox).toHaveBeenCalledTimes(1);
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
  });

  it("serves the renderer with the configured project's CSP", () => {
    expect(fake.registerAppProtocol).toHaveBeenCalledWith(fake.protocol, {
      rootDir: expect.stringMatching(/renderer$/),
      csp: buildContentSecurityPolicy(PROJECT),
    });
  });

  it('loads the app:// entry in a packaged build (never the dev server) with DevTools off', () => {
    expect(mainWindow().loadURL).toHaveBeenCalledWith('app://storewise/index.html');
    expect(mainWindow().options).toMatchObject({ webPreferences: { devTools: false, sandbox: true, contextIsolation: true, nodeIntegration: false } });
  });

  it('denies every permission of the default session', () => {
    const [requestHandler] = fake.session.defaultSession.setPermissionRequestHandler.mock.calls[0]!;
    const [checkHandler] = fake.session.defaultSession.setPermissionCheckHandler.mock.calls[0]!;
    const answers: boolean[] = [];
    requestHandler({ getURL: () => 'app://storewise/index.html' }, 'media', (granted: boolean) => answers.push(granted), {});
    expect(answers).toEqual([false]);
    expect(checkHandler({}, 'clipboard-read', 'app://storewise')).toBe(false);
  });

  it('guards every web contents: navigation, redirects, webviews and new windows', () => {
    const { contents, prevented } = newContents();
    expect(prevented('will-navigate', 'https://evil.example/')).toBe(true);
    expect(prevented('will-redirect', 'https://evil.example/')).toBe(true);
    expect(prevented('will-navigate', 'http://localhost:5173/')).toBe(true); // the dev server is not the app in a packaged build
    expect(prevented('will-navigate', 'app://storewise/index.html#/dashboard')).toBe(false);
    expect(prevented('will-attach-webview', {}, { src: 'app://storewise/index.html' })).toBe(true);
    expect(contents.openHandler!({ url: 'app://storewise/index.html' })).toEqual({ action: 'deny' });
  });

  it('opens only allowed links in the system browser', () => {
    fake.shell.openExternal.mockClear();
    const { contents } = newContents();
    contents.openHandler!({ url: 'https://evil.example/' });
    contents.openHandler!({ url: `${PROJECT}/auth/v1/authorize?provider=google` });
    expect(fake.shell.openExternal.mock.calls).toEqual([[`${PROJECT}/auth/v1/authorize?provider=google`]]);
  });

  it('answers IPC from the app frame only, with the project-specific allow list', async () => {
    const invoke = (channel: string, event: unknown, ...args: unknown[]) => Promise.resolve().then(() => fake.ipcHandlers.get(channel)!(event, ...args));
    await expect(invoke(IPC.sessionGet, { senderFrame: { url: 'http://localhost:5173/', parent: null } }, 'sb-abcd-auth-token')).rejects.toThrow(
      /sender not allowed/,
    );
    await expect(invoke(IPC.sessionGet, APP_FRAME, 'sb-abcd-auth-token')).resolves.toBeNull();
    fake.shell.openExternal.mockClear();
    expect(await invoke(IPC.openExternal, APP_FRAME, 'https://evil.example/')).toBe(false);
    expect(await invoke(IPC.openExternal, APP_FRAME, `${PROJECT}/auth/v1/authorize`)).toBe(true);
    expect(fake.shell.openExternal.mock.calls).toEqual([[`${PROJECT}/auth/v1/authorize`]]);
    expect(await invoke(IPC.appConfig, APP_FRAME)).toEqual({ ok: true, config: { url: PROJECT, anonKey: 'anon' } });
  });

  it('tells the renderer once that the sign-in is kept in memory (no keychain)', async () => {
    const warning = fake.ipcHandlers.get(IPC.persistenceWarning)!;
    expect(await warning(APP_FRAME)).toMatch(/will not be remembered/);
    expect(await warning(APP_FRAME)).toBeNull();
  });

  it('does not check for updates from an http: feed', () => {
    expect(fake.autoUpdater.setFeedURL).not.toHaveBeenCalled();
    expect(fake.autoUpdater.checkForUpdates).not.toHaveBeenCalled();
    expect(fake.autoUpdater.checkForUpdatesAndNotify).not.toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalledWith('Storewise: updates are off: the update URL must use https:, not http:');
  });

  it('sets the proxy (the system one, no policy here) on the window\'s session and electron-updater\'s', () => {
    expect(fake.session.defaultSession.setProxy).toHaveBeenCalledWith({ mode: 'system' });
    expect(fake.session.fromPartition).toHaveBeenCalledWith('electron-updater', { cache: false });
    expect(fake.session.fromPartition.mock.results[0]?.value.setProxy).toHaveBeenCalledWith({ mode: 'system' });
  });
});

describe('Electron entry: a second copy of the app', () => {
  it('quits at once without listening for links when another instance holds the lock', async () => {
    const listeners = fake.app.listenerCount('open-url');
    fake.app.locked = false;
    fake.app.quit.mockClear();
    vi.resetModules();
    await import('./index');
    expect(fake.app.quit).toHaveBeenCalledTimes(1);
    expect(fake.app.listenerCount('open-url')).toBe(listeners);
    expect(fake.app.listenerCount('second-instance')).toBe(1);
    fake.app.locked = true;
  });
});

describe('Electron entry: deep links', () => {
  const openUrl = (url: string) => {
    const event = { preventDefault: vi.fn() };
    fake.app.emit('open-url', event, url);
    return event;
  };

  it('delivers a PKCE link from macOS open-url once the window has loaded', () => {
    mainWindow().webContents.emit('did-finish-load');
    mainWindow().webContents.send.mockClear();
    const event = openUrl('storewise://auth/callback?code=abc-123');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(mainWindow().webContents.send.mock.calls).toEqual([[IPC.authDeepLink, { kind: 'oauth-callback', code: 'abc-123' }]]);
  });

  it('drops a link with tokens from open-url and from a second instance', () => {
    mainWindow().webContents.emit('did-finish-load');
    mainWindow().webContents.send.mockClear();
    openUrl('storewise://auth/reset?access_token=eyJ.e30.sig&refresh_token=attacker');
    fake.app.emit('second-instance', {}, ['/opt/Storewise/storewise', 'storewise://auth/reset#access_token=eyJ.e30.sig&refresh_token=attacker']);
    expect(mainWindow().webContents.send).not.toHaveBeenCalled();
  });

  it('delivers a recovery code passed to a second instance', () => {
    mainWindow().webContents.emit('did-finish-load');
    mainWindow().webContents.send.mockClear();
    fake.app.emit('second-instance', {}, ['/opt/Storewise/storewise', '--flag', 'storewise://auth/reset?code=reset-code']);
    expect(mainWindow().webContents.send.mock.calls).toEqual([[IPC.authDeepLink, { kind: 'recovery', params: { code: 'reset-code' } }]]);
  });

  it('holds links while the renderer reloads', () => {
    mainWindow().webContents.send.mockClear();
    mainWindow().webContents.emit('did-start-loading');
    openUrl('storewise://auth/callback?code=held');
    expect(mainWindow().webContents.send).not.toHaveBeenCalled();
    mainWindow().webContents.emit('did-finish-load');
    expect(mainWindow().webContents.send.mock.calls).toEqual([[IPC.authDeepLink, { kind: 'oauth-callback', code: 'held' }]]);
  });
});
