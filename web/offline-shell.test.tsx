import { afterEach, describe, expect, it, vi } from 'vitest';

type Handler = () => void;
const instances: { url: string; handlers: Record<string, Handler[]>; skip: ReturnType<typeof vi.fn> }[] = [];
// workbox-window's Workbox, as far as web/offline-shell.ts uses it: events, register, messageSkipWaiting.
vi.mock('workbox-window', () => ({
  Workbox: class {
    handlers: Record<string, Handler[]> = {};
    skip = vi.fn();
    constructor(public url: string) { instances.push(this); }
    addEventListener(name: string, handler: Handler) { (this.handlers[name] ??= []).push(handler); }
    register() { return Promise.resolve(undefined); }
    messageSkipWaiting() { this.skip(); }
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('web/offline-shell.ts (docs/adr/0200)', () => {
  it('runs a worker only over http(s) in a browser that has them', async () => {
    const { canUseServiceWorker } = await import('./offline-shell');
    const nav = { serviceWorker: {} } as Navigator;
    expect(canUseServiceWorker(nav, 'https:')).toBe(true);
    expect(canUseServiceWorker(nav, 'http:')).toBe(true);
    expect(canUseServiceWorker(nav, 'app:')).toBe(false);
    expect(canUseServiceWorker(nav, 'file:')).toBe(false);
    expect(canUseServiceWorker({} as Navigator, 'https:')).toBe(false);
    expect(canUseServiceWorker(undefined, 'https:')).toBe(false);
  });

  it('registers once, tells every listener (also a late one) of a waiting build, and lets it take over only on request', async () => {
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: {} });
    // A production build: the development server has no worker to register.
    vi.stubEnv('DEV', false);
    const { startOfflineShell, SERVICE_WORKER_URL } = await import('./offline-shell');
    const first = vi.fn();
    const stopFirst = startOfflineShell(first);
    startOfflineShell(() => undefined);
    expect(instances.map((i) => i.url)).toEqual([SERVICE_WORKER_URL]);
    const wb = instances[0]!;
    for (const handler of wb.handlers.waiting ?? []) handler();
    expect(first).toHaveBeenCalledTimes(1);
    expect(wb.skip).not.toHaveBeenCalled();

    const late = vi.fn();
    startOfflineShell(late);
    expect(late).toHaveBeenCalledTimes(1);
    stopFirst();
    const apply = late.mock.calls[0]![0] as () => void;
    apply();
    expect(wb.skip).toHaveBeenCalledTimes(1);
    expect(wb.handlers.controlling).toHaveLength(1);
  });
});
