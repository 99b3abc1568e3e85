import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../db/paths';
import type { EdgeFunction } from './function-config';

interface Running {
  child: ChildProcess;
  port: number;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

/**
 * One Deno process per function, started on first use (or by warm()) and kept, like the edge runtime's
 * workers. Deno resolves npm imports from this repository's node_modules (--node-modules-dir=manual), so the
 * stack needs no network; the deployed function resolves the same names through its deno.json.
 */
export class DenoRunner {
  private readonly running = new Map<string, Promise<Running>>();
  private stopped = false;

  constructor(
    private readonly env: () => Record<string, string>,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  /** The port the function listens on, starting it when needed. */
  async portOf(fn: EdgeFunction): Promise<number> {
    let started = this.running.get(fn.name);
    if (!started) {
      started = this.start(fn);
      this.running.set(fn.name, started);
      // A failed start is retried by the next request instead of failing forever.
      started.catch(() => this.running.delete(fn.name));
    }
    return (await started).port;
  }

  private async start(fn: EdgeFunction): Promise<Running> {
    if (this.stopped) throw new Error('the functions runtime is stopped');
    const port = await freePort();
    const deno = join(repoRoot, 'node_modules', '.bin', 'deno');
    const child = spawn(deno, ['run', '--node-modules-dir=manual', '--no-lock', '--allow-net', '--allow-env', '--allow-read',
      '--no-prompt', fn.entry], {
      env: {
        PATH: process.env.PATH ?? '',
        DENO_DIR: process.env.DENO_DIR ?? join(tmpdir(), 'storewise-deno-cache'),
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
        DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`,
        ...this.env(),
      },
      // Deno resolves bare npm names through the repository's package.json and node_modules.
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Promise<Running>((done, fail) => {
      let output = '';
      let ready = false;
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        if (ready) {
          // The function's own log lines (console.error): shown like `supabase functions serve` does.
          for (const line of text.split('\n')) if (line.trim()) this.log(`[${fn.name}] ${line}`);
          return;
        }
        output += text;
        if (output.includes('Listening on')) {
          ready = true;
          done({ child, port });
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        this.running.delete(fn.name);
        // The reason is the runtime's error line (a missing secret, a syntax error), not the whole trace.
        const errorLine = output.split('\n').find((line) => /error/i.test(line))?.trim() ?? output.trim();
        const reason = errorLine.replace(/^.*?Error:\s*/, '');
        if (!ready) fail(new Error(`Edge Function ${fn.name} is not running (exit ${code}: ${reason.slice(0, 300)}); it answers 503 until that is fixed`));
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map(async (started) => {
      const running = await started.catch(() => undefined);
      if (!running || running.child.exitCode !== null) return;
      await new Promise<void>((done) => {
        running.child.once('exit', () => done());
        running.child.kill();
      });
    }));
  }
}
