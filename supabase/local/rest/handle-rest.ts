/**
 * The PostgREST-compatible data API of the local stack (/rest/v1). The gateway has checked the
 * apikey and the JWT; here every request becomes one transaction as the JWT's role with its claims
 * set LOCAL (db.asRequest), so row level security does all the authorization.
 */
import { LostResultError } from '../db/pglite-thread';
import type { Db, JwtClaims, Queryable, RequestContext } from '../db/types';
import { checkProfile, negotiate, readJsonBody, rowRange } from './negotiate';
import { parsePrefer } from './parse-prefer';
import type { Preferences } from './parse-prefer';
import { parseQuery } from './parse-query';
import { RestError, errorResponse, toRestError } from './rest-error';
import { capRange } from './max-rows';
import { argumentNames, callFunction, chooseOverload } from './run-rpc';
import { deleteTable, insertTable, readTable, updateTable } from './run-table';
import type { TableRequest } from './run-table';
import type { SchemaCache } from './schema-cache';
import { EXPOSED_SCHEMA, getSchema, schemaAfterMiss } from './schema-cache';
import { logUnexpected } from '../log-unexpected';
import { isHeavyFunction, TooManyHeavyCalls, type HeavyCallGate } from './heavy-calls';

export interface RestAuth {
  role: 'anon' | 'authenticated' | 'service_role';
  claims: JwtClaims;
}

const PREFIX = /^\/rest\/v1(?:\/|$)/;

/** Thrown inside the transaction for Prefer: tx=rollback, so asRequest rolls back work that succeeded. */
class RollbackRequested extends Error {
  constructor() {
    super('rollback requested');
  }
}

function lowerCaseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    // The JWT is already in request.jwt.claims; keep credentials out of request.headers.
    if (key !== 'authorization' && key !== 'apikey' && key !== 'cookie') out[key.toLowerCase()] = value;
  });
  return out;
}

function notFoundTable(name: string): RestError {
  return new RestError(404, 'PGRST205', `Could not find the table '${EXPOSED_SCHEMA}.${name}' in the schema cache`, null, null);
}

function methodNotAllowed(method: string): RestError {
  return new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`, null, null);
}

export async function handleRest(request: Request, auth: RestAuth, db: Db, heavyCalls?: HeavyCallGate): Promise<Response> {
  try {
    return await route(request, auth, db, heavyCalls);
  } catch (error) {
    const restError = usesRegex(request.url) && isRegexCrash(error) ? regexTooComplex() : toRestError(error, auth.role);
    if (restError.code === 'PGRSTX00') logUnexpected('[rest] unexpected error', error);
    return errorResponse(restError, restError instanceof TooManyHeavyCalls ? { 'retry-after': String(restError.retryAfterSeconds) } : {});
  }
}

/** match / imatch filters, anywhere in the query string (logic trees and embeds included). */
function usesRegex(url: string): boolean {
  try {
    return [...new URL(url).searchParams.values()].some((value) => /(^|[.,(])i?match\./.test(value));
  } catch {
    return false;
  }
}

/**
 * PGlite fails a regular expression too complex to compile with an internal error (an allocation
 * failure, or a result lost inside the WASM module; the worker is restarted in that case) where
 * PostgreSQL answers 2201B. Both mean the client's pattern, so they answer as PostgreSQL would.
 */
function isRegexCrash(error: unknown): boolean {
  if (error instanceof LostResultError) return true;
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'XX000';
}

function regexTooComplex(): RestError {
  return new RestError(400, '2201B', 'invalid regular expression: regular expression is too complex', null, null);
}

async function route(request: Request, auth: RestAuth, db: Db, heavyCalls?: HeavyCallGate): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  if (!PREFIX.test(url.pathname)) throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`, null, null);
  if (method === 'OPTIONS') return new Response(null, { status: 200, headers: { allow: 'OPTIONS,GET,HEAD,POST,PATCH,DELETE' } });
  checkProfile(request.headers);

  let segments: string[];
  try {
    segments = url.pathname.replace(PREFIX, '').split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s));
  } catch {
    throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL', null, null);
  }
  let schema = await getSchema(db);
  const prefer = parsePrefer(request.headers.get('prefer'));
  const shape = negotiate(request.headers.get('accept'));
  const readOnly = method === 'GET' || method === 'HEAD';
  const ctx: RequestContext = {
    role: auth.role,
    claims: auth.claims,
    readOnly,
    method,
    path: url.pathname,
    headers: lowerCaseHeaders(request.headers),
  };
  const run = async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    if (prefer.tx !== 'rollback') return db.asRequest(ctx, fn);
    // tx=rollback: do the work, keep its answer, undo it.
    let kept: { value: T } | undefined;
    try {
      await db.asRequest(ctx, async (tx) => {
        kept = { value: await fn(tx) };
        throw new RollbackRequested();
      });
    } catch (error) {
      if (!(error instanceof RollbackRequested)) throw error;
    }
    if (kept === undefined) throw new Error('tx=rollback finished without a result');
    return kept.value;
  };

  if (segments.length === 0) return rootDocument(schema, method);

  if (segments[0] === 'rpc' && segments.length === 2) {
    const name = segments[1] ?? '';
    let overloads = schema.functions.get(name);
    if (!overloads) {
      schema = await schemaAfterMiss(db, schema);
      overloads = schema.functions.get(name) ?? [];
    }
    if (!['GET', 'HEAD', 'POST'].includes(method)) throw methodNotAllowed(method);
    const query = parseQuery(url.searchParams, readOnly ? argumentNames(overloads) : new Set());
    let args: Record<string, unknown>;
    if (readOnly) args = Object.fromEntries(query.rpcArgs);
    else {
      const body = await readJsonBody(request, {});
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Expected a JSON object of named arguments.', null);
      }
      args = body as Record<string, unknown>;
      // PostgREST runs a STABLE or IMMUTABLE function in a read-only transaction, POST included: a
      // write inside it fails with 25006 (405).
      const fn = overloads.length > 0 ? chooseOverload(EXPOSED_SCHEMA, name, overloads, Object.keys(args)) : undefined;
      if (fn && fn.volatility !== 'v') ctx.readOnly = true;
    }
    const range = capRange(rowRange(readOnly ? request.headers.get('range') : null, query.nodes.get('')?.limit, query.nodes.get('')?.offset));
    const call = () => callFunction({ method, schema, name, overloads, args, query, prefer: countAsExact(prefer), shape, range, run });
    // One heavy call at a time per user (heavy-calls.ts); the platform's service role is not limited.
    const user = typeof auth.claims.sub === 'string' && auth.claims.sub !== '' ? auth.claims.sub : auth.role;
    return heavyCalls && auth.role !== 'service_role' && isHeavyFunction(name) ? heavyCalls.run(user, call) : call();
  }

  if (segments.length !== 1) throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL', null, null);
  const name = segments[0] ?? '';
  let table = schema.tables.get(name);
  if (!table) {
    schema = await schemaAfterMiss(db, schema);
    table = schema.tables.get(name);
  }
  if (!table) throw notFoundTable(name);

  const query = parseQuery(url.searchParams);
  const req: TableRequest = { method, schema, table, query, prefer: countAsExact(prefer), shape, run };
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const root = query.nodes.get('');
      return readTable(req, capRange(rowRange(request.headers.get('range'), root?.limit, root?.offset)));
    }
    case 'POST':
      return insertTable(req, await readJsonBody(request, {}));
    case 'PATCH':
      return updateTable(req, await readJsonBody(request, undefined));
    case 'DELETE':
      return deleteTable(req);
    default:
      throw methodNotAllowed(method);
  }
}

/** count=planned and count=estimated are answered with the exact count. */
function countAsExact(prefer: Preferences): Preferences {
  return prefer.count === undefined ? prefer : { ...prefer, count: 'exact' };
}

/** GET /rest/v1/: a small OpenAPI description listing what is exposed (PostgREST serves a full one). */
function rootDocument(schema: SchemaCache, method: string): Response {
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method);
  const paths: Record<string, object> = {};
  for (const table of schema.tables.values()) paths[`/${table.name}`] = {};
  for (const name of schema.functions.keys()) paths[`/rpc/${name}`] = {};
  const body = JSON.stringify({ swagger: '2.0', info: { title: 'Storewise local data API', version: '1' }, basePath: '/rest/v1', paths });
  return new Response(method === 'HEAD' ? null : body, { status: 200, headers: { 'content-type': 'application/openapi+json; charset=utf-8' } });
}
