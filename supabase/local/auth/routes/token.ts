import type { Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { errors } from '../auth-error';
import { verifyPassword } from '../passwords';
import { clientInfo, limit, readBody } from '../request-helpers';
import { issueSession, refreshSession, type AuthMethod } from '../sessions';
import { verifyCodeChallenge } from '../tokens';
import { findUserByEmail, isBanned } from '../user-store';

const passwordBody = z.object({ email: z.string().optional(), phone: z.string().optional(), password: z.string().optional() });
const refreshBody = z.object({ refresh_token: z.string().optional() });
const pkceBody = z.object({ auth_code: z.string().optional(), code_verifier: z.string().optional() });

interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge_method: 's256' | 'plain';
  code_challenge: string;
  authentication_method: string;
  created_at: Date;
}

const methodOfFlow = (authenticationMethod: string): AuthMethod =>
  authenticationMethod === 'oauth' ? 'oauth' : authenticationMethod === 'recovery' ? 'recovery' : 'otp';

export function mountToken(app: Hono, deps: AuthDeps): void {
  app.post('/token', async (c) => {
    limit(c, deps, 'token');
    const grantType = c.req.query('grant_type');

    if (grantType === 'password') {
      const body = await readBody(c, passwordBody);
      if (!body.email || !body.password) {
        throw errors.validation(body.phone ? 'Phone logins are disabled' : 'missing email or phone');
      }
      const password = body.password;
      const user = await findUserByEmail(deps.db, body.email);
      const valid = await verifyPassword(password, user?.encrypted_password);
      if (!user || !valid) throw errors.invalidCredentials();
      if (!user.email_confirmed_at) throw errors.emailNotConfirmed();
      if (isBanned(user)) throw errors.userBanned();
      const session = await deps.db.transaction(async (tx) => {
        await tx.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`, [user.id]);
        return issueSession(deps, tx, user.id, 'password', clientInfo(c, deps));
      });
      return c.json(session);
    }

    if (grantType === 'refresh_token') {
      const body = await readBody(c, refreshBody);
      if (!body.refresh_token) throw errors.refreshTokenNotFound();
      const token = body.refresh_token;
      // A refresh that fails with reuse detection ends the session: that deletion must commit.
      let failure: Error | undefined;
      const session = await deps.db.transaction(async (tx) => {
        try {
          return await refreshSession(deps, tx, token);
        } catch (error) {
          failure = error as Error;
          return undefined;
        }
      });
      if (failure || !session) throw failure ?? errors.refreshTokenNotFound();
      return c.json(session);
    }

    if (grantType === 'pkce') {
      const body = await readBody(c, pkceBody);
      if (!body.auth_code || !body.code_verifier) throw errors.validation('invalid request: both auth code and code verifier should be non-empty');
      const authCode = body.auth_code;
      const verifier = body.code_verifier;
      const session = await deps.db.transaction(async (tx) => {
        const found = await tx.query<FlowStateRow>(
          `select id, user_id, code_challenge_method::text as code_challenge_method, code_challenge, authentication_method,
                  coalesce(auth_code_issued_at, created_at) as created_at
             from auth.flow_state where auth_code = $1 for update`,
          [authCode],
        );
        const flow = found.rows[0];
        if (!flow || !flow.user_id) return { error: errors.flowStateNotFound() };
        if (Date.now() - new Date(flow.created_at).getTime() > deps.config.flowStateExpiry * 1000) {
          await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
          return { error: errors.flowStateExpired() };
        }
        if (!verifyCodeChallenge(verifier, flow.code_challenge, flow.code_challenge_method)) {
          return { error: errors.badCodeVerifier() };
        }
        await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
        return { session: await issueSession(deps, tx, flow.user_id, methodOfFlow(flow.authentication_method), clientInfo(c, deps)) };
      });
      if ('error' in session && session.error) throw session.error;
      return c.json(session.session);
    }

    throw errors.unsupportedGrant();
  });
}
