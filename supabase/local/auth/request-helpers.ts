import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { z } from 'zod';
import { verifyJwt } from '../keys/verify-jwt';
import type { JwtClaims } from '../db/types';
import type { AuthDeps } from './auth-deps';
import { errors } from './auth-error';
import { assertSafeJson } from './input-guards';
import type { ClientInfo } from './sessions';

/** Parses the JSON body against a schema; an empty body is {} (GoTrue accepts that for some routes). */
export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const text = await c.req.text();
  let parsed: unknown = {};
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw errors.badJson((error as Error).message);
    }
    assertSafeJson(parsed);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw errors.validation(`${where}${issue?.message ?? 'invalid request body'}`);
  }
  return result.data;
}

function stripIpv6Prefix(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function clientIp(c: Context, deps: AuthDeps): string | null {
  if (deps.config.trustForwardedFor) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded && /^[0-9a-fA-F:.]+$/.test(forwarded)) return stripIpv6Prefix(forwarded);
  }
  try {
    const address = getConnInfo(c).remote.address;
    return address ? stripIpv6Prefix(address) : null;
  } catch {
    // Requests made in-process (app.request in unit tests) have no socket.
    return null;
  }
}

export function clientInfo(c: Context, deps: AuthDeps): ClientInfo {
  return { userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null, ip: clientIp(c, deps) };
}

/** Counts the request against a GoTrue rate-limit bucket for the client's IP. */
export function limit(c: Context, deps: AuthDeps, bucket: 'token' | 'signupRecover' | 'verify'): void {
  const { rateLimits } = deps.config;
  const key = `${bucket}:${clientIp(c, deps) ?? 'unknown'}`;
  if (!deps.limiter.hit(key, rateLimits[bucket], rateLimits.windowSeconds)) throw errors.rateLimited();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BearerUser {
  claims: JwtClaims;
  token: string;
}

/** The verified bearer JWT of the request: 401 no_authorization when missing, 403 bad_jwt when bad. */
export async function requireBearer(c: Context, deps: AuthDeps): Promise<BearerUser> {
  const header = c.req.header('authorization') ?? '';
  const match = /^bearer\s+(\S+)$/i.exec(header.trim());
  if (!match?.[1]) throw errors.noAuthorization();
  const check = await verifyJwt(match[1], deps.jwtSecret);
  if (!check.ok) {
    throw errors.badJwt(check.reason === 'expired' ? 'token has invalid claims: token is expired' : check.message);
  }
  return { claims: check.claims, token: match[1] };
}

/** A signed-in user's JWT whose session still exists (GoTrue refuses tokens of ended sessions). */
export async function requireUser(
  c: Context,
  deps: AuthDeps,
): Promise<{ userId: string; sessionId: string | undefined; claims: JwtClaims }> {
  const { claims } = await requireBearer(c, deps);
  if (typeof claims.sub !== 'string' || claims.sub === '') throw errors.badJwt('missing sub claim');
  // Only UUIDs reach the uuid columns (anything else would be a database error, a 500).
  if (!UUID.test(claims.sub)) throw errors.badJwt('invalid claim: sub claim must be a UUID');
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  if (sessionId !== undefined && !UUID.test(sessionId)) throw errors.badJwt('invalid claim: session_id claim must be a UUID');
  if (sessionId) {
    const found = await deps.db.query('select 1 from auth.sessions where id = $1', [sessionId]);
    if (found.rows.length === 0) throw errors.sessionNotFound();
  }
  // GoTrue refuses banned users who still hold an access token issued before the ban.
  const banned = await deps.db.query('select 1 from auth.users where id = $1 and banned_until > now()', [claims.sub]);
  if (banned.rows.length > 0) throw errors.userBannedForbidden();
  return { userId: claims.sub, sessionId, claims };
}

export async function requireServiceRole(c: Context, deps: AuthDeps): Promise<void> {
  const { claims } = await requireBearer(c, deps);
  if (claims.role !== 'service_role') throw errors.notAdmin();
}
