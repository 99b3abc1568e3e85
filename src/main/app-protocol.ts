import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Protocol } from 'electron';

/**
 * The renderer is served from app://storewise/ instead of file://: a real origin for the CSP and the
 * navigation checks, no access to the rest of the disk, and response headers we control.
 * The app uses a hash router (docs/adr/0070), so there is no SPA fallback: unknown paths are 404.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'storewise';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** For protocol.registerSchemesAsPrivileged, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const;

export type ResolvedRequest = { ok: true; filePath: string } | { ok: false; status: 400 | 403 | 404 };

/**
 * Maps a request URL to a file under rootDir, or refuses. Pure: the traversal rules are unit-tested.
 * Decoded paths with '..', backslashes, NUL or drive letters are refused outright rather than normalized.
 */
export function resolveAppRequest(rootDir: string, requestUrl: string): ResolvedRequest {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST || url.port || url.username || url.password) {
    return { ok: false, status: 403 };
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (/[\0\\]|^\/*[A-Za-z]:/.test(pathname)) return { ok: false, status: 403 };
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return { ok: false, status: 403 };
  const relative = segments.length === 0 ? 'index.html' : segments.join('/');
  // Without '..' segments the path cannot leave rootDir; the handler still checks the real (symlink-free) path.
  return { ok: true, filePath: path.resolve(rootDir, relative) };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Whether `file` lies strictly inside `root` (both already absolute and normalized). */
function isInside(root: string, file: string): boolean {
  return file.startsWith(root + path.sep);
}

/**
 * The protocol handler as a plain Request -> Response function, so tests can drive it under Node.
 * Only the listed types are served (anything else is 404: no guessing, no octet-stream downloads), and
 * the file's real path (symlinks resolved) must still be inside the renderer folder's real path, so a
 * link planted in the install folder cannot expose the rest of the disk.
 */
export function createAppRequestHandler({ rootDir, csp }: { rootDir: string; csp: string }) {
  return async (request: Request): Promise<Response> => {
    const resolved = resolveAppRequest(rootDir, request.url);
    if (!resolved.ok) return new Response(null, { status: resolved.status });
    const contentType = CONTENT_TYPES[path.extname(resolved.filePath).toLowerCase()];
    if (!contentType) return new Response(null, { status: 404 });
    let body: Buffer;
    try {
      const [realRoot, realFile] = await Promise.all([realpath(rootDir), realpath(resolved.filePath)]);
      if (!isInside(realRoot, realFile)) return new Response(null, { status: 403 });
      body = await readFile(realFile);
    } catch {
      return new Response(null, { status: 404 });
    }
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': contentType,
        'Content-Security-Policy': csp,
        'X-Content-Type-Options': 'nosniff',
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Referrer-Policy': 'no-referrer',
      },
    });
  };
}

export function registerAppProtocol(protocol: Pick<Protocol, 'handle'>, options: { rootDir: string; csp: string }): void {
  protocol.handle(APP_SCHEME, createAppRequestHandler(options));
}
