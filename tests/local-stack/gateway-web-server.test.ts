import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { publicPages } from '../../shared/app/public-pages';
import { pickEncoding } from '../../supabase/local/cli/compression';
import { securityHeaders } from '../../supabase/local/cli/security-headers';
import { isClientRoute } from '../../supabase/local/cli/static-site';
import { createWebApp } from '../../supabase/local/cli/web-server';

const root = mkdtempSync(join(tmpdir(), 'storewise-web-'));
const webDir = join(root, 'web');
const desktopDir = join(root, 'renderer');
mkdirSync(join(webDir, 'assets'), { recursive: true });
mkdirSync(desktopDir);
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Storewise web</title>');
// Big enough to be worth compressing.
const script = `console.log("storewise");\n${'export const feature = "inventory, point of sale, customers";\n'.repeat(200)}`;
writeFileSync(join(webDir, 'assets', 'app-1234.js'), script);
writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(desktopDir, 'index.html'), '<!doctype html><title>Storewise desktop</title>');
writeFileSync(join(root, 'secret.txt'), 'outside the web root');

// The layout of a prerendered build (scripts/prerender.ts): pages per route, the plain shell, the 404 page.
const prerenderedDir = join(root, 'prerendered');
mkdirSync(join(prerenderedDir, 'privacy-policy'), { recursive: true });
writeFileSync(join(prerenderedDir, 'index.html'), '<!doctype html><title>Landing prerendered</title>');
writeFileSync(join(prerenderedDir, 'app.html'), '<!doctype html><title>Single-page shell</title>');
writeFileSync(join(prerenderedDir, '404.html'), '<!doctype html><title>Page not found prerendered</title>');
writeFileSync(join(prerenderedDir, 'privacy-policy', 'index.html'), '<!doctype html><title>Privacy prerendered</title>');
writeFileSync(join(prerenderedDir, 'pricing.html'), '<!doctype html><title>Pricing prerendered</title>');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const app = createWebApp({ apiUrl: 'http://127.0.0.1:54321', anonKey: 'anon-key', webDir, desktopDir });
const prerendered = createWebApp({ apiUrl: 'http://127.0.0.1:54321', anonKey: 'anon-key', webDir: prerenderedDir });

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
    for (const route of ['/', '/dashboard/billing', '/reset-password', '/no-such-page']) {
      expect(await (await app.request(route)).text()).toContain('Storewise web');
    }
    expect((await app.request('/assets/missing.js')).status).toBe(404);
  });

  it('never serves files outside the web folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/%2e%2e/secret', '/..%5csecret.txt']) {
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

describe('prerendered pages', () => {
  const title = async (path: string) => {
    const response = await prerendered.request(path);
    return { status: response.status, title: /<title>([^<]*)<\/title>/.exec(await response.text())?.[1] };
  };

  it('each route gets its own prerendered HTML, with or without a trailing slash', async () => {
    expect(await title('/')).toEqual({ status: 200, title: 'Landing prerendered' });
    expect(await title('/privacy-policy')).toEqual({ status: 200, title: 'Privacy prerendered' });
    expect(await title('/privacy-policy/')).toEqual({ status: 200, title: 'Privacy prerendered' });
    expect(await title('/pricing')).toEqual({ status: 200, title: 'Pricing prerendered' });
  });

  it('routes the browser renders get the single-page shell, not the landing', async () => {
    for (const path of ['/dashboard', '/dashboard/billing', '/admin/users', '/reset-password', '/auth-success', '/terms', '/privacy']) {
      expect(await title(path), path).toEqual({ status: 200, title: 'Single-page shell' });
    }
  });

  it('unknown paths get the prerendered 404 page with status 404; missing files a plain 404', async () => {
    for (const path of ['/no-such-page', '/dashboardx', '/privacy-policy/extra', '/app', '/404']) {
      expect(await title(path), path).toEqual({ status: 404, title: 'Page not found prerendered' });
    }
    expect((await prerendered.request('/assets/missing.js')).status).toBe(404);
  });
  it('the client routes here match the product routes that are not prerendered', () => {
    const routes = [...readFileSync(join(__dirname, '../../shared/app/routes.tsx'), 'utf8').matchAll(/path="([^"*]+)\/?\*?"/g)].map((m) => m[1]!);
    expect(routes.length).toBeGreaterThan(5);
    const prerenderedPaths = new Set(publicPages.map((page) => page.path));
    for (const route of routes) {
      expect(prerenderedPaths.has(route) !== isClientRoute(route), `${route}: prerendered or a client route, not both`).toBe(true);
    }
  });

  it('a route with a parameter matches one segment', () => {
    expect(isClientRoute('/dashboard/stores/123')).toBe(true);
    expect(isClientRoute('/dashboard-x')).toBe(false);
    expect(isClientRoute('/reset-password/')).toBe(true);
    expect(isClientRoute('/reset-password/x')).toBe(false);
  });
});

describe('compression and caching', () => {
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

  it('compresses with brotli or gzip as the client accepts, and the bytes decode to the file', async () => {
    const br = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brotliDecompressSync(brBytes).toString()).toBe(script);
    expect(brBytes.byteLength).toBeLessThan(script.length / 5);
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.byteLength);

    const gzip = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(script);

    const plain = await get('/assets/app-1234.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    // Served from the cache the second time: the same bytes.
    const again = await get('/assets/app-1234.js', { 'accept-encoding': 'br' });
    expect(Buffer.from(await again.arrayBuffer()).equals(brBytes)).toBe(true);
  });

  it('reads Accept-Encoding q-values', () => {
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('gzip;q=0.5, br;q=0.8')).toBe('br');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding('gzip;q=0, br;q=0')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });

  it('hashed assets are immutable for a year; HTML and other files are revalidated, with 304 on a matching ETag', async () => {
    expect((await get('/assets/app-1234.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/dashboard', '/favicon.svg']) {
      const response = await get(path);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
    }
    const page = await get('/');
    const pageTag = page.headers.get('etag');
    expect(pageTag).toMatch(/^W\/"/);
    const revalidated = await get('/', { 'if-none-match': pageTag! });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    // Each encoding is its own representation with its own tag.
    const brTag = (await get('/assets/app-1234.js', { 'accept-encoding': 'br' })).headers.get('etag')!;
    expect((await get('/assets/app-1234.js', { 'accept-encoding': 'br', 'if-none-match': brTag })).status).toBe(304);
    expect((await get('/assets/app-1234.js', { 'if-none-match': brTag })).status).toBe(200);
  });
});

describe('security headers', () => {
  it('every answer (page, asset, config, 404, refused host) carries CSP, nosniff, referrer policy and frame blocking', async () => {
    const responses = [
      await app.request('/'),
      await app.request('/assets/app-1234.js'),
      await app.request('/config.json'),
      await prerendered.request('/no-such-page'),
      await app.request('/assets/missing.js'),
      await app.request('/', { headers: { host: 'attacker.example' } }),
    ];
    expect(responses.at(-1)!.status).toBe(403);
    for (const response of responses) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const csp = response.headers.get('content-security-policy') ?? '';
      const directives = new Map(csp.split(/;\s*/).map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]));
      expect(directives.get('script-src')).toBe("'self'");
      expect(directives.get('frame-ancestors')).toBe("'none'");
      expect(directives.get('object-src')).toBe("'none'");
      // The page may call the API /config.json names (and its Realtime websocket), and nothing else off its origin.
      expect(directives.get('connect-src')).toBe("'self' http://127.0.0.1:54321 ws://127.0.0.1:54321");
      expect(csp).not.toMatch(/unsafe-eval|\*/);
    }
  });

  it('the README shows the same headers for a hosted deploy', () => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const block = /```text\n\s*\/\*\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const shown = new Map([...block.matchAll(/^\s+([A-Za-z-]+): (.+)$/gm)].map((m) => [m[1]!.toLowerCase(), m[2]!.trim()]));
    const expected = securityHeaders(['https://<ref>.supabase.co']);
    for (const [name, value] of Object.entries(expected)) expect(shown.get(name), name).toBe(value);
    expect(shown.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
