/**
 * Every column that points at a person is classified (delete, anonymise, retain) in
 * supabase/privacy/data-classification.ts (docs/adr/0209): this fails when a migration adds such a column without a
 * line there, or when a listed column is gone.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { personalDataColumns } from '../../supabase/privacy/data-classification';
import { startStack, type StackHandle } from '../helpers/stack';

let stack: StackHandle;
beforeAll(async () => {
  stack = await startStack({ seed: false });
});
afterAll(async () => stack?.stop());

it('classifies every column linked to a user, a profile or a customer', async () => {
  const { rows } = await stack.db.query<{ column_name: string }>(readFileSync('supabase/privacy/personal-columns.sql', 'utf8'));
  const unclassified = rows.map((row) => row.column_name).filter((name) => !(name in personalDataColumns));
  expect(unclassified, 'add these to supabase/privacy/data-classification.ts').toEqual([]);
});

it('lists only columns that exist', async () => {
  const { rows } = await stack.db.query<{ column_name: string }>(
    `select n.nspname || '.' || c.relname || '.' || a.attname as column_name
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'private') and a.attnum > 0 and not a.attisdropped`,
  );
  const existing = new Set(rows.map((row) => row.column_name));
  expect(Object.keys(personalDataColumns).filter((name) => !existing.has(name))).toEqual([]);
});
