import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/**
 * One process per data folder: two PGlite processes on the same folder silently lose rows, so the
 * second start is refused with a clear message. A lock left by a killed process (its pid is gone) is
 * taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Storewise: the data folder ${dataDir} is already in use by another Storewise process (pid ${pid}). ` +
        'Stop that process first (Ctrl-C in its terminal), or start with --data-dir <another folder> or --memory.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface Lock {
  release(): void;
}

export function acquireLock(lockPath: string, dataDir: string): Lock {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
      // Stale lock from a process that died without cleaning up: take it over.
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Storewise: could not lock the data folder ${dataDir}.`);
}
