/**
 * A hosted-shaped PostgreSQL 15 given the declarative schema instead of the migrations: the files of
 * config.toml's schema_paths applied in order by postgres (not a superuser, as on hosted), each in one
 * transaction. The equality test and `npm run db:diff` compare it with the migrations' database.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import pg from 'pg';
import { repoRoot } from '../../supabase/local/db/paths';
import { schemaFiles } from '../schema-extract/schema-files';
import { startHostedServer } from './hosted-project';
import type { PgServer } from './pg-server';

export interface SchemaProject {
  server: PgServer;
  postgresUrl: string;
  stop(): Promise<void>;
}

export async function applySchemaFiles(postgresUrl: string, files = schemaFiles()): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    for (const file of files) {
      try {
        await client.query('begin');
        await client.query(readFileSync(file, 'utf8'));
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw new Error(`${relative(repoRoot, file)} does not apply: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.end();
  }
}

export async function startSchemaProject(): Promise<SchemaProject> {
  const server = await startHostedServer();
  try {
    const postgresUrl = server.url('postgres');
    await applySchemaFiles(postgresUrl);
    return { server, postgresUrl, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
