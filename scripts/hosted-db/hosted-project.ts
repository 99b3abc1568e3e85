/**
 * A database shaped like a hosted Supabase project, with this repository's migrations (and optionally the
 * seed) applied by the real CLI's `supabase db push`, exactly as a deploy does: a PostgreSQL 15 server,
 * supabase/local/db/bootstrap.sql for the roles, extensions and auth schema, hosted-platform.sql for
 * what the platform adds (postgres without superuser, authenticator, no automatic grants).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { bootstrapFile } from '../../supabase/local/db/paths';
import { startPgServer, type PgServer } from './pg-server';
import { runSupabaseOk, type CliResult } from './supabase-cli';

const platformFile = new URL('./hosted-platform.sql', import.meta.url);

export interface HostedProject {
  server: PgServer;
  /** The owner's connection, as the CLI and the dashboard's SQL editor use it (not a superuser). */
  postgresUrl: string;
  /** What `supabase db push` printed. */
  push: CliResult;
  stop(): Promise<void>;
}

/** A PostgreSQL 15 server shaped like a new hosted project, before any migration. */
export async function startHostedServer(): Promise<PgServer> {
  const server = await startPgServer();
  try {
    const admin = new pg.Client({ connectionString: server.url('supabase_admin') });
    await admin.connect();
    try {
      await admin.query(readFileSync(bootstrapFile, 'utf8'));
      await admin.query(readFileSync(platformFile, 'utf8'));
    } finally {
      await admin.end();
    }
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function startHostedProject(options: { seed: boolean }): Promise<HostedProject> {
  const server = await startHostedServer();
  try {
    const postgresUrl = server.url('postgres');
    const push = await runSupabaseOk(['db', 'push', `--remote=${postgresUrl}`, '--yes', ...(options.seed ? ['--include-seed'] : [])]);
    return { server, postgresUrl, push, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
