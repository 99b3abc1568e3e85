import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { updateFeedFrom } from './src/main/update-feed';

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

// The update feed (the same variable electron-builder.ts publishes to). Updates are code the app runs,
// so a build with an http: (or otherwise unusable) feed fails here instead of shipping one.
const updateUrl = process.env.STOREWISE_UPDATE_URL ?? '';
if (updateUrl) {
  const feed = updateFeedFrom(updateUrl);
  if (!feed.ok) throw new Error(`STOREWISE_UPDATE_URL: ${feed.reason}`);
}

// The desktop build: main (ESM, Node), preload (sandboxed: one self-contained CommonJS file), renderer (the shared UI).
export default defineConfig({
  main: {
    define: { 'import.meta.env.MAIN_VITE_UPDATE_URL': JSON.stringify(updateUrl) },
    build: {
      outDir: fromRoot('./out/main'),
      lib: { entry: fromRoot('./src/main/index.ts'), formats: ['es'] },
      // keytar is a native optionalDependency: it must stay a runtime require, packed unbundled by electron-builder.
      externalizeDeps: { include: ['keytar'] },
    },
  },
  preload: {
    build: {
      outDir: fromRoot('./out/preload'),
      // A sandboxed preload can only require('electron') and a few built-ins: bundle zod and our modules in,
      // and emit CommonJS because sandboxed preloads cannot be ES modules.
      externalizeDeps: false,
      lib: { entry: fromRoot('./src/preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    root: fromRoot('./renderer'),
    // Relative asset URLs: the same build runs at app://storewise/ and, in the browser tests, under /desktop/.
    base: './',
    publicDir: fromRoot('./web/public'),
    plugins: [react()],
    build: {
      outDir: fromRoot('./out/renderer'),
      emptyOutDir: true,
      sourcemap: true,
      rolldownOptions: { input: fromRoot('./renderer/index.html') },
    },
  },
});
