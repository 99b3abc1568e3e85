import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppRequestHandler, resolveAppRequest } from './app-protocol';

const base = mkdtempSync(path.join(tmpdir(), 'storewise-protocol-'));
const root = path.join(base, 'renderer');
mkdirSync(path.join(root, 'assets'), { recursive: true });
writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Storewise</title>');
writeFileSync(path.join(root, 'assets', 'main-abc.js'), 'console.log("storewise")');
writeFileSync(path.join(base, 'secret.txt'), 'outside the renderer');
// Files of types the renderer never needs: refused rather than served with a guessed or generic type.
for (const name of ['tool.exe', 'data.bin', 'no-extension', 'module.wasm', 'main-abc.js.map', 'page.htm', 'index.html.bak']) {
  writeFileSync(path.join(root, 'assets', name), 'not for the renderer');
}
// Symlinks: out of the root (relative and absolute targets, a file and a folder) and one that stays inside.
mkdirSync(path.join(base, 'outside'));
writeFileSync(path.join(base, 'outside', 'leak.js'), 'outside the renderer');
writeFileSync(path.join(base, 'outside.js'), 'outside the renderer');
symlinkSync('../../outside.js', path.join(root, 'assets', 'relative-escape.js'));
symlinkSync(path.join(base, 'outside.js'), path.join(root, 'assets', 'absolute-escape.js'));
symlinkSync(path.join(base, 'outside'), path.join(root, 'linked-folder'));
symlinkSync('main-abc.js', path.join(root, 'assets', 'alias.js'));
// The install folder itself may be reached through a link (e.g. /opt/Storewise -> /opt/Storewise-1.2.3).
symlinkSync(root, path.join(base, 'renderer-link'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveAppRequest', () => {
  it('maps app URLs to files inside the renderer folder', () => {
    expect(resolveAppRequest(root, 'app://storewise/')).toEqual({ ok: true, filePath: path.join(root, 'index.html') });
    expect(resolveAppRequest(root, 'app://storewise/assets/main-abc.js?v=1#x')).toEqual({
      ok: true,
      filePath: path.join(root, 'assets', 'main-abc.js'),
    });
  });

  it.each([
    ['app://storewise/assets/..%2f..%2fsecret.txt', 403],
    // Refused outright even where normalizing would stay inside the folder.
    ['app://storewise/assets/..%2findex.html', 403],
    ['app://storewise/.%2fassets/main-abc.js', 403],
    ['https://storewise/index.html', 403],
    ['storewise://storewise/index.html', 403],
    ['app://storewise/assets%2f..%2f..%2fsecret.txt', 403],
    ['app://storewise/..%5csecret.txt', 403],
    ['app://storewise/%00index.html', 403],
    ['app://storewise/C:/Windows/win.ini', 403],
    ['app://storewise/%E0%A4%A', 400],
    ['app://other/index.html', 403],
    ['app://storewise:99/index.html', 403],
    ['app://u:p@storewise/index.html', 403],
    ['file:///etc/passwd', 403],
  ] as const)('refuses %s', (url, status) => {
    expect(resolveAppRequest(root, url)).toEqual({ ok: false, status });
  });

  it.each(['app://storewise/../../secret.txt', 'app://storewise/%2e%2e/secret.txt', 'app://storewise/assets/.%2E/.%2e/secret.txt'])(
    'keeps %s inside the root after the URL parser folds the dots away',
    (url) => {
      expect(resolveAppRequest(root, url)).toEqual({ ok: true, filePath: path.join(root, 'secret.txt') });
    },
  );
});

describe('the app:// request handler', () => {
  const handle = createAppRequestHandler({ rootDir: root, csp: "default-src 'self'" });

  it('serves files with their type, the CSP and nosniff', async () => {
    const response = await handle(new Request('app://storewise/assets/main-abc.js'));
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'text/javascript; charset=utf-8',
      'content-security-policy': "default-src 'self'",
      'x-content-type-options': 'nosniff',
      'cross-origin-opener-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
    });
    expect(await response.text()).toBe('console.log("storewise")');
  });

  it('serves the entry page as HTML with the same headers', async () => {
    const response = await handle(new Request('app://storewise/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(await response.text()).toContain('<title>Storewise</title>');
  });

  it.each(['tool.exe', 'data.bin', 'no-extension', 'module.wasm', 'main-abc.js.map', 'page.htm', 'index.html.bak'])(
    'refuses the unknown type of assets/%s instead of guessing one',
    async (name) => {
      const response = await handle(new Request(`app://storewise/assets/${name}`));
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBeNull();
      expect(await response.text()).toBe('');
    },
  );

  it.each(['assets/relative-escape.js', 'assets/absolute-escape.js', 'linked-folder/leak.js'])(
    'does not follow the symlink %s out of the renderer folder',
    async (name) => {
      const response = await handle(new Request(`app://storewise/${name}`));
      expect(response.status).toBe(403);
      expect(await response.text()).toBe('');
    },
  );

  it('follows a symlink that stays inside the renderer folder', async () => {
    const response = await handle(new Request('app://storewise/assets/alias.js'));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('console.log("storewise")');
  });

  it('works when the renderer folder itself is reached through a symlink, and still refuses escapes', async () => {
    const linked = createAppRequestHandler({ rootDir: path.join(base, 'renderer-link'), csp: "default-src 'self'" });
    expect((await linked(new Request('app://storewise/assets/main-abc.js'))).status).toBe(200);
    expect((await linked(new Request('app://storewise/assets/relative-escape.js'))).status).toBe(403);
  });

  it('answers 404 for missing files (no SPA fallback with the hash router)', async () => {
    expect((await handle(new Request('app://storewise/dashboard'))).status).toBe(404);
  });

  it('answers 403 for encoded traversal attempts without reading the file', async () => {
    const response = await handle(new Request('app://storewise/assets/..%2f..%2fsecret.txt'));
    expect(response.status).toBe(403);
    expect(await response.text()).toBe('');
  });

  it('never serves the file beside the renderer folder', async () => {
    expect((await handle(new Request('app://storewise/%2e%2e/secret.txt'))).status).toBe(404);
  });
});
