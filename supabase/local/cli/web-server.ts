import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { allowedHostNames, hostCheck } from '../gateway/host-check';
import { originOf, securityHeaders } from './security-headers';
import { staticSite } from './static-site';

export interface WebServerOptions {
  apiUrl: string;
  anonKey: string;
  webDir: string;
  desktopDir?: string;
  /** Host names served (DNS rebinding); default: loopback and STOREWISE_ALLOWED_HOSTS. */
  allowedHosts?: ReadonlySet<string>;
}

/**
 * The web app as `npm start` serves it: /config.json tells it where the local stack is; the built files are
 * compressed and cached (static-site.ts); every answer carries the security headers.
 */
export function createWebApp(options: WebServerOptions): Hono {
  const app = new Hono();
  const headers = securityHeaders(originOf(options.apiUrl));
  // First, so that even a refused Host gets the headers.
  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
  app.use('*', hostCheck(options.allowedHosts ?? allowedHostNames()));
  app.get('/config.json', (c) => c.json({ url: options.apiUrl, anonKey: options.anonKey }, 200, { 'cache-control': 'no-store' }));
  const desktopDir = options.desktopDir;
  if (desktopDir && existsSync(desktopDir)) {
    const desktop = staticSite(desktopDir, { spa: true });
    app.get('/desktop', (c) => c.redirect('/desktop/', 301));
    app.get('/desktop/*', async (c) => (await desktop.respond(c.req.raw, c.req.path.slice('/desktop'.length))) ?? c.json({ message: 'Not found' }, 404));
  }
  const web = staticSite(options.webDir, { spa: true });
  app.get('*', async (c) => {
    if (!existsSync(options.webDir)) {
      return c.json({ message: `The web app is not built: ${options.webDir} is missing. Run npm run build:web (npm start does it).` }, 503);
    }
    return (await web.respond(c.req.raw, c.req.path)) ?? c.json({ message: 'Not found' }, 404);
  });
  return app;
}
