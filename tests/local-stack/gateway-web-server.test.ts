import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebApp } from '../../supabase/local/cli/web-server';

const root = mkdtempSync(join(tmpdir(), 'storewise-web-'));
const webDir = join(root, 'web');
const desktopDir = join(root, 'renderer');
mkdirSync(join(webDir, 'assets'), { recursive: true });
mkdirSync(desktopDir);
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Storewise web</title>');
writeFileSync(join(webDir, 'assets', 'app-1234.js'), 'console.log("storewise")');
writeFileSync(join(desktopDir, 'index.html'), '<!doctype html><title>Storewise desktop</title>');
writeFileSync(join(root, 'secret.txt'), 'outside the web root');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const app = createWebApp({ apiUrl: 'http://127.0.0.1:54321', anonKey: 'anon-key', webDir, desktopDir });

describe('the web server of `npm start`', () => {
  it('serves /config.json with the stack URL and anon key, never cached', async () => {
    const response = await app.request('/config.json');
    expect(await response.json()).toEqual({ url: 'http://127.0.0.1:54321', anonKey: 'anon-key' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('serves files, falls back to index.html for app routes, and 404s missing assets', async () => {
    const asset = await app.request('/assets/app-1234.js');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(await asset.text()).toContain('storewise');
    for (const route of ['/', '/dashboard/billing', '/reset-password']) {
      expect(await (await app.request(route)).text()).toContain('Storewise web');
    }
    expect((await app.request('/assets/missing.js')).status).toBe(404);
  });

  it('never serves files outside the web folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt']) {
      const response = await app.request(path);
      expect(await response.text()).not.toContain('outside the web root');
    }
  });

  it('serves the desktop renderer under /desktop/', async () => {
    expect(await (await app.request('/desktop/')).text()).toContain('Storewise desktop');
    expect((await app.request('/desktop')).status).toBe(301);
  });

  it('says how to build when the web folder is missing', async () => {
    const unbuilt = createWebApp({ apiUrl: 'x', anonKey: 'y', webDir: join(root, 'nope') });
    const response = await unbuilt.request('/');
    expect(response.status).toBe(503);
    expect(((await response.json()) as { message: string }).message).toContain('npm run build:web');
  });
});
