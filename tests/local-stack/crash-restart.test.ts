import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';

const root = mkdtempSync(join(tmpdir(), 'storewise-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const writer = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

describe('killing the process during writes', () => {
  it('loses no committed row, and the data folder opens again', async () => {
    const dataDir = join(root, 'data');
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const committed: number[] = [];
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          const match = /^committed (\d+)$/.exec(line);
          if (match) committed.push(Number(match[1]));
          // Kill in the middle of a stream of writes, without warning.
          if (committed.length === 40) child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(child.signalCode).toBe('SIGKILL');
    expect(committed.length).toBeGreaterThanOrEqual(40);

    // The stale lock of the killed process is taken over; recovery replays the WAL.
    const db = await openDb({ dataDir });
    try {
      const rows = await db.query<{ n: number }>('select n from public.crash_probe order by n');
      const stored = new Set(rows.rows.map((row) => row.n));
      for (const n of committed) expect(stored.has(n)).toBe(true);
      const again = await db.query(`insert into public.crash_probe (n, payload) values (-1, 'after restart') returning n`);
      expect(again.rows).toEqual([{ n: -1 }]);
    } finally {
      await db.close();
    }
  }, 240_000);
});
