/**
 * The Electron entry: the only file that imports Electron values. Everything it wires is a small module
 * that receives the Electron APIs as parameters and is tested under plain Node (tests/desktop).
 */
import { app, BrowserWindow, ipcMain, protocol, screen, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFileCandidates, resolveAppConfig } from './app-config';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME_PRIVILEGES, registerAppProtocol } from './app-protocol';
import { createChunkedStore } from './chunked-store';
import { createMemoryStore, openCredentialStore } from './credential-store';
import { buildContentSecurityPolicy } from './csp';
import { DEEP_LINK_SCHEME, findDeepLinkArgument } from './deep-link';
import { createDeepLinkDispatcher } from './deep-link-dispatch';
import { IPC } from '../ipc-contract';
import { registerIpcHandlers } from './ipc-handlers';
import { createNavigationPolicy, defaultExternalOrigins } from './navigation-policy';
import { sendToNetworkPrinter } from './printing/network-printer';
import { createPrintService } from './printing/print-service';
import { loadManagedPrinter, loadPrinterSettings, PRINTER_SETTINGS_FILE, savePrinterSettings } from './printing/printer-settings';
import { listWindowPrinters, printWindow } from './printing/window-printing';
import { createSessionVault, keychainAccountFor } from './session-vault';
import { startStorePc, type StorePc } from './machine/store-pc';
import { REGISTRY_POLICY_KEY } from './machine/registry-policy';
import { applyNavigationPolicy, applyPermissionPolicy, createMainWindow, trackWindowState } from './window';
import { clampToDisplays, loadWindowState, saveWindowState, type WindowState } from './window-state';

const here = path.dirname(fileURLToPath(import.meta.url));
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;

app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

let mainWindow: BrowserWindow | null = null;

const deepLinks = createDeepLinkDispatcher({
  send: (link) => mainWindow?.webContents.send(IPC.authDeepLink, link),
  focus: () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  },
});

if (!app.requestSingleInstanceLock()) {
  // Another Storewise is running: it receives our argv (and any deep link) through 'second-instance'.
  app.quit();
} else {
  registerDeepLinkProtocol();
  app.on('second-instance', (_event, argv) => {
    const url = findDeepLinkArgument(argv);
    if (url) deepLinks.handle(url);
    // With or without a link, a second launch brings the existing window forward.
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  // macOS delivers links through open-url, possibly before 'ready' on a cold start.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deepLinks.handle(url);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  void app.whenReady().then(start);
}

function registerDeepLinkProtocol(): void {
  // In development Electron runs as `electron .`, so the OS must be told to pass the app path along.
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [path.resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
}

async function start(): Promise<void> {
  // The machine policy first: it can name the server, and its proxy must be in place before the first request.
  const storePc = await startMachine();
  const configCandidates = configFileCandidates({
    platform: process.platform,
    execPath: process.execPath,
    userData: app.getPath('userData'),
    override: process.env.STOREWISE_CONFIG,
  });
  const policyServer = storePc.policy.policy?.server;
  const appConfig = policyServer ? { ok: true as const, config: policyServer } : await resolveAppConfig(
    configCandidates,
    { url: import.meta.env.MAIN_VITE_SUPABASE_URL, anonKey: import.meta.env.MAIN_VITE_SUPABASE_ANON_KEY },
  );
  const supabaseUrl = appConfig.ok ? appConfig.config.url : null;

  const credentials = await openCredentialStore();
  const store = createChunkedStore(supabaseUrl ? credentials.store : createMemoryStore());
  const vault = createSessionVault(store, supabaseUrl ? keychainAccountFor(supabaseUrl) : 'unconfigured');

  const policy = createNavigationPolicy({
    appOrigin: devServerUrl ? new URL(devServerUrl).origin : APP_ORIGIN,
    externalOrigins: defaultExternalOrigins(supabaseUrl),
  });
  registerAppProtocol(protocol, { rootDir: path.join(here, '../renderer'), csp: buildContentSecurityPolicy(supabaseUrl) });
  applyPermissionPolicy(session.defaultSession, policy);
  app.on('web-contents-created', (_event, contents) => applyNavigationPolicy(contents, policy, (url) => shell.openExternal(url)));

  registerIpcHandlers(ipcMain, {
    isAppUrl: policy.isAppUrl,
    isAllowedExternal: policy.isAllowedExternal,
    openExternal: (url) => shell.openExternal(url),
    vault,
    appVersion: app.getVersion(),
    appConfig,
    persistenceWarning: credentials.warning,
    printing: await createPrinting(configCandidates),
    storePc,
  });

  await openMainWindow();
  const coldStartLink = findDeepLinkArgument(process.argv);
  if (coldStartLink) deepLinks.handle(coldStartLink);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void openMainWindow();
  });
}

async function openMainWindow(): Promise<void> {
  const stateFile = path.join(app.getPath('userData'), 'window-state.json');
  const primary = screen.getPrimaryDisplay();
  const workAreas = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((d) => d.workArea);
  const state = clampToDisplays(await loadWindowState(stateFile), workAreas);

  const window = createMainWindow(BrowserWindow, state, { preloadPath: path.join(here, '../preload/index.cjs'), devTools: !app.isPackaged });
  mainWindow = window;
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
    deepLinks.notReady();
  });

  let saveTimer: NodeJS.Timeout | undefined;
  trackWindowState(window, (next: WindowState) => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void saveWindowState(stateFile, next).catch(() => undefined), 500);
  });

  window.webContents.on('did-start-loading', () => deepLinks.notReady());
  window.webContents.on('did-finish-load', () => deepLinks.ready());
  await window.loadURL(devServerUrl ?? APP_ENTRY_URL);
}

/** Receipt printing for this device (src/main/printing, docs/adr/0132): settings in userData, the register's window. */
async function createPrinting(configCandidates: string[]) {
  const managed = await loadManagedPrinter(configCandidates);
  const settingsFile = path.join(app.getPath('userData'), PRINTER_SETTINGS_FILE);
  return createPrintService({
    managed,
    loadSettings: () => loadPrinterSettings(settingsFile, managed),
    saveSettings: (settings) => savePrinterSettings(settingsFile, settings),
    lookup: (host) => lookup(host, { all: true }),
    sendRaw: sendToNetworkPrinter,
    listPrinters: () => listWindowPrinters(mainWindow?.webContents ?? null),
    printPage: (options) => printWindow(mainWindow?.webContents ?? null, options),
  });
}

/**
 * Machine policy, user settings, proxy and automatic updates (src/main/machine, docs/adr/0270-0272). On Windows
 * the Group Policy key is read with reg.exe (no native module); any failure there is a reported policy problem.
 */
function startMachine(): Promise<StorePc> {
  return startStorePc({
    platform: process.platform,
    arch: process.arch,
    version: app.getVersion(),
    execPath: process.execPath,
    env: process.env,
    userData: app.getPath('userData'),
    readFile: (file) => readFile(file, 'utf8'),
    writeFile: (file, text) => writeFile(file, text, { mode: 0o600 }),
    readRegistry: process.platform === 'win32' ? readPolicyRegistry : undefined,
    // electron-updater downloads through session.fromPartition('electron-updater', { cache: false }) (its
    // electronHttpExecutor's NET_SESSION_NAME, not exported): the proxy must be set there too.
    sessions: [session.defaultSession, session.fromPartition('electron-updater', { cache: false })],
    updater: electronUpdater.autoUpdater,
    packaged: app.isPackaged,
    // electron-builder writes app-update.yml only when a publish URL was given at build time.
    hasUpdateConfig: existsSync(path.join(process.resourcesPath, 'app-update.yml')),
    feedUrl: import.meta.env.MAIN_VITE_UPDATE_URL,
  });
}

function readPolicyRegistry(): Promise<string | null> {
  return new Promise((resolve, reject) => {
    execFile('reg.exe', ['query', REGISTRY_POLICY_KEY], { windowsHide: true, timeout: 10_000 }, (error, stdout) => {
      // reg.exe exits 1 when the key does not exist: no registry policy.
      if (error) return (error as { code?: unknown }).code === 1 ? resolve(null) : reject(error);
      resolve(stdout);
    });
  });
}
