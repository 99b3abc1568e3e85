import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

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

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Reads a file, or undefined when it is gone (released meanwhile). */
function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Creates path holding content, atomically: link() of a fully written private file either creates the
 * name or fails with EEXIST, so nobody ever reads a half-written lock (an empty one looked stale).
 */
function createWith(path: string, content: string): boolean {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** A takeover claim older than this belongs to a process that died in the middle of one (it takes microseconds). */
const abandonedClaimMs = 10_000;

/**
 * Removes the stale lock whose content is `stale`, if this process is the one to do it. Racing takers
 * each saw the same stale content; the claim file named after that content can be created by one of them
 * only, and the winner re-checks the lock still holds that content before removing it, so nobody ever
 * removes a fresh lock another taker has just created (the old rm-then-create let 3 of 60 races both win).
 */
function removeStale(lockPath: string, stale: string): void {
  const nonce = /^\d+ ([0-9a-f]{16,64})$/.exec(stale.trim())?.[1] ?? 'legacy';
  const claim = `${lockPath}.takeover-${nonce}`;
  if (!createWith(claim, String(process.pid))) {
    try {
      if (Date.now() - statSync(claim).mtimeMs > abandonedClaimMs) rmSync(claim, { force: true });
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
    }
    return;
  }
  try {
    if (readIfThere(lockPath) === stale) rmSync(lockPath, { force: true });
  } finally {
    rmSync(claim, { force: true });
  }
}

/** Waits a few milliseconds without an event loop (acquireLock runs before the servers start). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function acquireLock(lockPath: string, dataDir: string): Lock {
  // "pid nonce": the nonce tells this lock from a later one of a reused pid.
  const content = `${process.pid} ${randomBytes(16).toString('hex')}`;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (createWith(lockPath, content)) {
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          // Only our own lock: never one another process holds now.
          if (readIfThere(lockPath) === content) rmSync(lockPath, { force: true });
        },
      };
    }
    const existing = readIfThere(lockPath);
    if (existing === undefined) continue;
    const pid = Number.parseInt(existing.trim(), 10);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
    // Stale lock from a process that died without cleaning up: take it over (one taker only).
    removeStale(lockPath, existing);
    if (attempt > 0) pause(Math.min(20, attempt));
  }
  throw new Error(`Storewise: could not lock the data folder ${dataDir}.`);
}
