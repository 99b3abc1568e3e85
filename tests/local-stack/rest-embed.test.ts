/**
 * Foreign-key embeds through supabase-js. The Storewise tables all reference auth.users (not exposed),
 * so this suite adds a small fixture schema: authors, books with two foreign keys to authors (author
 * and editor, to exercise hints and ambiguity) and a one-to-one bios table.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchema } from '../../supabase/local/rest/schema-cache';
import { startStack, type StackHandle } from '../helpers/stack';
import { serviceClient } from './rest-test-clients';

let stack: StackHandle;
let api: SupabaseClient;

beforeAll(async () => {
  stack = await startStack({ seed: false });
  await stack.db.exec(`
    create table public.rest_fixture_authors (id int primary key, name text not null);
    create table public.rest_fixture_books (
      id int primary key, title text not null, year int,
      author_id int not null constraint books_author_fk references public.rest_fixture_authors (id),
      editor_id int constraint books_editor_fk references public.rest_fixture_authors (id)
    );
    create table public.rest_fixture_bios (author_id int primary key references public.rest_fixture_authors (id), bio text);
    grant select, insert, update, delete on public.rest_fixture_authors, public.rest_fixture_books, public.rest_fixture_bios to service_role;
    insert into public.rest_fixture_authors values (1, 'Ada'), (2, 'Brian'), (3, 'Chen');
    insert into public.rest_fixture_books values
      (10, 'Engines', 1843, 1, 2), (11, 'Notes', 1842, 1, null), (12, 'Unix', 1984, 2, 1), (13, 'Draft', null, 2, null);
    insert into public.rest_fixture_bios values (1, 'Mathematician');
  `);
  await reloadSchema(stack.db);
  api = serviceClient(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('embeds', () => {
  it('embeds many-to-one as an object, chosen by foreign key name or column', async () => {
    const { data, error } = await api
      .from('rest_fixture_books')
      .select('title, author:rest_fixture_authors!books_author_fk(name), editor:rest_fixture_authors!editor_id(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', author: { name: 'Ada' }, editor: { name: 'Brian' } },
      { title: 'Notes', author: { name: 'Ada' }, editor: null },
      { title: 'Unix', author: { name: 'Brian' }, editor: { name: 'Ada' } },
      { title: 'Draft', author: { name: 'Brian' }, editor: null },
    ]);
  });

  it('embeds one-to-many as an array with embedded filters, order and limit', async () => {
    const { data, error } = await api
      .from('rest_fixture_authors')
      .select('name, books:rest_fixture_books!books_author_fk(title, year)')
      .order('id')
      .order('year', { referencedTable: 'books', ascending: false, nullsFirst: false })
      .limit(1, { referencedTable: 'books' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ada', books: [{ title: 'Engines', year: 1843 }] },
      { name: 'Brian', books: [{ title: 'Unix', year: 1984 }] },
      { name: 'Chen', books: [] },
    ]);
  });

  it('embeds one-to-one (unique foreign key) as an object and nests embeds', async () => {
    const { data } = await api
      .from('rest_fixture_bios')
      .select('bio, rest_fixture_authors(name, rest_fixture_bios(bio))')
      .single();
    expect(data).toEqual({ bio: 'Mathematician', rest_fixture_authors: { name: 'Ada', rest_fixture_bios: { bio: 'Mathematician' } } });
  });

  it('filters parents with !inner and on embed presence', async () => {
    const inner = await api
      .from('rest_fixture_authors')
      .select('name, rest_fixture_books!books_author_fk!inner(title)')
      .eq('rest_fixture_books.title', 'Unix');
    expect(inner.data).toEqual([{ name: 'Brian', rest_fixture_books: [{ title: 'Unix' }] }]);
    const withBio = await api.from('rest_fixture_authors').select('name, rest_fixture_bios(bio)').not('rest_fixture_bios', 'is', null);
    expect(withBio.data).toEqual([{ name: 'Ada', rest_fixture_bios: { bio: 'Mathematician' } }]);
    const left = await api.from('rest_fixture_authors').select('name, rest_fixture_books!books_author_fk(title)').eq('rest_fixture_books.title', 'Unix').order('id');
    expect(left.data?.map((row) => row.rest_fixture_books.length)).toEqual([0, 1, 0]);
  });

  it('reports an ambiguous embed (300 PGRST201) and a missing relationship (400 PGRST200)', async () => {
    const ambiguous = await api.from('rest_fixture_books').select('title, rest_fixture_authors(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error?.code).toBe('PGRST201');
    expect(ambiguous.error?.hint).toContain('rest_fixture_authors!books_author_fk');
    const missing = await api.from('rest_fixture_bios').select('bio, rest_fixture_books(title)');
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: 'PGRST200', message: "Could not find a relationship between 'rest_fixture_bios' and 'rest_fixture_books' in the schema cache" });
    const profiles = await api.from('support_tickets').select('*, profiles(full_name)');
    expect(profiles.error?.code).toBe('PGRST200');
  });

  it('embeds in the representation of a write', async () => {
    const { data, error } = await api
      .from('rest_fixture_books')
      .insert({ id: 14, title: 'Sequel', author_id: 3 })
      .select('title, author:rest_fixture_authors!books_author_fk(name)')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'Sequel', author: { name: 'Chen' } });
  });
});
