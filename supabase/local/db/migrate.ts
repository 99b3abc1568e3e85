import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalDb } from './local-db';
import { bootstrapFile, migrationsDir as defaultMigrationsDir, seedFile as defaultSeedFile } from './paths';

export interface PrepareOptions {
  migrationsDir?: string;
  seedFile?: string;
  /** Apply the seed on a new database (default true). */
  seed?: boolean;
}

export interface PrepareResult {
  /** True when no migration had been recorded before this run. */
  fresh: boolean;
  /** Migration versions applied by this run, in order. */
  applied: string[];
  seeded: boolean;
}

const migrationName = /^(\d+)_(.+)\.sql$/;

export function listMigrations(dir: string): { version: string; name: string; path: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => migrationName.test(file))
    .sort()
    .map((file) => {
      const [, version = '', name = ''] = migrationName.exec(file) ?? [];
      return { version, name, path: join(dir, file) };
    });
}

/**
 * Bootstrap (what hosted Supabase provides), then every migration not yet recorded, each in its own
 * transaction together with its record, then the seed when the database is new.
 */
export async function prepareDatabase(db: LocalDb, options: PrepareOptions = {}): Promise<PrepareResult> {
  // Two statements: a single CASE would still make the planner resolve the missing table.
  const exists = await db.query<{ found: boolean }>(
    `select to_regclass('supabase_migrations.schema_migrations') is not null as found`,
  );
  const fresh =
    !exists.rows[0]?.found ||
    (await db.query<{ recorded: number }>('select count(*)::int as recorded from supabase_migrations.schema_migrations'))
      .rows[0]?.recorded === 0;

  await db.exec(readFileSync(bootstrapFile, 'utf8'));

  const recorded = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
      (row) => row.version,
    ),
  );
  const applied: string[] = [];
  for (const migration of listMigrations(options.migrationsDir ?? defaultMigrationsDir)) {
    if (recorded.has(migration.version)) continue;
    const sql = readFileSync(migration.path, 'utf8');
    try {
      await db.ownerTransaction(async (tx) => {
        await tx.exec(sql);
        await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [
          migration.version,
          migration.name,
        ]);
      });
    } catch (error) {
      throw new Error(`Storewise: migration ${migration.version}_${migration.name}.sql failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    applied.push(migration.version);
  }

  let seeded = false;
  const seedPath = options.seedFile ?? defaultSeedFile;
  // The seed file is optional (tolerated while it does not exist yet).
  if (fresh && options.seed !== false && existsSync(seedPath)) {
    const sql = readFileSync(seedPath, 'utf8');
    try {
      await db.ownerTransaction((tx) => tx.exec(sql));
    } catch (error) {
      throw new Error(`Storewise: supabase/seed.sql failed: ${(error as Error).message}`, { cause: error });
    }
    seeded = true;
  }
  return { fresh, applied, seeded };
}
