import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import type { Db } from '../db/types';
import { logUnexpected } from '../log-unexpected';
import { startPeriodicTask, type PeriodicTask } from '../periodic-task';
import { DEFAULT_FILE_SIZE_LIMIT } from './bucket-rules';
import { FileStore } from './file-store';
import { liveVersions } from './object-rows';
import { UrlSigner } from './signed-token';
import { createStorageApp } from './storage-app';

export interface StorageServiceOptions {
  db: Db;
  jwtSecret: string;
  /** Where the files live: <data folder>/storage; none (in-memory stacks) means a temporary folder removed at stop. */
  dir?: string;
  /** The service's upload limit (default 50 MB, as hosted's free plan). */
  maxFileSize?: number;
  /** How often files whose rows are gone are removed (default every 10 minutes). */
  sweepIntervalMs?: number;
}

export interface StorageService {
  app: Hono;
  files: FileStore;
  /** Removes files whose rows were deleted outside the API (a business deleted with its rows). */
  sweep(minAgeMs?: number): Promise<number>;
  stop(): Promise<void>;
}

/** The embedded Storage service: its HTTP app, its files and the sweep that keeps files and rows together. */
export function startStorageService(options: StorageServiceOptions): StorageService {
  const temporary = options.dir ? undefined : mkdtempSync(join(tmpdir(), `storewise-storage-${process.pid}-`));
  const files = new FileStore(options.dir ?? temporary!);
  const deps = { db: options.db, files, signer: new UrlSigner(options.jwtSecret), maxFileSize: options.maxFileSize ?? DEFAULT_FILE_SIZE_LIMIT };
  const sweep = (minAgeMs?: number) => files.sweep((versions) => liveVersions(options.db, versions), minAgeMs);
  // Leftovers of a crash (a file renamed into place whose row never committed) go at start.
  const initialSweep = sweep().catch((error: unknown) => logUnexpected('Storewise storage: sweep failed', error));
  const task: PeriodicTask = startPeriodicTask(sweep, options.sweepIntervalMs ?? 10 * 60_000, (error) =>
    logUnexpected('Storewise storage: sweep failed', error),
  );
  return {
    app: createStorageApp(deps, options.jwtSecret),
    files,
    sweep,
    async stop() {
      await initialSweep;
      await task.stop();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
