import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { AuthError, errors } from '../auth-error';
import { challengeExpiresAt, challengeIp, challengeOf, createChallenge, deleteChallenge, markChallengeVerified } from '../mfa/challenge-store';
import {
  deleteExpiredFactors,
  downgradeSessionsOf,
  factorSecret,
  factorsOf,
  insertTotpFactor,
  ownedFactor,
  sessionAal,
  type FactorRow,
} from '../mfa/factor-store';
import { generateTotp, validTotpCode } from '../mfa/totp';
import { clientIp, readBody, requireUser } from '../request-helpers';
import { lockUserSessions, upgradeSessionToAal2 } from '../sessions';
import { findUserById } from '../user-store';

const enrollBody = z.object({
  friendly_name: z.string().optional(),
  factor_type: z.string().optional(),
  issuer: z.string().optional(),
});
const verifyBody = z.object({ challenge_id: z.string().optional(), code: z.string().optional() });
const uuid = z.uuid();

/** The signed-in, non-anonymous user with a live session (GoTrue's requireAuthentication + requireNotAnonymous). */
async function sessionUser(c: Context, deps: AuthDeps): Promise<{ userId: string; sessionId: string }> {
  const { userId, sessionId, claims } = await requireUser(c, deps);
  if (claims.is_anonymous === true) throw errors.anonymousNotAllowed();
  if (!sessionId) throw new AuthError(401, 'no_authorization', 'A valid session is required to manage factors');
  return { userId, sessionId };
}

function factorIdOf(c: Context): string {
  const id = uuid.safeParse(c.req.param('factor_id'));
  if (!id.success) throw errors.mfaFactorIdNotUuid();
  return id.data;
}

/** Challenge and verify share GoTrue's per-IP budget (15 a minute by default). */
function limitMfa(c: Context, deps: AuthDeps): void {
  const key = `mfa:${clientIp(c, deps) ?? 'unknown'}`;
  if (!deps.limiter.hit(key, deps.config.mfa.challengeAndVerifyPerMinute, 60)) throw errors.rateLimited();
}

/** GoTrue's validateFactors: name conflict, enrolled and verified limits, aal2 once a factor is verified. */
function assertCanEnroll(deps: AuthDeps, factors: FactorRow[], friendlyName: string, aal: string | null): void {
  if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName)) throw errors.mfaNameConflict(friendlyName);
  const verified = factors.filter((factor) => factor.status === 'verified').length;
  if (factors.length >= deps.config.mfa.maxEnrolledFactors || verified >= deps.config.mfa.maxVerifiedFactors) {
    throw errors.mfaTooManyFactors();
  }
  if (verified > 0 && aal !== 'aal2') throw errors.mfaEnrollNeedsAal2();
}

function issuerOf(deps: AuthDeps, issuer: string | undefined): string {
  if (issuer) return issuer;
  try {
    return new URL(deps.config.siteUrl).host;
  } catch {
    return 'localhost';
  }
}

/** The user's MFA API (supabase-js auth.mfa.*), as GoTrue's internal/api/mfa.go answers it. TOTP only. */
export function mountFactors(app: Hono, deps: AuthDeps): void {
  app.post('/factors', async (c) => {
    const { userId, sessionId } = await sessionUser(c, deps);
    const body = await readBody(c, enrollBody);
    if (body.factor_type === 'phone') throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    if (body.factor_type === 'webauthn') {
      throw new AuthError(422, 'mfa_web_authn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
    }
    if (body.factor_type !== 'totp') throw errors.validation('factor_type needs to be totp, phone, or webauthn');
    const friendlyName = body.friendly_name ?? '';
    const user = await findUserById(deps.db, userId);
    if (!user) throw errors.userNotFound();
    const totp = await generateTotp(issuerOf(deps, body.issuer), user.email ?? '');
    const factor = await deps.db.transaction(async (tx) => {
      await tx.query('select 1 from auth.users where id = $1 for no key update', [userId]);
      await deleteExpiredFactors(tx, deps.config.mfa.factorExpiry);
      assertCanEnroll(deps, await factorsOf(tx, userId), friendlyName, await sessionAal(tx, sessionId));
      return insertTotpFactor(tx, userId, friendlyName, totp.secret);
    });
    return c.json({
      id: factor.id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: totp.qrCode, secret: totp.secret, uri: totp.uri },
    });
  });

  app.post('/factors/:factor_id/challenge', async (c) => {
    limitMfa(c, deps);
    const { userId } = await sessionUser(c, deps);
    const factorId = factorIdOf(c);
    const ip = challengeIp(clientIp(c, deps));
    const challenge = await deps.db.transaction(async (tx) => {
      const factor = await ownedFactor(tx, userId, factorId, true);
      if (!factor) throw errors.mfaFactorNotFound();
      return createChallenge(tx, factorId, ip);
    });
    return c.json({ id: challenge.id, type: 'totp', expires_at: challengeExpiresAt(challenge, deps.config.mfa.challengeExpiry) });
  });

  app.post('/factors/:factor_id/verify', async (c) => {
    limitMfa(c, deps);
    const { userId, sessionId } = await sessionUser(c, deps);
    const factorId = factorIdOf(c);
    const body = await readBody(c, verifyBody);
    if (!body.code) throw errors.validation('Code needs to be non-empty');
    const code = body.code;
    const challengeId = uuid.safeParse(body.challenge_id);
    const ip = challengeIp(clientIp(c, deps));
    // Refusals that change nothing are thrown; an expired challenge is deleted, which must commit first.
    const outcome = await deps.db.transaction(async (tx) => {
      await lockUserSessions(tx, userId);
      const factor = await ownedFactor(tx, userId, factorId, true);
      if (!factor) throw errors.mfaFactorNotFound();
      const challenge = challengeId.success ? await challengeOf(tx, factorId, challengeId.data, true) : undefined;
      if (!challenge) throw errors.mfaChallengeNotFound();
      if (challenge.verified_at || challenge.ip !== ip) throw errors.mfaChallengeUsed();
      if (Date.now() / 1000 > challengeExpiresAt(challenge, deps.config.mfa.challengeExpiry)) {
        await deleteChallenge(tx, challenge.id);
        return { error: errors.mfaChallengeExpired(challenge.id) };
      }
      const secret = await factorSecret(tx, factorId);
      if (!secret || !validTotpCode(secret, code)) throw errors.mfaVerificationFailed();
      await markChallengeVerified(tx, challenge.id);
      if (factor.status !== 'verified') {
        await tx.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [factorId]);
      }
      const session = await upgradeSessionToAal2(deps, tx, userId, sessionId, factorId);
      // GoTrue: every other session of the user below aal2 ends, and other unverified TOTP factors go.
      await tx.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [userId]);
      await tx.query(`delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified'`, [userId]);
      return { session };
    });
    if ('error' in outcome) throw outcome.error;
    return c.json(outcome.session);
  });

  app.delete('/factors/:factor_id', async (c) => {
    const { userId, sessionId } = await sessionUser(c, deps);
    const factorId = factorIdOf(c);
    await deps.db.transaction(async (tx) => {
      await lockUserSessions(tx, userId);
      const factor = await ownedFactor(tx, userId, factorId, true);
      if (!factor) throw errors.mfaFactorNotFound();
      if (factor.status === 'verified' && (await sessionAal(tx, sessionId)) !== 'aal2') throw errors.mfaUnenrollNeedsAal2();
      await tx.query('delete from auth.mfa_factors where id = $1', [factorId]);
      await downgradeSessionsOf(tx, factorId);
    });
    return c.json({ id: factorId });
  });
}
