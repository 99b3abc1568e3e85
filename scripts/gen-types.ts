/**
 * `npm run types:gen`: writes shared/lib/database.types.ts from the migrations, by applying them to a
 * fresh in-memory local database and reading the catalog (what `supabase gen types typescript` does
 * against a running project, without needing Docker or the CLI).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDb } from '../supabase/local/db/open-db';
import { repoRoot } from '../supabase/local/db/paths';
import type { Queryable } from '../supabase/local/db/types';
import { introspectSchema } from './db-types/introspect';
import { renderDatabaseTypes } from './db-types/render';

/** The schemas the data API exposes, as `supabase gen types typescript --schema public`. */
const exposedSchemas = ['public'];

export const databaseTypesFile = join(repoRoot, 'shared', 'lib', 'database.types.ts');

/** The text of shared/lib/database.types.ts for a database that has the migrations applied. */
export async function generateDatabaseTypes(db: Queryable): Promise<string> {
  const schemas = [];
  for (const name of exposedSchemas) schemas.push(await introspectSchema(db, name));
  return renderDatabaseTypes(schemas);
}

async function main(): Promise<void> {
  // The seed adds rows, not types: skip it.
  const db = await openDb({ memory: true, seed: false });
  try {
    const text = await generateDatabaseTypes(db);
    let previous = '';
    try {
      previous = readFileSync(databaseTypesFile, 'utf8');
    } catch {
      // First generation: nothing to compare with.
    }
    if (previous === text) {
      console.log('shared/lib/database.types.ts is up to date');
      return;
    }
    writeFileSync(databaseTypesFile, text);
    console.log('wrote shared/lib/database.types.ts');
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
