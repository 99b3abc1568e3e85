import type { BrowserWindow as ElectronWindow, BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import type { NavigationPolicy } from './navigation-policy';
import { MIN_HEIGHT, MIN_WIDTH, type WindowState } from './window-state';

/**
 * The main window's construction options and the security wiring of its web contents
 * (Electron security checklist: isolation, sandbox, no Node, navigation and window-open limits, permissions).
 */
/**
 * Creates the main window. The constructor is a parameter so tests pass a recording fake; it is named
 * BrowserWindow and given an object literal so the security scan (scripts/scan-desktop.ts) can read
 * the webPreferences at the call site.
 */
export function createMainWindow<W>(
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => W,
  state: WindowState,
  { preloadPath, devTools }: { preloadPath: string; /** !app.isPackaged: no DevTools in shipped builds. */ devTools: boolean },
): W {
  return new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Storewise',
    show: false,
    backgroundColor: '#ffffff',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      devTools,
    },
  });
}

/** Applies the navigation policy to one window's web contents. openExternal is shell.openExternal. */
export function applyNavigationPolicy(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  policy: NavigationPolicy,
  openExternal: (url: string) => unknown,
): void {
  const guard = (event: { preventDefault(): void }, url: string) => {
    const decision = policy.navigation(url);
    if (decision.action === 'allow') return;
    event.preventDefault();
    if (decision.openExternally) void openExternal(decision.openExternally);
  };
  contents.on('will-navigate', (event, url) => guard(event, url));
  contents.on('will-redirect', (event, url) => guard(event, url));
  // webviewTag is off, but a compromised renderer must not get one through any other contents either.
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = policy.windowOpen(url);
    if (decision.openExternally) void openExternal(decision.openExternally);
    return { action: 'deny' };
  });
}

/** Deny-by-default for every permission request and check of the app's session. */
export function applyPermissionPolicy(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>, policy: NavigationPolicy): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(policy.permission(permission, details.requestingUrl ?? contents.getURL()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => policy.permission(permission, requestingOrigin));
}

/** Remembers bounds while the window moves; the caller persists them (debounced) with saveWindowState. */
export function trackWindowState(window: Pick<ElectronWindow, 'on' | 'getNormalBounds' | 'isMaximized'>, onChange: (state: WindowState) => void): void {
  const emit = () => {
    const bounds = window.getNormalBounds();
    onChange({
      x: Math.round(bounds.x),
      y: Math.round(bounds.y),
      width: Math.round(bounds.width),
      height: Math.round(bounds.height),
      maximized: window.isMaximized(),
    });
  };
  window.on('resized', emit);
  window.on('moved', emit);
  window.on('maximize', emit);
  window.on('unmaximize', emit);
  window.on('close', emit);
}
