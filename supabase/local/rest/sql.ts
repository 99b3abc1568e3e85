/**
 * The only two ways text reaches the SQL this module builds: identifiers that exist in the schema
 * cache (always double-quoted) and bound parameters. Nothing from the request is ever spliced in raw.
 */

/** Double-quotes an identifier the way Postgres does (inner quotes doubled). */
export function ident(name: string): string {
  if (name.includes('\u0000')) throw new Error('identifier contains a NUL byte');
  return `"${name.replaceAll('"', '""')}"`;
}

/** Schema-qualified, quoted relation or function name. */
export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/** Collects the values of one statement and hands out their $n placeholders. */
export class Params {
  readonly values: unknown[] = [];

  /** Binds value and returns its placeholder; types are inferred by Postgres from the context. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
