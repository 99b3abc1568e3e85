import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, existsSync, writeFileSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, DataDirLockedError } from './lock-file';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'storewise-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Pids are far below this on Linux (pid_max is at most 4194304).
const deadPid = '999999999';

describe('acquireLock', () => {
  it('refuses a second holder while the first is alive, with a message naming the folder', () => {
    const dir = tempDir();
    const lockPath = join(dir, 'storewise.lock');
    const lock = acquireLock(lockPath, dir);
    expect(() => acquireLock(lockPath, dir)).toThrow(DataDirLockedError);
    expect(() => acquireLock(lockPath, dir)).toThrow(`data folder ${dir} is already in use`);
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
    acquireLock(lockPath, dir).release();
  });

  it('takes over a lock whose process is gone, leaving no helper files behind', () => {
    const dir = tempDir();
    const lockPath = join(dir, 'storewise.lock');
    writeFileSync(lockPath, deadPid);
    const lock = acquireLock(lockPath, dir);
    expect(existsSync(lockPath)).toBe(true);
    expect(() => acquireLock(lockPath, dir)).toThrow(DataDirLockedError);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a release does not remove a lock that another process holds now', () => {
    const dir = tempDir();
    const lockPath = join(dir, 'storewise.lock');
    const lock = acquireLock(lockPath, dir);
    // As if the folder had been wiped and another process had locked it since.
    writeFileSync(lockPath, `${process.ppid}`);
    lock.release();
    expect(existsSync(lockPath)).toBe(true);
  });
});

describe('acquireLock raced by many processes', () => {
  const fixture = fileURLToPath(new URL('./lock-taker.fixture.ts', import.meta.url));
  const takers = 10;
  const rounds = 25;

  function startTaker(): { child: ChildProcessWithoutNullStreams; next: () => Promise<string> } {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: 'pipe' });
    const lines: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    });
    const next = () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiting.push(resolve)));
    return { child, next };
  }

  it('exactly one of them wins, on a free folder and over a stale lock from a killed process', async () => {
    const all = Array.from({ length: takers }, startTaker);
    try {
      expect(await Promise.all(all.map((taker) => taker.next()))).toEqual(Array(takers).fill('ready'));
      const dir = tempDir();
      const lockPath = join(dir, 'storewise.lock');
      for (let round = 0; round < rounds; round += 1) {
        // Odd rounds: a killed process left its lock behind.
        if (round % 2 === 1) writeFileSync(lockPath, deadPid);
        for (const { child } of all) child.stdin.write(`go ${lockPath}\n`);
        const results = await Promise.all(all.map((taker) => taker.next()));
        expect(results.filter((result) => result === 'won'), `round ${round}: ${results.join(',')}`).toHaveLength(1);
        expect(results.filter((result) => result === 'locked')).toHaveLength(takers - 1);
        for (const { child } of all) child.stdin.write('release\n');
        await Promise.all(all.map((taker) => taker.next()));
        expect(existsSync(lockPath)).toBe(false);
      }
    } finally {
      for (const { child } of all) child.kill();
    }
  }, 60_000);
});
