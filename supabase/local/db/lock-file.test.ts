import { mkdtempSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('takes over a lock whose process is gone', () => {
    const dir = tempDir();
    const lockPath = join(dir, 'storewise.lock');
    // Pids are far below this on Linux (pid_max is at most 4194304).
    writeFileSync(lockPath, '999999999');
    const lock = acquireLock(lockPath, dir);
    expect(existsSync(lockPath)).toBe(true);
    lock.release();
  });
});
