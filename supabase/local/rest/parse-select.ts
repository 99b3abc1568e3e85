/**
 * Parses PostgREST's `select` parameter: columns, `alias:column`, `column::cast`, `*`, and
 * foreign-key embeds `alias:table!hint!inner(...)`, nested to any depth.
 */
import { Cursor } from './cursor';

export type JoinType = 'inner' | 'left';

export interface SelectColumn {
  kind: 'column';
  name: string;
  alias?: string;
  cast?: string;
}

export interface SelectEmbed {
  kind: 'embed';
  /** A table name (or, with a hint, the table reached through that foreign key). */
  name: string;
  alias?: string;
  /** Foreign key constraint name or one of its columns, to choose among several relationships. */
  hint?: string;
  joinType: JoinType;
  items: SelectItem[];
}

export type SelectItem = { kind: 'star' } | SelectColumn | SelectEmbed;

/** Casts allowed in `col::type`: a fixed list, so the type name never comes from the request. */
export const ALLOWED_CASTS: ReadonlySet<string> = new Set([
  'text', 'varchar', 'int', 'int2', 'int4', 'int8', 'integer', 'smallint', 'bigint', 'numeric', 'real',
  'float4', 'float8', 'double precision', 'boolean', 'bool', 'date', 'time', 'timestamp', 'timestamptz',
  'uuid', 'json', 'jsonb',
]);

function items(cursor: Cursor, closing: string): SelectItem[] {
  const result: SelectItem[] = [];
  if (cursor.peek() === closing || (closing === '' && cursor.done)) return result;
  for (;;) {
    result.push(item(cursor));
    if (!cursor.accept(',')) break;
  }
  return result;
}

function item(cursor: Cursor): SelectItem {
  if (cursor.accept('*')) return { kind: 'star' };
  if (cursor.startsWith('...')) throw cursor.fail('spread embeds (...) are not supported by the local stack');
  let name = cursor.name();
  let alias: string | undefined;
  if (cursor.peek() === ':' && cursor.peek(1) !== ':') {
    cursor.pos += 1;
    alias = name;
    name = cursor.name();
  }
  if (cursor.startsWith('->')) throw cursor.fail('JSON paths are not supported by the local stack');
  if (cursor.peek() === '!' || cursor.peek() === '(') return embed(cursor, name, alias);
  let cast: string | undefined;
  if (cursor.accept('::')) {
    const start = cursor.pos;
    while (!cursor.done && /[a-z0-9 ]/.test(cursor.peek())) cursor.pos += 1;
    cast = cursor.input.slice(start, cursor.pos).trim();
    if (!ALLOWED_CASTS.has(cast)) {
      cursor.pos = start;
      throw cursor.fail(`expecting one of the casts ${[...ALLOWED_CASTS].join(', ')}`);
    }
  }
  return { kind: 'column', name, ...(alias === undefined ? {} : { alias }), ...(cast === undefined ? {} : { cast }) };
}

function embed(cursor: Cursor, name: string, alias: string | undefined): SelectEmbed {
  let hint: string | undefined;
  let joinType: JoinType = 'left';
  while (cursor.accept('!')) {
    const word = cursor.name();
    if (word === 'inner' || word === 'left') joinType = word;
    else if (hint === undefined) hint = word;
    else throw cursor.fail('expecting "inner" or "left"');
  }
  cursor.expect('(');
  const children = items(cursor, ')');
  cursor.expect(')');
  return { kind: 'embed', name, joinType, items: children, ...(alias === undefined ? {} : { alias }), ...(hint === undefined ? {} : { hint }) };
}

/** Parses a whole select list; an empty string means `*`. */
export function parseSelect(input: string): SelectItem[] {
  if (input.trim() === '') return [{ kind: 'star' }];
  const cursor = new Cursor(input, 'select');
  const result = items(cursor, '');
  if (!cursor.done) throw cursor.fail('expecting "," or end of input');
  return result;
}

/** The key an item has in the JSON output (and the name embedded filters use). */
export function outputName(entry: SelectColumn | SelectEmbed): string {
  return entry.alias ?? entry.name;
}
