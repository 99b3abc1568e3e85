import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Context } from 'hono';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

function fileInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const full = resolve(root, `.${decoded}`);
  if (full !== root && !full.startsWith(root + sep)) return undefined;
  return existsSync(full) && statSync(full).isFile() ? full : undefined;
}

/**
 * Serves a built single-page app from root: files as they are, any other GET path falls back to
 * index.html so client-side routes survive a reload. Paths cannot leave root.
 */
export async function serveSpa(c: Context, root: string, urlPath: string): Promise<Response> {
  const base = resolve(root);
  const file = fileInside(base, urlPath === '' ? '/' : urlPath) ?? (extname(urlPath) ? undefined : join(base, 'index.html'));
  if (!file || !existsSync(file)) return c.json({ message: 'Not found' }, 404);
  const body = await readFile(file);
  const hashedAsset = /\/assets\//.test(file);
  return c.body(body, 200, {
    'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
}
