import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import { DataDirLockedError } from '../../supabase/local/db/lock-file';
import { listMigrations } from '../../supabase/local/db/migrate';
import { migrationsDir, seedFile } from '../../supabase/local/db/paths';

const root = mkdtempSync(join(tmpdir(), 'storewise-db-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A fresh initdb on disk takes 2-3 s on an idle machine but far longer on a loaded CI box.
describe('a data folder across restarts', () => {
  it('applies every migration and the seed once, then only new migrations, keeping the data', async () => {
    const dataDir = join(root, 'data');
    const migrations = join(root, 'migrations');
    mkdirSync(migrations);
    const shipped = listMigrations(migrationsDir);
    for (const migration of shipped) copyFileSync(migration.path, join(migrations, `${migration.version}_${migration.name}.sql`));

    const first = await openDb({ dataDir, migrationsDir: migrations, seedFile });
    expect(first.kind).toBe('pglite');
    expect(first.prepared).toEqual({ fresh: true, applied: shipped.map((m) => m.version), seeded: true });
    const users = await first.query<{ n: number }>('select count(*)::int as n from auth.users');
    expect(users.rows[0]?.n).toBeGreaterThan(0);
    await first.query(`update public.profiles set full_name = 'Kept Across Restarts' where id = '22222222-2222-4222-8222-222222222222'`);

    // While it is open, a second opener is refused with a clear message.
    await expect(openDb({ dataDir, migrationsDir: migrations, seedFile })).rejects.toBeInstanceOf(DataDirLockedError);
    await first.close();

    writeFileSync(join(migrations, '29990101000000_add_note.sql'), 'create table public.restart_note (id int primary key);');
    const second = await openDb({ dataDir, migrationsDir: migrations, seedFile });
    try {
      expect(second.prepared).toEqual({ fresh: false, applied: ['29990101000000'], seeded: false });
      const kept = await second.query<{ full_name: string }>(
        `select full_name from public.profiles where id = '22222222-2222-4222-8222-222222222222'`,
      );
      expect(kept.rows[0]?.full_name).toBe('Kept Across Restarts');
      const recorded = await second.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version');
      expect(recorded.rows.map((row) => row.version)).toEqual([...shipped.map((m) => m.version), '29990101000000']);
    } finally {
      await second.close();
    }
  }, 240_000);

  it('rolls back a failing migration completely and reports which one failed', async () => {
    const dataDir = join(root, 'broken');
    const migrations = join(root, 'broken-migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '20000101000000_half.sql'), 'create table public.half_done (id int); select 1/0;');
    await expect(openDb({ dataDir, migrationsDir: migrations, seed: false })).rejects.toThrow(/20000101000000_half\.sql failed/);
    writeFileSync(join(migrations, '20000101000000_half.sql'), 'create table public.half_done (id int);');
    const db = await openDb({ dataDir, migrationsDir: migrations, seed: false });
    try {
      expect(db.prepared.applied).toEqual(['20000101000000']);
    } finally {
      await db.close();
    }
  }, 240_000);

  it('provides the roles, extensions and default grants hosted Supabase provides', async () => {
    const db = await openDb({ memory: true, seed: false });
    try {
      const roles = await db.query<{ rolname: string; rolbypassrls: boolean }>(
        `select rolname, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by rolname`,
      );
      expect(roles.rows).toEqual([
        { rolname: 'anon', rolbypassrls: false },
        { rolname: 'authenticated', rolbypassrls: false },
        { rolname: 'service_role', rolbypassrls: true },
      ]);
      const ext = await db.query<{ extname: string; nspname: string }>(
        `select e.extname, n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
          where e.extname in ('pgcrypto', 'pg_trgm') order by 1`,
      );
      expect(ext.rows).toEqual([
        { extname: 'pg_trgm', nspname: 'extensions' },
        { extname: 'pgcrypto', nspname: 'extensions' },
      ]);
      // New tables and sequences in public are granted to nobody, as on hosted Supabase today (docs/adr/0084).
      await db.exec('create table public.grant_probe (id int generated always as identity)');
      const grants = await db.query<{ grantee: string }>(
        `select distinct grantee from information_schema.role_table_grants where table_name = 'grant_probe' and grantee <> 'postgres' order by 1`,
      );
      expect(grants.rows.map((row) => row.grantee)).toEqual([]);
      const sequence = await db.query<{ usable: boolean }>(
        `select has_sequence_privilege('service_role', pg_get_serial_sequence('public.grant_probe', 'id'), 'usage') as usable`,
      );
      expect(sequence.rows).toEqual([{ usable: false }]);
    } finally {
      await db.close();
    }
  }, 240_000);
});
