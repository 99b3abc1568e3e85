import '../shared/lib/zod-jitless';
import { closeMenuOf } from '../shared/features/landing/menu-links';
import { authReturnInUrl, hasStoredSession } from '../shared/features/landing/stored-session';
import { loadSupabaseConfig } from './runtime-config';

// The configuration is fetched at once; the app's JavaScript (React, Chakra, the screens) is a separate chunk.
const container = document.getElementById('root')!;
const configLater = loadSupabaseConfig();
let started = false;
const startApp = () => {
  if (started) return;
  started = true;
  // A light auth page (docs/adr/0168) boots without the app: React and its own components only.
  if (container.dataset.light !== undefined) void import('./auth-entry').then((module) => module.startLight(container, configLater));
  else void import('./start').then((module) => module.start(container, configLater));
};

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
// scripts are requested or evaluated, so its first and largest paints never wait for them.
// The preloads and the app's start are separate tasks: each request a preload starts costs the main thread, and
// together with the start (which adds Vite's own preloads) they made one task above 50 ms at 4x CPU (docs/adr/0160).
const startAfterPaint = () =>
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (started) return;
      preloadPageChunks();
      setTimeout(startApp, 0);
    }, 0),
  );

/**
 * The landing is a static document for a visitor (docs/adr/0167): the app starts on it only when supabase-js has
 * a session stored in this browser (the Dashboard button, choosing a plan as an owner) or the address carries an
 * auth server's answer (a sign-in or confirmation link coming back). A visitor never fetches React or Chakra.
 */
function startIfSignedIn() {
  if (started) return;
  if (authReturnInUrl(window.location)) return void startAfterPaint();
  configLater.then(
    (config) => hasStoredSession(window.localStorage, config.url) && startAfterPaint(),
    () => undefined, // Without a configuration nobody can be signed in: the page stays as it is.
  );
}

if (container.dataset.start === 'signed-in') {
  // Where React does not run, the menu's links close the menu from here (React's handler does it otherwise).
  document.addEventListener('click', (event) => closeMenuOf(event.target));
  startIfSignedIn();
  // Back from signing in, a page restored from the back-forward cache checks again.
  window.addEventListener('pageshow', (event) => event.persisted && startIfSignedIn());
} else if (container.dataset.prerendered) startAfterPaint();
else startApp();
