import { describe, expect, it } from 'vitest';
import { assertAllNodesUsed, buildNode, newContext } from './build-read';
import { parseQuery } from './parse-query';
import { RestError } from './rest-error';
import type { ColumnInfo, SchemaCache, TableInfo } from './schema-cache';
import { Params } from './sql';

function table(name: string, columns: string[], primaryKey: string[] = ['id']): TableInfo {
  const infos: ColumnInfo[] = columns.map((column) => ({ name: column, type: 'text', nullable: true, hasDefault: false }));
  return { name, kind: 'table', columns: new Map(infos.map((c) => [c.name, c])), primaryKey, uniqueKeys: [primaryKey] };
}

const schema: SchemaCache = {
  tables: new Map([
    ['authors', table('authors', ['id', 'name'])],
    ['books', table('books', ['id', 'title', 'author_id', 'editor_id'])],
  ]),
  foreignKeys: [
    { name: 'books_author_id_fkey', table: 'books', columns: ['author_id'], refTable: 'authors', refColumns: ['id'] },
    { name: 'books_editor_id_fkey', table: 'books', columns: ['editor_id'], refTable: 'authors', refColumns: ['id'] },
  ],
  functions: new Map(),
  loadedAt: 0,
};

function build(root: string, qs: string) {
  const params = new Params();
  const query = parseQuery(new URLSearchParams(qs));
  const ctx = newContext(schema, params, query);
  const node = buildNode(ctx, schema.tables.get(root) as TableInfo, 't0', query.select, '');
  assertAllNodesUsed(ctx);
  return { sql: [...node.selectList, ...node.where].join(' '), values: params.values };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return error instanceof RestError ? error.code : 'not a RestError';
  }
  return 'no error';
}

describe('buildNode', () => {
  it('binds every filter value and never puts it in the SQL', () => {
    const hostile = "x'; drop table authors; --";
    const { sql, values } = build('authors', `name=eq.${encodeURIComponent(hostile)}&or=(name.like.*${encodeURIComponent('a%')}*,id.in.(1,2))`);
    expect(sql).not.toContain('drop table');
    expect(values).toEqual([hostile, '%a%%', '1', '2']);
    expect(sql).toContain('"t0"."name" = $1');
  });

  it('embeds one-to-many as a JSON array and many-to-one by hint as an object', () => {
    expect(build('authors', 'select=name,books!books_author_id_fkey(title)').sql).toMatch(/coalesce\(json_agg/);
    expect(build('books', 'select=title,author:authors!author_id(name)').sql).toMatch(/row_to_json/);
  });

  it('refuses an ambiguous embed (PGRST201) and an unknown relationship (PGRST200)', () => {
    expect(codeOf(() => build('books', 'select=authors(name)'))).toBe('PGRST201');
    expect(codeOf(() => build('authors', 'select=nothing(*)'))).toBe('PGRST200');
  });

  it('refuses unknown columns and filters on embeds not selected', () => {
    expect(codeOf(() => build('authors', 'select=nope'))).toBe('42703');
    expect(codeOf(() => build('authors', 'nope=eq.1'))).toBe('42703');
    expect(codeOf(() => build('authors', 'books.title=eq.x'))).toBe('PGRST108');
  });

  it('quotes identifiers even when they contain quotes', () => {
    const odd = table('odd', ['we"ird']);
    const params = new Params();
    const query = parseQuery(new URLSearchParams('select="we\\"ird"'));
    const node = buildNode(newContext({ ...schema, tables: new Map([['odd', odd]]) }, params, query), odd, 't0', query.select, '');
    expect(node.selectList[0]).toBe('"t0"."we""ird" AS "we""ird"');
  });
});
