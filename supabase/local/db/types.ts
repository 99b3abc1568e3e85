/**
 * The database seam of the local stack: PGlite (default, or in memory for tests) or a PostgreSQL
 * server (DATABASE_URL) behind one interface, so auth, the data API and the tests share one code path.
 */

export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** Column names and type OIDs of the result, in order. */
  fields: { name: string; dataTypeID: number }[];
  /** Rows changed by INSERT/UPDATE/DELETE. */
  affectedRows: number;
}

export interface Queryable {
  /** Every value is a bound parameter ($1, $2, ...); never interpolate values into sql. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

/** JWT claims as the data API receives them (Supabase puts them in request.jwt.claims). */
export type JwtClaims = Record<string, unknown> & { role: string; sub?: string };

export interface RequestContext {
  /** The Postgres role to switch to for the transaction: anon, authenticated or service_role. */
  role: 'anon' | 'authenticated' | 'service_role';
  claims: JwtClaims;
  /** GET and HEAD run READ ONLY. */
  readOnly: boolean;
  method?: string;
  path?: string;
  /** Request headers with lower-case names (request.headers). */
  headers?: Record<string, string>;
}

export interface Db {
  /** 'pglite' or 'postgres', for messages and benchmarks. */
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn in one transaction as ctx.role with ctx.claims set LOCAL, so concurrent requests never
   * see each other's role or claims. Throws what fn throws, after rolling back.
   */
  asRequest<T>(ctx: RequestContext, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** One transaction as the database owner (auth internals, migrations). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** One statement as the database owner, outside any request. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, seed). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
