import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The browser build of Storewise: web/ entry, shared/ product, output in dist/web.
export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    // STOREWISE_WEB_OUT lets parallel local runs build side by side; the default is what npm start serves.
    outDir: fileURLToPath(new URL(process.env.STOREWISE_WEB_OUT ?? './dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
});
