/**
 * Statement timeouts per API role, as on hosted Supabase: anon 3 s, authenticated 8 s, and service_role
 * none of its own, so it keeps the 8 s of the authenticator role PostgREST connects as. PostgreSQL
 * (DATABASE_URL) enforces them with `set local statement_timeout`; PGlite cannot (its single WASM thread
 * has no timer signal), so its worker is stopped at the same deadline (pglite-db.ts).
 */
import type { RequestContext } from './types';

export type StatementTimeouts = Record<RequestContext['role'], number>;

export const hostedStatementTimeouts: StatementTimeouts = { anon: 3_000, authenticated: 8_000, service_role: 8_000 };

export function statementTimeoutMs(role: RequestContext['role'], overrides: Partial<StatementTimeouts> = {}): number {
  return overrides[role] ?? hostedStatementTimeouts[role];
}
