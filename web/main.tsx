import '../shared/lib/zod-jitless';
import { loadSupabaseConfig } from './runtime-config';

// The configuration is fetched at once; the app's JavaScript (React, Chakra, the screens) is a separate chunk.
const container = document.getElementById('root')!;
const configLater = loadSupabaseConfig();
const startApp = () =>
  // A light auth page (docs/adr/0168) boots without the app: React and its own components only.
  container.dataset.light !== undefined
    ? void import('./auth-entry').then((module) => module.startLight(container, configLater))
    : void import('./start').then((module) => module.start(container, configLater));

/**
 * The prerendered page's own chunks (its screen and their imports), fetched alongside the app's. Put before
 * the server's style tags, which end <head>: emotion re-inserts its tags where they are, and a style tag it has
 * to move makes the browser recalculate the whole page's style (docs/adr/0153).
 */
function preloadPageChunks() {
  const firstStyle = document.head.querySelector('style');
  for (const href of container.dataset.preload?.split(' ') ?? []) {
    if (!href) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.insertBefore(link, firstStyle);
  }
}

// A prerendered page is complete HTML (docs/adr/0090, 0091): let the browser paint it before the app's
// scripts are requested or evaluated, so its first and largest paints never wait for them. Pages rendered
// in the browser start at once.
// The preloads and the app's start are separate tasks: each request a preload starts costs the main thread, and
// together with the start (which adds Vite's own preloads) they made one task above 50 ms at 4x CPU (docs/adr/0160).
if (container.dataset.prerendered) {
  requestAnimationFrame(() =>
    setTimeout(() => {
      preloadPageChunks();
      setTimeout(startApp, 0);
    }, 0),
  );
} else startApp();
