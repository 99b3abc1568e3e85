import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Queryable } from '../db/types';
import type { AuthDeps } from './auth-deps';
import { errors } from './auth-error';
import { newRefreshToken } from './tokens';
import { findUserById, isBanned, userJson, type UserRow } from './user-store';

export type AuthMethod = 'password' | 'otp' | 'oauth' | 'recovery' | 'email/signup' | 'pkce';

/** Who is asking: stored on auth.sessions, from which the schema's triggers fill login_activity. */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

type AmrEntry = { method: string; timestamp: number };

/** AMR methods that prove a second factor (GoTrue's AMRClaim.IsAAL2Claim). */
const AAL2_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

/** GoTrue's CalculateAALAndAMR: aal2 once the session holds a second-factor claim. */
export function aalOf(amr: AmrEntry[]): 'aal1' | 'aal2' {
  return amr.some((entry) => AAL2_METHODS.has(entry.method)) ? 'aal2' : 'aal1';
}

async function signAccessToken(
  deps: AuthDeps,
  user: UserRow,
  sessionId: string,
  amr: AmrEntry[],
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const expiresAt = iat + deps.config.jwtExpiry;
  const token = await new SignJWT({
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? 'authenticated',
    aal: aalOf(amr),
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`${deps.apiUrl()}/auth/v1`)
    .setSubject(user.id)
    .setAudience(user.aud ?? 'authenticated')
    .setIssuedAt(iat)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(deps.jwtSecret));
  return { token, expiresAt };
}

/** The session's AMR, newest first (GoTrue stamps each entry with the claim's updated_at). */
async function amrOf(tx: Queryable, sessionId: string): Promise<AmrEntry[]> {
  const result = await tx.query<{ authentication_method: string; updated_at: Date }>(
    'select authentication_method, updated_at from auth.mfa_amr_claims where session_id = $1 order by updated_at desc, created_at desc',
    [sessionId],
  );
  return result.rows.map((row) => ({
    method: row.authentication_method,
    timestamp: Math.floor(new Date(row.updated_at).getTime() / 1000),
  }));
}

async function sessionJson(
  deps: AuthDeps,
  tx: Queryable,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<SessionJson> {
  const { token, expiresAt } = await signAccessToken(deps, user, sessionId, await amrOf(tx, sessionId));
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: deps.config.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await userJson(tx, user),
  };
}

/**
 * One user's session changes run one at a time. The schema's triggers update every active_sessions row
 * of the user (current flag), so two concurrent refreshes or a refresh and a sign-out of the same user
 * would otherwise lock those rows in opposite orders and deadlock on PostgreSQL.
 */
export async function lockUserSessions(tx: Queryable, userId: string): Promise<void> {
  await tx.query('select 1 from auth.users where id = $1 for no key update', [userId]);
}

/** A new sign-in: a row in auth.sessions (the triggers record login activity), a refresh token, a JWT. */
export async function issueSession(
  deps: AuthDeps,
  tx: Queryable,
  userId: string,
  method: AuthMethod,
  client: ClientInfo,
): Promise<SessionJson> {
  const sessionId = randomUUID();
  await lockUserSessions(tx, userId);
  await tx.query(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1`,
    [userId],
  );
  await tx.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4::inet)`,
    [sessionId, userId, client.userAgent, client.ip],
  );
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)`,
    [sessionId, method, randomUUID()],
  );
  const refreshToken = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), null, $3)`,
    [refreshToken, userId, sessionId],
  );
  const user = await findUserById(tx, userId);
  if (!user) throw errors.userNotFound();
  return sessionJson(deps, tx, user, sessionId, refreshToken);
}

interface RefreshRow {
  id: number;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date;
  session_id: string | null;
}

/**
 * Rotation with reuse detection (GoTrue): a live token is revoked and replaced by a child; a revoked
 * token shown again within the reuse interval gets the session's current token; later, the whole
 * session is ended (its tokens are deleted with it), since a stolen token is the likely cause.
 */
export async function refreshSession(deps: AuthDeps, tx: Queryable, token: string): Promise<SessionJson> {
  const owner = await tx.query<{ user_id: string }>('select user_id from auth.refresh_tokens where token = $1', [token]);
  const ownerId = owner.rows[0]?.user_id;
  if (!ownerId) throw errors.refreshTokenNotFound();
  await lockUserSessions(tx, ownerId);
  const found = await tx.query<RefreshRow>(
    `select id, token, user_id, revoked, updated_at, session_id from auth.refresh_tokens where token = $1 for update`,
    [token],
  );
  const row = found.rows[0];
  if (!row || !row.session_id) throw errors.refreshTokenNotFound();
  const session = await tx.query<{ id: string }>('select id from auth.sessions where id = $1 for update', [row.session_id]);
  if (!session.rows[0]) throw errors.refreshTokenNotFound();
  const user = await findUserById(tx, row.user_id);
  if (!user) throw errors.refreshTokenNotFound();
  // GoTrue: a ban stops refreshes too (the session stays, so lifting the ban restores it).
  if (isBanned(user)) throw errors.refreshUserBanned();

  let current: string;
  if (row.revoked) {
    const revokedForMs = Date.now() - new Date(row.updated_at).getTime();
    const active = await tx.query<{ token: string }>(
      `select token from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
      [row.session_id],
    );
    const activeToken = active.rows[0]?.token;
    if (revokedForMs > deps.config.refreshTokenReuseInterval * 1000 || !activeToken) {
      await tx.query('delete from auth.sessions where id = $1', [row.session_id]);
      throw errors.refreshTokenAlreadyUsed();
    }
    current = activeToken;
  } else {
    await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [row.id]);
    current = newRefreshToken();
    await tx.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
      [current, row.user_id, row.token, row.session_id],
    );
  }
  // refreshed_at is a timestamp without time zone in GoTrue's schema: store UTC. The update trigger
  // keeps public.active_sessions' last_active and current flag in step.
  await tx.query(
    `update auth.sessions set refreshed_at = (now() at time zone 'utc'), updated_at = now() where id = $1`,
    [row.session_id],
  );
  return sessionJson(deps, tx, user, row.session_id, current);
}

export async function sessionExists(tx: Queryable, sessionId: string): Promise<boolean> {
  const result = await tx.query('select 1 from auth.sessions where id = $1', [sessionId]);
  return result.rows.length > 0;
}

/**
 * GoTrue's updateMFASessionAndClaims after a verified code: the session's refresh token is swapped for a
 * child, the session is raised to aal2 and tied to the factor, the AMR gains (or refreshes) its totp entry,
 * and a new token response is issued for the same session.
 */
export async function upgradeSessionToAal2(
  deps: AuthDeps,
  tx: Queryable,
  userId: string,
  sessionId: string,
  factorId: string,
): Promise<SessionJson> {
  const active = await tx.query<{ id: number; token: string }>(
    `select id, token from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1 for update`,
    [sessionId],
  );
  const parent = active.rows[0];
  if (parent) await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [parent.id]);
  const refreshToken = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [refreshToken, userId, parent?.token ?? null, sessionId],
  );
  await tx.query(`update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`, [sessionId, factorId]);
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), 'totp', $2)
     on conflict on constraint mfa_amr_claims_session_id_authentication_method_pkey do update set updated_at = now()`,
    [sessionId, randomUUID()],
  );
  const user = await findUserById(tx, userId);
  if (!user) throw errors.userNotFound();
  return sessionJson(deps, tx, user, sessionId, refreshToken);
}
