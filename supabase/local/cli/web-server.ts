import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { allowedHostNames, hostCheck } from '../gateway/host-check';
import { serveSpa } from './static-site';

export interface WebServerOptions {
  apiUrl: string;
  anonKey: string;
  webDir: string;
  desktopDir?: string;
  /** Host names served (DNS rebinding); default: loopback and STOREWISE_ALLOWED_HOSTS. */
  allowedHosts?: ReadonlySet<string>;
}

/** The web app as `npm start` serves it: /config.json tells it where the local stack is. */
export function createWebApp(options: WebServerOptions): Hono {
  const app = new Hono();
  app.use('*', hostCheck(options.allowedHosts ?? allowedHostNames()));
  app.get('/config.json', (c) => c.json({ url: options.apiUrl, anonKey: options.anonKey }, 200, { 'cache-control': 'no-store' }));
  const desktopDir = options.desktopDir;
  if (desktopDir && existsSync(desktopDir)) {
    app.get('/desktop', (c) => c.redirect('/desktop/', 301));
    app.get('/desktop/*', (c) => serveSpa(c, desktopDir, c.req.path.slice('/desktop'.length)));
  }
  app.get('*', (c) => {
    if (!existsSync(options.webDir)) {
      return c.json({ message: `The web app is not built: ${options.webDir} is missing. Run npm run build:web (npm start does it).` }, 503);
    }
    return serveSpa(c, options.webDir, c.req.path);
  });
  return app;
}
