/**
 * Parses PostgREST filters: `col=[not.]op[(any|all)].value`, in-lists `in.(a,"b,c")`, and the logic
 * trees of `or=(...)` / `and=(...)` with nested `and(...)`, `or(...)` and `not.` prefixes.
 */
import { Cursor } from './cursor';
import { parseError } from './rest-error';

export const OPERATORS = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in',
  'cs', 'cd', 'ov', 'sl', 'sr', 'nxl', 'nxr', 'adj', 'fts', 'plfts', 'phfts', 'wfts',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Operators that take the `(any)` / `(all)` modifier with a `{a,b}` list. */
const QUANTIFIABLE: ReadonlySet<Operator> = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FTS: ReadonlySet<Operator> = new Set(['fts', 'plfts', 'phfts', 'wfts']);
const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;
export type IsValue = (typeof IS_VALUES)[number];

export interface Condition {
  kind: 'condition';
  column: string;
  negate: boolean;
  op: Operator;
  quantifier?: 'any' | 'all';
  /** A single value, or the list of `in` and of quantified operators. */
  value: string | string[];
  ftsConfig?: string;
}

export interface Logic {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: FilterNode[];
}

export type FilterNode = Condition | Logic;

function isOperator(word: string): word is Operator {
  return (OPERATORS as readonly string[]).includes(word);
}

/** Splits `(a,"b,c",d)` or `{a,b}` into values; quotes protect commas and parentheses. */
export function parseList(raw: string, open: '(' | '{', what: string): string[] {
  const close = open === '(' ? ')' : '}';
  if (!raw.startsWith(open) || !raw.endsWith(close)) {
    throw parseError(what, raw, `expecting a list in "${open}${close}"`);
  }
  const cursor = new Cursor(raw.slice(1, -1), what);
  const values: string[] = [];
  if (cursor.done) return values;
  for (;;) {
    if (cursor.peek() === '"') values.push(cursor.quoted());
    else {
      const start = cursor.pos;
      while (!cursor.done && cursor.peek() !== ',') {
        if ('"()'.includes(cursor.peek())) throw cursor.fail('expecting "," (quote values that contain parentheses)');
        cursor.pos += 1;
      }
      values.push(cursor.input.slice(start, cursor.pos));
    }
    if (cursor.done) break;
    cursor.expect(',');
  }
  return values;
}

/**
 * Parses the right-hand side of a filter (`not.eq.5`, `in.(1,2)`, `is.null`, `fts(english).cat`).
 * Inside logic trees the value was already cut out and quoted values unwrapped by the caller.
 */
export function parseCondition(column: string, raw: string, what = 'filter'): Condition {
  let rest = raw;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([^)]*)\))?\./.exec(rest);
  if (!match) throw parseError(what, raw, 'expecting "operator.value", e.g. "eq.1"');
  const [head, opWord = '', modifier] = match;
  if (!isOperator(opWord)) throw parseError(what, raw, `unknown operator "${opWord}"; expecting one of ${OPERATORS.join(', ')}`);
  const op = opWord;
  const value = rest.slice(head.length);
  const condition: Condition = { kind: 'condition', column, negate, op, value };

  if (modifier !== undefined) {
    if (FTS.has(op)) {
      if (!/^[a-z_]+$/.test(modifier)) throw parseError(what, raw, 'expecting a text search configuration name');
      condition.ftsConfig = modifier;
    } else if (QUANTIFIABLE.has(op) && (modifier === 'any' || modifier === 'all')) {
      condition.quantifier = modifier;
      condition.value = parseList(value, '{', what);
    } else {
      throw parseError(what, raw, `unexpected modifier "(${modifier})" for operator "${op}"`);
    }
  }
  if (op === 'in') condition.value = parseList(value, '(', what);
  if (op === 'is' && !(IS_VALUES as readonly string[]).includes(value.toLowerCase())) {
    throw parseError(what, raw, `expecting one of ${IS_VALUES.join(', ')} after "is."`);
  }
  if (op === 'is') condition.value = value.toLowerCase();
  return condition;
}

/** Reads one value of a logic tree: up to the next `,` or `)` outside quotes and parentheses. */
function logicValue(cursor: Cursor): string {
  let out = '';
  let depth = 0;
  while (!cursor.done) {
    const ch = cursor.peek();
    if (depth === 0 && (ch === ',' || ch === ')')) break;
    if (ch === '"') {
      // Quoted values keep their quotes inside lists ("in.(a,\"b,c\")") so parseList can split them.
      const start = cursor.pos;
      cursor.quoted();
      out += depth > 0 ? cursor.input.slice(start, cursor.pos) : cursor.input.slice(start + 1, cursor.pos - 1).replace(/\\(.)/g, '$1');
      continue;
    }
    if (ch === '(' || ch === '{') depth += 1;
    if (ch === ')' || ch === '}') depth -= 1;
    out += ch;
    cursor.pos += 1;
  }
  return out;
}

function logicItem(cursor: Cursor): FilterNode {
  const negate = cursor.startsWith('not.and(') || cursor.startsWith('not.or(');
  if (negate) cursor.pos += 4;
  for (const op of ['and', 'or'] as const) {
    if (cursor.accept(`${op}(`)) {
      const children = logicItems(cursor);
      cursor.expect(')');
      return { kind: 'logic', op, negate, children };
    }
  }
  const column = cursor.name();
  cursor.expect('.');
  const start = cursor.pos;
  // Operator (with modifier) and optional not., then the value.
  const opMatch = /^(?:not\.)?[a-z]+(?:\([a-z_]*\))?\./.exec(cursor.input.slice(cursor.pos));
  if (!opMatch) throw cursor.fail('expecting "operator.value"');
  cursor.pos += opMatch[0].length;
  const value = logicValue(cursor);
  return parseCondition(column, cursor.input.slice(start, start + opMatch[0].length) + value, cursor.what);
}

function logicItems(cursor: Cursor): FilterNode[] {
  const children: FilterNode[] = [logicItem(cursor)];
  while (cursor.accept(',')) children.push(logicItem(cursor));
  return children;
}

/** Parses the value of `or=` / `and=` (e.g. `(a.eq.1,and(b.gt.2,c.is.null))`). */
export function parseLogic(op: 'and' | 'or', negate: boolean, raw: string): Logic {
  const cursor = new Cursor(raw, 'logic tree');
  cursor.expect('(');
  const children = logicItems(cursor);
  cursor.expect(')');
  if (!cursor.done) throw cursor.fail('expecting end of input');
  return { kind: 'logic', op, negate, children };
}
