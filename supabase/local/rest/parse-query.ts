/**
 * Turns a request's query string into what the SQL builders need: the select tree and, for the root
 * and each embedded resource (`profiles.full_name=eq.x`, `profiles.order=...`), its filters, order
 * and limit/offset.
 */
import type { FilterNode } from './parse-filter';
import { parseCondition, parseLogic } from './parse-filter';
import type { OrderTerm } from './parse-order';
import { parseOrder } from './parse-order';
import type { SelectItem } from './parse-select';
import { parseSelect } from './parse-select';
import { Cursor } from './cursor';
import { parseError } from './rest-error';

export interface NodeParams {
  filters: FilterNode[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface ParsedQuery {
  select: SelectItem[];
  /** Root is "", an embed is its path of output names joined by "." (e.g. "author.books"). */
  nodes: Map<string, NodeParams>;
  /** `columns=` of an insert. */
  columns?: string[];
  /** `on_conflict=` of an upsert. */
  onConflict?: string[];
  /** Query parameters that were function arguments (GET /rpc). */
  rpcArgs: Map<string, string>;
}

/** Splits `a.b."c.d"` into segments, honouring quotes. */
function splitKey(key: string): string[] {
  const cursor = new Cursor(key, 'filter key');
  const segments: string[] = [];
  for (;;) {
    if (cursor.peek() === '"') segments.push(cursor.quoted());
    else {
      const start = cursor.pos;
      while (!cursor.done && cursor.peek() !== '.') cursor.pos += 1;
      segments.push(cursor.input.slice(start, cursor.pos));
    }
    if (cursor.done) return segments;
    cursor.expect('.');
  }
}

function nonNegativeInt(name: string, raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw parseError(name, raw, 'expecting a non-negative integer');
  return Number(raw);
}

function nameList(name: string, raw: string): string[] {
  const cursor = new Cursor(raw, name);
  const names: string[] = [];
  for (;;) {
    names.push(cursor.name());
    if (cursor.done) return names;
    cursor.expect(',');
  }
}

export function parseQuery(params: URLSearchParams, rpcArgNames: ReadonlySet<string> = new Set()): ParsedQuery {
  const parsed: ParsedQuery = { select: [{ kind: 'star' }], nodes: new Map([['', { filters: [] }]]), rpcArgs: new Map() };
  const node = (path: string[]): NodeParams => {
    const key = path.join('.');
    let found = parsed.nodes.get(key);
    if (!found) {
      found = { filters: [] };
      parsed.nodes.set(key, found);
    }
    return found;
  };

  for (const [key, value] of params) {
    if (key === 'select') {
      parsed.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      parsed.columns = nameList('columns', value);
      continue;
    }
    if (key === 'on_conflict') {
      parsed.onConflict = nameList('on_conflict', value);
      continue;
    }
    // Some clients also put the API key in the query string; the gateway has checked it already.
    if (key === 'apikey') continue;
    if (rpcArgNames.has(key)) {
      parsed.rpcArgs.set(key, value);
      continue;
    }
    const segments = splitKey(key);
    const last = segments.at(-1) ?? '';
    if (last === 'or' || last === 'and') {
      const negate = segments.at(-2) === 'not';
      const path = segments.slice(0, negate ? -2 : -1);
      node(path).filters.push(parseLogic(last, negate, value));
    } else if (last === 'order') {
      node(segments.slice(0, -1)).order = parseOrder(value);
    } else if (last === 'limit') {
      node(segments.slice(0, -1)).limit = nonNegativeInt('limit', value);
    } else if (last === 'offset') {
      node(segments.slice(0, -1)).offset = nonNegativeInt('offset', value);
    } else {
      if (last === '') throw parseError('filter', key, 'expecting a column name');
      node(segments.slice(0, -1)).filters.push(parseCondition(last, value));
    }
  }
  return parsed;
}
