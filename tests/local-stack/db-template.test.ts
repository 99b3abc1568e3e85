/**
 * The prepared folder every integration file copies (open-db.ts buildTemplate) keeps only the WAL segment its clean
 * shutdown needs, nearly empty, and a copy of it still moves on to new segments and opens again with its data
 * (docs/adr/0380).
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SHARED_TEMPLATES_ENV, templateKey } from '../../supabase/local/db/open-db';
import { openPgliteDb } from '../../supabase/local/db/pglite-db';

const copy = mkdtempSync(join(tmpdir(), 'storewise-template-copy-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const segments = (dir: string) => readdirSync(join(dir, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name));

it('keeps one WAL segment with room; a copy moves past it and reopens with its rows', async () => {
  const template = (JSON.parse(process.env[SHARED_TEMPLATES_ENV] ?? '{}') as Record<string, string>)[templateKey({ seed: true })];
  expect(template).toBeTruthy();
  expect(segments(template!)).toHaveLength(1);

  cpSync(template!, copy, { recursive: true });
  const first = await openPgliteDb({ dataDir: copy, location: 'memory' });
  const used = await first.query<{ bytes: number }>(
    `select (pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint % (16 * 1024 * 1024))::int as bytes`);
  expect(used.rows[0]?.bytes).toBeLessThan(1024 * 1024);
  // Rows in a segment the template did not have (a switch moves the WAL to the next one).
  await first.query('select pg_switch_wal()');
  await first.query(`create table public.template_growth as select g from generate_series(1, 1000) g`);
  await first.close();
  expect(segments(copy).length).toBeGreaterThan(1);

  const second = await openPgliteDb({ dataDir: copy, location: 'memory' });
  try {
    expect((await second.query<{ n: number }>('select count(*)::int as n from public.template_growth')).rows[0]?.n).toBe(1000);
    expect((await second.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0]?.n).toBeGreaterThan(0);
  } finally {
    await second.close();
  }
});
