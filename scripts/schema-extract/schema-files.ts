/**
 * The schema files in the order they apply: config.toml's [db.migrations] schema_paths, the list the
 * Supabase CLI itself reads for declarative schemas (paths relative to supabase/).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { repoRoot } from '../../supabase/local/db/paths';

export const supabaseDir = join(repoRoot, 'supabase');

export function schemaFiles(configFile = join(supabaseDir, 'config.toml')): string[] {
  const config = parse(readFileSync(configFile, 'utf8')) as { db?: { migrations?: { schema_paths?: string[] } } };
  const paths = config.db?.migrations?.schema_paths ?? [];
  return paths.map((path) => resolve(supabaseDir, path));
}
