import { stat, readFile } from 'node:fs/promises';
import { extname, relative, resolve, sep } from 'node:path';
import { compressible, CompressionCache, pickEncoding } from './compression';

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
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The routes the browser renders itself (shared/app/routes.tsx; `:name` is one path segment): they get the
 * single-page shell. Any other path without a file of its own is unknown and gets the prerendered 404 page
 * with status 404. A test keeps this list in step with the routes.
 */
export const clientRoutes = {
  exact: ['/reset-password', '/auth-success', '/terms', '/privacy'],
  prefixes: ['/dashboard', '/admin'],
} as const;

const segmentPattern = (route: string) => route.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
const clientRoutePattern = new RegExp(
  `^(?:${[...clientRoutes.exact.map(segmentPattern), ...clientRoutes.prefixes.map((prefix) => `${segmentPattern(prefix)}(?:/.*)?`)].join('|')})$`,
);

export function isClientRoute(path: string): boolean {
  return clientRoutePattern.test(path.length > 1 ? path.replace(/\/+$/, '') : path);
}

/** The prerender keeps the plain single-page shell as app.html; without a prerender it is index.html. */
const shellFiles = ['app.html', 'index.html'];
const notFoundFile = '404.html';

interface Found {
  file: string;
  size: number;
  mtimeMs: number;
}

async function fileAt(root: string, relativePath: string): Promise<Found | undefined> {
  const file = resolve(root, `.${relativePath.startsWith('/') ? '' : '/'}${relativePath}`);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  try {
    const info = await stat(file);
    return info.isFile() ? { file, size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

async function firstOf(root: string, candidates: readonly string[]): Promise<Found | undefined> {
  for (const candidate of candidates) {
    const found = await fileAt(root, candidate);
    if (found) return found;
  }
  return undefined;
}

export interface Resolved extends Found {
  status: 200 | 404;
}

/**
 * Which file answers urlPath: the file itself; a prerendered `<path>/index.html` or `<path>.html`; the
 * single-page shell for client routes (and for every route when `spa` and nothing is prerendered); else
 * 404.html with status 404. Paths cannot leave root.
 */
export async function resolvePath(root: string, urlPath: string, spa: boolean): Promise<Resolved | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath === '' ? '/' : urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const exact = decoded.endsWith('/') ? undefined : await fileAt(root, decoded);
  if (exact) return { ...exact, status: 200 };
  if (extname(decoded)) return undefined;
  const route = decoded.replace(/\/+$/, '');
  // The shell and the 404 page are not routes of their own (/app, /404).
  const asHtml = route === '' || [notFoundFile, ...shellFiles].includes(`${route.slice(1)}.html`) ? [] : [`${route}.html`];
  const prerendered = await firstOf(root, [`${route}/index.html`, ...asHtml]);
  if (prerendered) return { ...prerendered, status: 200 };
  if (!spa) return undefined;
  if (!isClientRoute(route || '/')) {
    const notFound = await fileAt(root, notFoundFile);
    if (notFound) return { ...notFound, status: 404 };
  }
  const shell = await firstOf(root, shellFiles);
  return shell ? { ...shell, status: 200 } : undefined;
}

export interface StaticSite {
  /** The response for a GET/HEAD of urlPath, or undefined when nothing answers it (the caller's 404). */
  respond(request: Request, urlPath: string): Promise<Response | undefined>;
}

/**
 * Serves a built web app from root, compressed (brotli or gzip, once per file version) with cache headers:
 * hashed files under /assets/ are immutable for a year, everything else (HTML above all) is revalidated on
 * every use through its ETag.
 */
export function staticSite(rootDir: string, options: { spa: boolean }): StaticSite {
  const root = resolve(rootDir);
  const cache = new CompressionCache();
  return {
    async respond(request, urlPath) {
      const found = await resolvePath(root, urlPath, options.spa);
      if (!found) return undefined;
      const contentType = contentTypes[extname(found.file)] ?? 'application/octet-stream';
      const hashed = relative(root, found.file).split(sep)[0] === 'assets';
      const encoding = compressible(contentType) && found.size >= 512 ? pickEncoding(request.headers.get('accept-encoding') ?? undefined) : undefined;
      const version = `${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}`;
      const headers: Record<string, string> = {
        'content-type': contentType,
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        etag: `W/"${version}${encoding ? `-${encoding}` : ''}"`,
      };
      if (compressible(contentType)) headers.vary = 'Accept-Encoding';
      if (found.status === 200 && request.headers.get('if-none-match')?.split(/\s*,\s*/).includes(headers.etag!)) {
        return new Response(null, { status: 304, headers });
      }
      const raw = await readFile(found.file);
      let body: Buffer = raw;
      if (encoding) {
        body = await cache.get(found.file, version, raw, encoding);
        headers['content-encoding'] = encoding;
      }
      headers['content-length'] = String(body.byteLength);
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: found.status, headers });
    },
  };
}
