import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createNavigationPolicy } from './navigation-policy';
import type { BrowserWindowConstructorOptions } from 'electron';
import { applyNavigationPolicy, applyPermissionPolicy, createMainWindow } from './window';

const policy = createNavigationPolicy({ appOrigin: 'app://storewise', externalOrigins: ['https://storewise.app'] });

/** A web contents stand-in: real events, the window-open handler kept so the test can call it. */
function fakeContents() {
  const emitter = new EventEmitter();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  return {
    on: (event: string, listener: Parameters<EventEmitter['on']>[1]) => emitter.on(event, listener),
    setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => void (openHandler = handler),
    navigate(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string) {
      let prevented = false;
      emitter.emit(event, { preventDefault: () => (prevented = true) }, url);
      return prevented;
    },
    open: (url: string) => openHandler!({ url }),
  };
}

function wired() {
  const contents = fakeContents();
  const opened: string[] = [];
  // @ts-expect-error the fake implements only the events the policy subscribes to
  applyNavigationPolicy(contents, policy, (url) => opened.push(url));
  return { contents, opened };
}

/** Records what the window was constructed with. */
class FakeWindow {
  constructor(readonly options: BrowserWindowConstructorOptions) {}
}
const mainWindowOptions = (state: Parameters<typeof createMainWindow>[1], preloadPath: string, devTools = false) =>
  createMainWindow(FakeWindow, state, { preloadPath, devTools }).options;

describe('window security options', () => {
  it('isolates, sandboxes and disables Node, webviews and DevTools in a packaged build', () => {
    // Exactly these preferences: a removed or loosened one (or an added one) fails here.
    expect(mainWindowOptions({ width: 1200, height: 800, maximized: false }, '/app/out/preload/index.cjs').webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
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
      devTools: false,
    });
  });

  it('allows DevTools only when asked (development, !app.isPackaged)', () => {
    expect(mainWindowOptions({ width: 1200, height: 800, maximized: false }, 'p', true).webPreferences?.devTools).toBe(true);
    expect(mainWindowOptions({ width: 1200, height: 800, maximized: false }, 'p', false).webPreferences?.devTools).toBe(false);
  });

  it('starts hidden (shown on ready-to-show) with the minimum size', () => {
    expect(mainWindowOptions({ width: 1200, height: 800, maximized: false }, 'p')).toMatchObject({
      width: 1200,
      height: 800,
      minWidth: 960,
      minHeight: 640,
      show: false,
    });
  });

  it('uses the remembered position only when there is one', () => {
    expect(mainWindowOptions({ x: 10, y: 20, width: 1200, height: 800, maximized: false }, 'p')).toMatchObject({ x: 10, y: 20 });
    expect(mainWindowOptions({ width: 1200, height: 800, maximized: false }, 'p')).not.toHaveProperty('x');
  });
});

describe('navigation events', () => {
  it('lets in-app navigation through', () => {
    const { contents, opened } = wired();
    expect(contents.navigate('will-navigate', 'app://storewise/index.html#/auth')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('blocks leaving the app and opens allowed sites in the system browser', () => {
    const { contents, opened } = wired();
    expect(contents.navigate('will-navigate', 'https://storewise.app/pricing')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(opened).toEqual(['https://storewise.app/pricing']);
  });

  it('prevents every <webview> from attaching, whatever it would load', () => {
    const { contents, opened } = wired();
    expect(contents.navigate('will-attach-webview', 'app://storewise/index.html')).toBe(true);
    expect(contents.navigate('will-attach-webview', 'https://evil.example/')).toBe(true);
    expect(opened).toEqual([]);
  });

  it('denies every new window and forwards only allowed links', () => {
    const { contents, opened } = wired();
    expect(contents.open('https://storewise.app/terms')).toEqual({ action: 'deny' });
    expect(contents.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(contents.open('app://storewise/index.html')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://storewise.app/terms']);
  });
});

describe('permission handlers', () => {
  it('answers every request and check with a denial', () => {
    const answers: boolean[] = [];
    let requestHandler: ((...args: unknown[]) => void) | undefined;
    let checkHandler: ((...args: unknown[]) => boolean) | undefined;
    applyPermissionPolicy(
      {
        setPermissionRequestHandler: (handler) => void (requestHandler = handler as (...args: unknown[]) => void),
        setPermissionCheckHandler: (handler) => void (checkHandler = handler as (...args: unknown[]) => boolean),
      },
      policy,
    );
    const contents = { getURL: () => 'app://storewise/index.html' };
    requestHandler!(contents, 'media', (granted: boolean) => answers.push(granted), { requestingUrl: 'app://storewise/index.html' });
    requestHandler!(contents, 'notifications', (granted: boolean) => answers.push(granted), {});
    expect(answers).toEqual([false, false]);
    expect(checkHandler!(contents, 'clipboard-read', 'app://storewise')).toBe(false);
  });
});
