/**
 * Runs one Edge Function entry (supabase/functions/<name>/index.ts) under the `deno` devDependency on a free
 * local port, the way the platform would serve it, until the embedded stack serves /functions/v1 itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DenoFunction {
  url: string;
  stop(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

export async function startDenoFunction(entry: string, env: Record<string, string>): Promise<DenoFunction> {
  const port = await freePort();
  const deno: ChildProcess = spawn(
    join('node_modules', '.bin', 'deno'),
    ['run', '--node-modules-dir=manual', '--no-lock', '--allow-net=127.0.0.1', '--allow-env', '--no-prompt', entry],
    {
      env: {
        PATH: process.env.PATH ?? '',
        DENO_DIR: join(tmpdir(), 'storewise-deno-cache'),
        DENO_NO_UPDATE_CHECK: '1',
        DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Listening on')) resolve();
    };
    deno.stdout?.on('data', onData);
    deno.stderr?.on('data', onData);
    deno.once('exit', (code) => reject(new Error(`deno exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => deno.kill() };
}
