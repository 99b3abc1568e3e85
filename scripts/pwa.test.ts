import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_CACHE, CONFIG_PATH } from '../shared/platform/offline-caches';
import { appShellHtml } from './app-shell-head';
import { isRuntimeConfig, OFFLINE_ROUTES, pwaOptions } from './pwa';

const site = 'http://127.0.0.1:5173';
const api = 'http://127.0.0.1:54321';
const at = (base: string, path: string, sameOrigin: boolean) => ({ url: new URL(path, base), sameOrigin });
const offlineRoute = (path: string) => OFFLINE_ROUTES.some((route) => route.test(path));
const fromWeb = (path: string) => fileURLToPath(new URL(`../web/public${path}`, import.meta.url));

describe('the service worker (docs/adr/0200)', () => {
  it('keeps the runtime configuration, network first, and no API answer', () => {
    expect(isRuntimeConfig(at(site, CONFIG_PATH, true))).toBe(true);
    expect(isRuntimeConfig(at(api, '/config.json', false))).toBe(false);
    for (const path of ['/auth/v1/token?grant_type=refresh_token', '/auth/v1/user', '/rest/v1/rpc/post_sales', '/rest/v1/stores']) {
      expect(isRuntimeConfig(at(api, path, false)), path).toBe(false);
      expect(isRuntimeConfig(at(site, path, true)), path).toBe(false);
    }
    const routes = pwaOptions.workbox?.runtimeCaching ?? [];
    expect(routes).toHaveLength(1);
    expect(routes[0]).toMatchObject({ handler: 'NetworkFirst', options: { cacheName: CONFIG_CACHE } });
  });

  it('answers navigations to the dashboard with the app shell, and no other', () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/pos', '/dashboard/catalog/items']) expect(offlineRoute(path), path).toBe(true);
    for (const path of ['/', '/auth', '/signup', '/dashboards', '/admin', '/reset-password']) expect(offlineRoute(path), path).toBe(false);
    expect(pwaOptions.workbox?.navigateFallback).toBe('/app.html');
    expect(pwaOptions.workbox?.globPatterns).toContain('app.html');
  });

  it('never switches a running tab to another build by itself', () => {
    expect(pwaOptions.workbox).toMatchObject({ skipWaiting: false, clientsClaim: false, cleanupOutdatedCaches: true });
    // Registered by the dashboard, not injected into every page's HTML; the manifest is linked by app.html alone.
    expect(pwaOptions).toMatchObject({ injectRegister: false, manifest: false });
  });
});

describe('the web app manifest', () => {
  const manifest = JSON.parse(readFileSync(fromWeb('/manifest.webmanifest'), 'utf8')) as {
    name: string; start_url: string; scope: string; display: string; theme_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };

  it('names the app, opens the register standalone, and its icons are the sizes it says', () => {
    expect(manifest).toMatchObject({ name: 'Storewise', start_url: '/dashboard/pos', scope: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const png = readFileSync(fromWeb(icon.src));
      expect(png.subarray(1, 4).toString(), icon.src).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }
  });

  it('is linked from the app shell with the same theme colour', () => {
    const shell = appShellHtml('<html><head><title>Storewise</title></head><body></body></html>');
    expect(shell).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(shell).toContain(`<meta name="theme-color" content="${manifest.theme_color}" />`);
    expect(shell.indexOf('rel="manifest"')).toBeLessThan(shell.indexOf('</head>'));
    expect(() => appShellHtml('<html><body></body></html>')).toThrow(/no <\/head>/);
  });
});
