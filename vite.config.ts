import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { prerender } from './scripts/prerender';
import { lazyChakraGlobalCss } from './scripts/prerender-lazy-global';
import { offlineShell } from './scripts/pwa';

const envDir = fileURLToPath(new URL('.', import.meta.url));

// The browser build of Storewise: web/ entry, shared/ product, output in dist/web. After the bundle, the public
// routes are prerendered into it (scripts/prerender.ts, docs/adr/0090); VITE_SITE_URL is the public origin
// used in canonical URLs, the sitemap and link previews. Then the service worker is generated over the finished
// site (scripts/pwa.ts, docs/adr/0200).
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  envDir,
  plugins: [react(), lazyChakraGlobalCss(), prerender({ siteUrl: process.env.VITE_SITE_URL ?? loadEnv(mode, envDir, 'VITE_').VITE_SITE_URL }), offlineShell()],
  build: {
    // STOREWISE_WEB_OUT lets parallel local runs build side by side; the default is what npm start serves.
    outDir: fileURLToPath(new URL(process.env.STOREWISE_WEB_OUT ?? './dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // web/live.ts and web/live-legal.ts are entries of their own: the landing and the legal pages load them alone
    // (docs/adr/0261).
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./web/index.html', import.meta.url)),
        live: fileURLToPath(new URL('./web/live.ts', import.meta.url)),
        'live-legal': fileURLToPath(new URL('./web/live-legal.ts', import.meta.url)),
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
}));
