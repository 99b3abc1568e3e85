/**
 * postgres_changes filters as Realtime accepts them: `column=op.value` with op one of eq, neq, lt, lte,
 * gt, gte (realtime.equality_op) and `in.(a,b,c)`. Evaluated on the captured row with the column's type:
 * numbers compare as numbers, everything else as text (PostgreSQL's text form of the value).
 */

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

export interface Filter {
  column: string;
  op: FilterOp;
  /** One value, or several for `in`. */
  values: string[];
}

const ops = new Set<FilterOp>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

/** Undefined when the text is not a filter Realtime accepts. */
export function parseFilter(text: string): Filter | undefined {
  const match = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s.exec(text);
  if (!match) return undefined;
  const [, column, op, raw] = match as unknown as [string, string, FilterOp, string];
  if (!ops.has(op)) return undefined;
  if (op === 'in') {
    const list = /^\((.*)\)$/s.exec(raw);
    if (!list) return undefined;
    const values = list[1]!.split(',').map((value) => value.trim().replace(/^"(.*)"$/s, '$1'));
    return { column, op, values };
  }
  return { column, op, values: [raw] };
}

const numericTypes = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);

function compare(actual: unknown, expected: string, type: string): number | undefined {
  if (actual === null || actual === undefined) return undefined;
  if (numericTypes.has(type)) {
    const a = Number(actual);
    const b = Number(expected);
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
    return a === b ? 0 : a < b ? -1 : 1;
  }
  const text = typeof actual === 'string' ? actual : typeof actual === 'boolean' ? String(actual) : JSON.stringify(actual);
  return text === expected ? 0 : text < expected ? -1 : 1;
}

/** SQL semantics: a null column matches nothing. */
export function matchesFilter(record: Record<string, unknown> | null | undefined, filter: Filter, type: string): boolean {
  if (!record) return false;
  const actual = record[filter.column];
  if (filter.op === 'in') return filter.values.some((value) => compare(actual, value, type) === 0);
  const order = compare(actual, filter.values[0]!, type);
  if (order === undefined) return false;
  switch (filter.op) {
    case 'eq':
      return order === 0;
    case 'neq':
      return order !== 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
  }
}
