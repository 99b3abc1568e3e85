import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

/** The repository root (this file lives in supabase/local/db/). */
export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export const defaultDataDir = join(repoRoot, '.storewise');
export const migrationsDir = join(repoRoot, 'supabase', 'migrations');
export const seedFile = join(repoRoot, 'supabase', 'seed.sql');
export const bootstrapFile = fileURLToPath(new URL('./bootstrap.sql', import.meta.url));
