/**
 * Errors in PostgREST's shape ({code, details, hint, message}) with its HTTP status mapping, so
 * supabase-js reports the same error objects locally as against hosted Supabase.
 */

export interface RestErrorBody {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
}

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
    this.name = 'RestError';
  }

  body(): RestErrorBody {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** A query-string or header that does not parse (PostgREST PGRST100). */
export function parseError(what: string, input: string, details: string): RestError {
  return new RestError(400, 'PGRST100', `"failed to parse ${what} (${input})"`, details);
}

interface PgErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isPgError(error: unknown): error is PgErrorLike {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof message === 'string';
}

/**
 * HTTP status for a SQLSTATE, as PostgREST's table (docs.postgrest.org, Errors; mapSQLtoHTTP in
 * src/PostgREST/Error.hs), including its cases that also read the message.
 */
export function statusForSqlState(code: string, role: string, message = ''): number {
  if (code === '42501') return role === 'anon' ? 401 : 403;
  // cardinality_violation: pg-safeupdate's refusal is the client's fault; "more than one row returned by a
  // subquery" and the like are the server's.
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500;
  // invalid_parameter_value: a JWT naming a role that does not exist is an authentication failure (PostgREST #3601).
  if (code === '22023') return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
  if (code === '57P01') return 503; // the server is shutting the connection down: try again
  if (code === '42883' && message.startsWith('function xmlagg(')) return 406;
  // PostgREST's custom statuses: SQLSTATE 'PTxyz' answers HTTP xyz (mapSQLtoHTTP in src/PostgREST/Error.hs),
  // e.g. PT429 for the hourly email caps. A code whose digits are not a status is a 500, as there.
  if (code.startsWith('PT')) {
    const status = Number(code.slice(2));
    return /^\d{3}$/.test(code.slice(2)) && status >= 100 && status <= 599 ? status : 500;
  }
  const exact: Record<string, number> = {
    '23503': 409, '23505': 409, '25006': 405, '53400': 500, P0001: 400, '42883': 404, '42P01': 404, '42P17': 500,
  };
  const fromExact = exact[code];
  if (fromExact !== undefined) return fromExact;
  const byClass: Record<string, number> = {
    '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500,
    '3B': 500, '40': 500, '53': 503, '54': 500, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500, XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** Turns whatever was thrown into a RestError; unknown failures become a JSON 500, never a crash. */
export function toRestError(error: unknown, role: string): RestError {
  if (error instanceof RestError) return error;
  if (isPgError(error)) {
    return new RestError(statusForSqlState(error.code, role, error.message), error.code, error.message, error.detail ?? null, error.hint ?? null);
  }
  // The cause is logged by the caller; the client only learns that the server failed.
  return new RestError(500, 'PGRSTX00', 'Internal server error', null, null);
}

export function errorResponse(error: RestError, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(error.body()), {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
  });
}
