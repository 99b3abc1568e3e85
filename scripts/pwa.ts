import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { CONFIG_CACHE } from '../shared/platform/offline-caches';

/**
 * The web app's service worker (docs/adr/0200): Workbox through vite-plugin-pwa, generated after the prerender
 * so the precache holds the app shell (app.html) the prerender writes. It precaches one build whole (every
 * hashed file and the shell, each URL with its revision): a new build's worker installs in the background and
 * waits until no tab runs the old one, so a tab never mixes two builds. Offline, /dashboard/* gets the shell
 * and the app its configuration (/config.json, network first). Nothing of the API is cached here: /auth/v1 and
 * /rest/v1 go to the network as they would without a worker (the register keeps its own copy in IndexedDB).
 */

/** The routes whose navigations the worker answers with the app shell (the server rewrites them to app.html). */
export const OFFLINE_ROUTES = [/^\/dashboard(?:\/|$)/];

/** The runtime configuration web/runtime-config.ts fetches: network first, the last good answer offline. */
// Workbox copies this function's source into sw.js, so it names the path itself (scripts/pwa.test.ts checks it is CONFIG_PATH).
export function isRuntimeConfig({ url, sameOrigin }: { url: URL; sameOrigin: boolean }): boolean {
  return sameOrigin && url.pathname === '/config.json';
}

export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'generateSW',
  // The worker is registered by the dashboard (web/offline-shell.ts), never by the public pages' HTML.
  injectRegister: false,
  // web/public/manifest.webmanifest is the manifest; only app.html links it (scripts/app-shell-head.ts).
  manifest: false,
  registerType: 'prompt',
  filename: 'sw.js',
  integration: { closeBundleOrder: 'post' },
  workbox: {
    globPatterns: ['assets/**/*.{js,css,woff2,svg,png}', 'app.html', 'favicon.svg', 'manifest.webmanifest', 'icons/*.png'],
    // The register's chunks are large (Chakra, recharts): the whole build goes in, not only files under 2 MB.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    // Hashed names already say the version: no revision query needed for them.
    dontCacheBustURLsMatching: /^assets\//,
    navigateFallback: '/app.html',
    navigateFallbackAllowlist: OFFLINE_ROUTES,
    cleanupOutdatedCaches: true,
    // A new worker takes over only when no tab runs the old build (or the user accepts the update prompt).
    clientsClaim: false,
    skipWaiting: false,
    runtimeCaching: [
      {
        urlPattern: isRuntimeConfig,
        handler: 'NetworkFirst',
        // ignoreVary: the copy the page itself stored (web/offline-shell.ts) answers whatever Accept-Encoding asks.
        options: { cacheName: CONFIG_CACHE, networkTimeoutSeconds: 4, cacheableResponse: { statuses: [200] }, matchOptions: { ignoreVary: true } },
      },
    ],
  },
};

export const offlineShell = () => VitePWA(pwaOptions);
