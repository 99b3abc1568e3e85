/**
 * A throwaway PostgreSQL 15 server (Debian's postgresql-15) in a temporary folder on a free port, for the
 * hosted-shaped checks (tests/hosted) and `npm run types:gen`. Nothing is kept: stop() deletes the folder.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's postgresql-15 puts initdb and pg_ctl; STOREWISE_PG_BIN points elsewhere. */
export const pgBinDir = process.env.STOREWISE_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PgServer {
  port: number;
  /** A connection URL for a role of the server (trust authentication on 127.0.0.1: no password). */
  url(user: string): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** PostgreSQL refuses to run as root: as root (CI), run its programs as the postgres system user. */
async function asServerUser(dir: string): Promise<(file: string, args: string[]) => Promise<unknown>> {
  if (process.getuid?.() !== 0) return (file, args) => run(file, args);
  const [uid, gid] = await Promise.all(
    ['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())),
  );
  await chown(dir, uid as number, gid as number);
  return (file, args) => run('runuser', ['-u', 'postgres', '--', file, ...args]);
}

export async function startPgServer(): Promise<PgServer> {
  const initdb = join(pgBinDir, 'initdb');
  const pgCtl = join(pgBinDir, 'pg_ctl');
  if (!existsSync(initdb) || !existsSync(pgCtl)) {
    throw new Error(`PostgreSQL 15 is not installed (no ${initdb}): apt-get install postgresql-15, or set STOREWISE_PG_BIN`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'storewise-hosted-'));
  const data = join(dir, 'data');
  let started = false;
  try {
    const exec = await asServerUser(dir);
    // The bootstrap superuser is supabase_admin, as on hosted; postgres is created later without superuser.
    await exec(initdb, ['-D', data, '-U', 'supabase_admin', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    const port = await freePort();
    // fsync off: the data is thrown away, and the checks run several times faster.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await exec(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
    started = true;
    return {
      port,
      url: (user) => `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/postgres`,
      async stop() {
        try {
          await exec(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    if (!started) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
