import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Queryable } from '../../db/types';
import type { OutgoingMail } from '../../mail/mailbox';
import type { AuthDeps } from '../auth-deps';
import { AuthError, errors } from '../auth-error';
import { assertCanSend, flowAuthMethod, prepareAuthEmail, type EmailKind } from '../emails';
import { chooseRedirect } from '../redirects';
import { clientInfo, limit, readBody } from '../request-helpers';
import { issueSession, type SessionJson } from '../sessions';
import { PKCE_PREFIX, tokenHash } from '../tokens';
import { hasControlCharacter } from '../input-guards';
import { findUserByEmail, findUserById, isBanned, normalizeEmail } from '../user-store';
import { codeChallengeFields, emailField, pkceOf } from './schemas';

const recoverBody = z.object({ email: emailField, ...codeChallengeFields });
const verifyBody = z.object({
  type: z.string(),
  token: z.string().optional(),
  token_hash: z.string().optional(),
  email: z.string().optional(),
  redirect_to: z.string().optional(),
});

/** Which stored token a verification type consumes ('email' and 'magiclink' accept either kind). */
function kindsFor(type: string): EmailKind[] {
  if (type === 'signup' || type === 'invite') return ['signup'];
  if (type === 'recovery') return ['recovery'];
  if (type === 'email' || type === 'magiclink') return ['signup', 'recovery'];
  return [];
}
const tokenTypeOf = { signup: 'confirmation_token', recovery: 'recovery_token' } as const;

interface Verified {
  userId: string;
  kind: EmailKind;
}

/**
 * Consumes a one-time token: marks the email confirmed and clears the token. Undefined if invalid or
 * expired; 'banned' (token kept, as GoTrue rolls back) when its user is banned.
 */
async function consumeToken(deps: AuthDeps, tx: Queryable, hash: string, type: string): Promise<Verified | 'banned' | undefined> {
  for (const kind of kindsFor(type)) {
    // created_at is a UTC timestamp without time zone (GoTrue's schema), hence the UTC clock here.
    const found = await tx.query<{ user_id: string; age_seconds: number }>(
      `select user_id, extract(epoch from ((now() at time zone 'utc') - created_at))::float8 as age_seconds
         from auth.one_time_tokens where token_hash = $1 and token_type = $2 for update`,
      [hash, tokenTypeOf[kind]],
    );
    const row = found.rows[0];
    if (!row) continue;
    const user = await findUserById(tx, row.user_id);
    if (user && isBanned(user)) return 'banned';
    await tx.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [row.user_id, tokenTypeOf[kind]]);
    if (row.age_seconds > deps.config.otpExpiry) return undefined;
    await tx.query(
      `update auth.users set ${tokenTypeOf[kind]} = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
         updated_at = now() where id = $1`,
      [row.user_id],
    );
    return { userId: row.user_id, kind };
  }
  return undefined;
}

function fragment(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString();
}

function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

export function mountRecoverAndVerify(app: Hono, deps: AuthDeps): void {
  app.post('/recover', async (c) => {
    limit(c, deps, 'signupRecover');
    const body = await readBody(c, recoverBody);
    const redirectTo = chooseRedirect(c.req.query('redirect_to'), deps.config.siteUrl, deps.config.additionalRedirectUrls);
    let mail: OutgoingMail | undefined;
    await deps.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, body.email);
      // Unknown emails get the same answer: nothing to learn about who is registered.
      if (!user) return;
      assertCanSend(deps, user, 'recovery');
      mail = await prepareAuthEmail(deps, tx, user, 'recovery', redirectTo, pkceOf(body));
    });
    if (mail) await deps.mailer.send(mail);
    return c.json({});
  });

  // The link in the email: a browser navigation, answered with a 303 to the app.
  app.get('/verify', async (c: Context) => {
    const type = c.req.query('type') ?? '';
    const rawToken = c.req.query('token') ?? '';
    const redirectTo = chooseRedirect(c.req.query('redirect_to'), deps.config.siteUrl, deps.config.additionalRedirectUrls);
    const fail = (code: string, description: string) =>
      c.redirect(`${redirectTo}#${fragment({ error: 'access_denied', error_code: code, error_description: description })}`, 303);
    try {
      limit(c, deps, 'verify');
    } catch {
      return fail('over_request_rate_limit', 'Request rate limit reached');
    }
    // A link token is a hex hash: control characters cannot be one (and must not reach a text column).
    if (hasControlCharacter(rawToken)) return fail('otp_expired', 'Email link is invalid or has expired');
    const pkce = rawToken.startsWith(PKCE_PREFIX);
    const hash = pkce ? rawToken.slice(PKCE_PREFIX.length) : rawToken;
    const outcome = await deps.db.transaction(async (tx) => {
      const verified = hash ? await consumeToken(deps, tx, hash, type) : undefined;
      if (verified === 'banned') return { banned: true } as const;
      if (!verified) return undefined;
      if (pkce) {
        const flow = await tx.query<{ auth_code: string }>(
          `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
            where user_id = $1 and authentication_method = $2 returning auth_code`,
          [verified.userId, flowAuthMethod[verified.kind]],
        );
        const code = flow.rows[0]?.auth_code;
        return code ? { code } : undefined;
      }
      const session = await issueSession(deps, tx, verified.userId, verified.kind === 'recovery' ? 'recovery' : 'otp', clientInfo(c, deps));
      return { session };
    });
    if (!outcome) return fail('otp_expired', 'Email link is invalid or has expired');
    if ('banned' in outcome) return fail('user_banned', 'User is banned');
    if ('code' in outcome && outcome.code) return c.redirect(withQuery(redirectTo, { code: outcome.code }), 303);
    const session: SessionJson | undefined = 'session' in outcome ? outcome.session : undefined;
    if (!session) return fail('otp_expired', 'Email link is invalid or has expired');
    return c.redirect(
      `${redirectTo}#${fragment({
        access_token: session.access_token,
        expires_at: session.expires_at,
        expires_in: session.expires_in,
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type,
      })}`,
      303,
    );
  });

  // supabase-js verifyOtp: {type, token_hash} or {type, email, token}; answers with a session.
  app.post('/verify', async (c) => {
    limit(c, deps, 'verify');
    const body = await readBody(c, verifyBody);
    if (kindsFor(body.type).length === 0) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
    let hash: string | undefined;
    if (body.token_hash) hash = body.token_hash.replace(new RegExp(`^${PKCE_PREFIX}`), '');
    else if (body.email && body.token) hash = tokenHash(normalizeEmail(body.email), body.token.trim());
    if (!hash) throw new AuthError(400, 'validation_failed', 'Verify requires either a token or a token hash');
    const verifiedHash = hash;
    const session = await deps.db.transaction(async (tx) => {
      const verified = await consumeToken(deps, tx, verifiedHash, body.type);
      if (verified === 'banned') throw errors.userBannedForbidden();
      if (!verified) return undefined;
      const user = await findUserById(tx, verified.userId);
      if (!user) return undefined;
      return issueSession(deps, tx, user.id, verified.kind === 'recovery' ? 'recovery' : 'otp', clientInfo(c, deps));
    });
    if (!session) throw errors.otpExpired();
    return c.json(session);
  });
}
