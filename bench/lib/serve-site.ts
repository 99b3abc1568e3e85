/**
 * What the browser benches share to serve the built web app: a command-line option, a free port, waiting for a
 * server to answer (failing at once if it exits), and a fresh build of the site in a temporary folder.
 */
import type { ChildProcess } from 'node:child_process';
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
