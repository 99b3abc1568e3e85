/**
 * A child process for lock-file.test.ts: on each "go <lockPath>" line it tries to take the lock and prints
 * "won" or "locked"; "release" gives it back. Many of these racing prove that exactly one wins.
 */
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { acquireLock, DataDirLockedError, type Lock } from './lock-file';

let held: Lock | undefined;
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, lockPath] = line.split(' ');
  if (command === 'go' && lockPath) {
    try {
      held = acquireLock(lockPath, dirname(lockPath));
      process.stdout.write('won\n');
    } catch (error) {
      process.stdout.write(error instanceof DataDirLockedError ? 'locked\n' : `error ${(error as Error).message}\n`);
    }
  } else if (command === 'release') {
    held?.release();
    held = undefined;
    process.stdout.write('released\n');
  }
});
process.stdout.write('ready\n');
