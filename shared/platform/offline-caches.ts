/**
 * The service worker's runtime cache for the app's configuration (/config.json, network first; docs/adr/0200).
 * scripts/pwa.ts routes into it; web/offline-shell.ts fills it when the worker is installed, because the page that
 * installs the worker fetched its configuration before any worker could keep a copy.
 */
export const CONFIG_CACHE = 'storewise-config';
export const CONFIG_PATH = '/config.json';
