/**
 * What the browser benches share to serve the built web app: a command-line option, a free port, waiting for a
 * server to answer (failing at once if it exits), a fresh build of the site in a temporary folder, and the local
 * stack (`npm start`'s server) serving it on free ports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The value after `--name` on the command line. */
export const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Polls `url` four times a second until it answers 2xx; fails when `child` (the server) exits or time is up. */
export async function waitFor(url: string, child: ChildProcess | undefined, seconds: number) {
  for (let waited = 0; waited < seconds * 4; waited += 1) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** The web app built afresh into a temporary folder named after the bench. */
export async function buildSite(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  return dir;
}

export interface SiteStackOptions {
  /** The built web app the stack serves. */
  webDir: string;
  /** The stack's data folder; in memory with the demo seed when absent. */
  dataDir?: string;
  /** How long the stack may take to answer (a loaded 2-core machine took minutes for the in-memory seed). */
  waitSeconds?: number;
  /** Extra environment for the stack (e.g. STOREWISE_JWT_SECRET, to derive the keys in the bench). */
  env?: Record<string, string>;
  /** The ports of an earlier start, to start it again at the same origin (a browser keeps its IndexedDB per origin). */
  ports?: SitePorts;
}

export interface SitePorts { api: number; web: number; inbox: number; payments: number }

export interface SiteStack {
  /** The web app's address. */
  url: string;
  /** The API's address (what config.json gives the app). */
  apiUrl: string;
  /** config.json as the app reads it. */
  config: { url: string; anonKey: string };
  /** Stops the stack (SIGINT, as Ctrl-C) and waits for it to exit. */
  stop(): Promise<void>;
  ports: SitePorts;
}

/** `npm start`'s server in a child process on free ports, serving `webDir`, once it answers. */
export async function startSiteStack(options: SiteStackOptions): Promise<SiteStack> {
  const { api, web, inbox, payments } = options.ports
    ?? { api: await freePort(), web: await freePort(), inbox: await freePort(), payments: await freePort() };
  const data = options.dataDir ? ['--data-dir', options.dataDir] : ['--memory'];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'supabase/local/cli.ts'), 'start', ...data, '--api-port', `${api}`,
      '--web-port', `${web}`, '--inbox-port', `${inbox}`, '--payments-port', `${payments}`, '--web-dir', options.webDir],
    { cwd: root, env: { ...process.env, STOREWISE_QUIET: '1', ...options.env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${web}`;
  try {
    await waitFor(`${url}/config.json`, child, options.waitSeconds ?? 600);
  } catch (error) {
    child.kill('SIGINT');
    throw error;
  }
  const config = (await (await fetch(`${url}/config.json`)).json()) as { url: string; anonKey: string };
  return {
    url,
    apiUrl: `http://127.0.0.1:${api}`,
    config,
    ports: { api, web, inbox, payments },
    stop: () => new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGINT');
    }),
  };
}
