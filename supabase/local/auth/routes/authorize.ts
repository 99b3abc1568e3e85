import { createHash, randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { jwtVerify, SignJWT, decodeJwt } from 'jose';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { AuthError, errors } from '../auth-error';
import { hasControlCharacter } from '../input-guards';
import { chooseRedirect } from '../redirects';
import { clientInfo, limit } from '../request-helpers';
import { issueSession } from '../sessions';
import { findUserByEmail, insertUser, isBanned } from '../user-store';
import { assertUserMayBeCreated } from '../before-user-created';
import { emailField, pkceOf } from './schemas';

/** What /authorize remembers until the provider answers (signed, single use, STATE_LIFETIME_SECONDS). */
interface OAuthState {
  redirectTo: string;
  codeChallenge?: string;
  codeChallengeMethod?: 's256' | 'plain';
}

/** Five minutes, like GoTrue's flow state: enough to fill the form or pass Google's consent screen. */
const STATE_LIFETIME_SECONDS = 300;

const stateSchema = z.object({
  jti: z.string(),
  exp: z.number(),
  redirectTo: z.string(),
  codeChallenge: z.string().optional(),
  codeChallengeMethod: z.enum(['s256', 'plain']).optional(),
});
type SignedState = z.infer<typeof stateSchema>;

const secretOf = (deps: AuthDeps) => new TextEncoder().encode(`oauth-state:${deps.jwtSecret}`);

async function signState(deps: AuthDeps, state: OAuthState): Promise<string> {
  return new SignJWT({ ...state })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${STATE_LIFETIME_SECONDS}s`)
    .sign(secretOf(deps));
}

async function readState(deps: AuthDeps, token: string | undefined): Promise<SignedState | undefined> {
  if (!token) return undefined;
  try {
    // maxTokenAge checks iat as well as exp: a state is good for STATE_LIFETIME_SECONDS whatever exp says.
    const { payload } = await jwtVerify(token, secretOf(deps), { algorithms: ['HS256'], maxTokenAge: STATE_LIFETIME_SECONDS });
    const parsed = stateSchema.safeParse(payload);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * States already spent, until they expire anyway. Claimed synchronously (no await between the check and
 * the claim), so parallel submissions of one state cannot both pass; a refused attempt gives it back.
 * In memory: a restart forgets spent states, but they expire within minutes.
 */
class SpentStates {
  private readonly spent = new Map<string, number>();

  claim(state: SignedState): boolean {
    const now = Date.now();
    for (const [jti, expiresAt] of this.spent) if (expiresAt <= now) this.spent.delete(jti);
    if (this.spent.has(state.jti)) return false;
    this.spent.set(state.jti, state.exp * 1000);
    return true;
  }

  release(state: SignedState): void {
    this.spent.delete(state.jti);
  }
}

interface ProviderProfile {
  providerId: string;
  email: string;
  name: string;
  picture?: string;
}

/**
 * The local stand-in may not sign in as an account it did not create, nor as one that has since been
 * given a password (adopted through forgot-password): either would be a password-free way in.
 */
class StandInRefused extends Error {}

/**
 * Signs the Google user in (creating the user on first visit) and completes the client's flow. Real Google
 * proves the address, so like GoTrue an existing account with that email gains the Google identity; the
 * local stand-in proves nothing, so `linkExisting: false` refuses accounts without its identity.
 */
async function completeSignIn(
  c: Context,
  deps: AuthDeps,
  state: OAuthState,
  profile: ProviderProfile,
  { linkExisting }: { linkExisting: boolean },
): Promise<Response> {
  const identityData = {
    iss: 'https://accounts.google.com',
    sub: profile.providerId,
    email: profile.email,
    email_verified: true,
    full_name: profile.name,
    name: profile.name,
    provider_id: profile.providerId,
    ...(profile.picture ? { avatar_url: profile.picture, picture: profile.picture } : {}),
  };
  const outcome = await deps.db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, profile.email);
    if (!user) {
      await assertUserMayBeCreated(tx, { email: profile.email, provider: 'google' });
      user = await insertUser(tx, {
        email: profile.email,
        passwordHash: null,
        userMetadata: identityData,
        confirmed: true,
        provider: 'google',
        providerId: profile.providerId,
        identityData,
      });
    } else {
      if (!linkExisting) {
        const known = await tx.query(`select 1 from auth.identities where provider = 'google' and provider_id = $1 and user_id = $2`,
          [profile.providerId, user.id]);
        if (known.rows.length === 0 || user.encrypted_password) throw new StandInRefused();
      }
      // GoTrue refuses banned users at the provider callback too.
      if (isBanned(user)) throw errors.userBannedForbidden();
      await tx.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
         values ($1, $2, $3, 'google', now(), now(), now())
         on conflict (provider_id, provider) do update set last_sign_in_at = now(), updated_at = now()`,
        [profile.providerId, user.id, JSON.stringify(identityData)],
      );
      // Signing in through the provider proves the address; list the provider in app_metadata.
      await tx.query(
        `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
           raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
             (select coalesce(jsonb_agg(distinct p), '[]'::jsonb) from (
                select jsonb_array_elements_text(coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb)) as p
                union select 'google') s)),
           updated_at = now()
         where id = $1`,
        [user.id],
      );
    }
    if (state.codeChallenge && state.codeChallengeMethod) {
      const authCode = randomUUID();
      await tx.query(
        `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
           created_at, updated_at, authentication_method, auth_code_issued_at)
         values ($1, $2, $3, $4, $5, 'google', now(), now(), 'oauth', now())`,
        [randomUUID(), user.id, authCode, state.codeChallengeMethod, state.codeChallenge],
      );
      return { code: authCode };
    }
    return { session: await issueSession(deps, tx, user.id, 'oauth', clientInfo(c, deps)) };
  });
  if ('code' in outcome && outcome.code) {
    const target = new URL(state.redirectTo);
    target.searchParams.set('code', outcome.code);
    return c.redirect(target.toString(), 302);
  }
  const session = 'session' in outcome ? outcome.session : undefined;
  if (!session) throw errors.notFound();
  const fragment = new URLSearchParams({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    provider_token: '',
    refresh_token: session.refresh_token,
    token_type: 'bearer',
  });
  return c.redirect(`${state.redirectTo}#${fragment.toString()}`, 302);
}

const existingAccountProblem =
  'This email belongs to an account that signs in with its password. This stand-in cannot sign in as it: use the password on the Storewise sign-in page, or another email here.';

const localForm = z.object({
  state: z.string(),
  email: emailField,
  // The name goes into jsonb, which cannot hold a NUL: control characters are refused here (400), not there (500).
  name: z.string().trim().min(2).max(100).refine((name) => !hasControlCharacter(name)),
});

function localPage(state: string, problem?: string) {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Storewise local sign-in (development stand-in for Google)</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #111; }
      .note { background: #fff7d6; border: 1px solid #e6c200; padding: .75rem; border-radius: .5rem; }
      label { display: block; margin-top: 1rem; font-weight: 600; }
      input { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
      button { margin-top: 1.5rem; padding: .6rem 1.2rem; font-size: 1rem; }
      .error { color: #b00020; }
    </style>
  </head>
  <body>
    <h1>Storewise local sign-in (development stand-in for Google)</h1>
    <p class="note">
      This page belongs to the local Storewise stack. No Google account is contacted: enter any email and name
      to continue as that Google user. With GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET set, the real Google sign-in is used.
    </p>
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
    <form method="post" action="/auth/v1/local-provider/google">
      <input type="hidden" name="state" value="${state}" />
      <label for="email">Email</label>
      <input id="email" name="email" type="email" required autocomplete="email" />
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required minlength="2" maxlength="100" autocomplete="name" />
      <button type="submit">Continue</button>
    </form>
  </body>
</html>`;
}

function googleRedirectUri(deps: AuthDeps): string {
  return `${deps.apiUrl()}/auth/v1/callback`;
}

const bannedProblem = 'This account is banned. Ask the store administrator.';
const rateLimitedProblem = 'Too many sign-ins from this computer. Wait a few minutes and try again.';
const expiredProblem = 'This sign-in link has expired or was already used. Go back to Storewise and try again.';

export function mountAuthorize(app: Hono, deps: AuthDeps): void {
  const spentStates = new SpentStates();
  app.get('/authorize', async (c) => {
    if (c.req.query('provider') !== 'google') throw errors.unsupportedProvider();
    const redirectTo = chooseRedirect(c.req.query('redirect_to'), deps.config.siteUrl, deps.config.additionalRedirectUrls);
    const pkce = pkceOf({ code_challenge: c.req.query('code_challenge'), code_challenge_method: c.req.query('code_challenge_method') });
    const state = await signState(deps, {
      redirectTo,
      ...(pkce ? { codeChallenge: pkce.codeChallenge, codeChallengeMethod: pkce.method } : {}),
    });
    const google = deps.config.google;
    if (google) {
      const target = new URL('https://accounts.google.com/o/oauth2/v2/auth');
      target.searchParams.set('client_id', google.clientId);
      target.searchParams.set('redirect_uri', googleRedirectUri(deps));
      target.searchParams.set('response_type', 'code');
      target.searchParams.set('scope', 'openid email profile');
      target.searchParams.set('state', state);
      return c.redirect(target.toString(), 302);
    }
    const local = new URL(`${deps.apiUrl()}/auth/v1/local-provider/google`);
    local.searchParams.set('state', state);
    return c.redirect(local.toString(), 302);
  });

  app.get('/local-provider/google', async (c) => {
    const state = c.req.query('state') ?? '';
    if (!(await readState(deps, state))) return c.html(localPage('', expiredProblem), 400);
    return c.html(localPage(state));
  });

  app.post('/local-provider/google', async (c) => {
    const fields = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    const echoedState = (fields.state ?? '').slice(0, 2000);
    // Each submission may create a confirmed account: it counts like a sign-up (GoTrue's sign_in_sign_ups).
    try {
      limit(c, deps, 'signupRecover');
    } catch {
      return c.html(localPage(echoedState, rateLimitedProblem), 429);
    }
    const form = localForm.safeParse(fields);
    if (!form.success) return c.html(localPage(echoedState, 'Enter a valid email address and a name of 2 to 100 characters.'), 400);
    const state = await readState(deps, form.data.state);
    if (!state || !spentStates.claim(state)) return c.html(localPage('', expiredProblem), 400);
    const email = form.data.email.toLowerCase();
    // A stable fake Google subject per email, so a second sign-in finds the same identity.
    const providerId = `local-${createHash('sha256').update(email).digest('hex').slice(0, 21)}`;
    try {
      return await completeSignIn(c, deps, state, { providerId, email, name: form.data.name }, { linkExisting: false });
    } catch (error) {
      // Nothing was signed in: the form may be tried again with the same state.
      spentStates.release(state);
      if (error instanceof StandInRefused) return c.html(localPage(form.data.state, existingAccountProblem), 409);
      if (error instanceof AuthError && error.code === 'user_banned') return c.html(localPage(form.data.state, bannedProblem), 403);
      throw error;
    }
  });

  // Real Google: exchange the code for an ID token over TLS, straight from Google's token endpoint.
  app.get('/callback', async (c) => {
    const state = await readState(deps, c.req.query('state'));
    const google = deps.config.google;
    const code = c.req.query('code');
    if (!state || !google || !code || !spentStates.claim(state)) return c.redirect(`${deps.config.siteUrl}#error=invalid_request&error_description=OAuth+state+is+invalid`, 302);
    const response = await fetch('https://oauth2.googleapis.com/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code,
        client_id: google.clientId,
        client_secret: google.clientSecret,
        redirect_uri: googleRedirectUri(deps),
        grant_type: 'authorization_code',
      }),
    });
    const tokens = z.object({ id_token: z.string() }).safeParse(await response.json().catch(() => ({})));
    if (!response.ok || !tokens.success) {
      return c.redirect(`${state.redirectTo}#error=server_error&error_description=Google+sign-in+failed`, 302);
    }
    const claims = z
      .object({
        sub: z.string(),
        email: z.string(),
        // An address Google has not verified proves nothing: never link it to an existing account.
        email_verified: z.literal(true),
        name: z.string().optional(),
        picture: z.string().optional(),
      })
      .safeParse(decodeJwt(tokens.data.id_token));
    if (!claims.success) return c.redirect(`${state.redirectTo}#error=server_error&error_description=Google+sign-in+failed`, 302);
    try {
      return await completeSignIn(c, deps, state, {
        providerId: claims.data.sub,
        email: claims.data.email.toLowerCase(),
        name: claims.data.name ?? claims.data.email,
        ...(claims.data.picture ? { picture: claims.data.picture } : {}),
      }, { linkExisting: true });
    } catch (error) {
      if (!(error instanceof AuthError && error.code === 'user_banned')) throw error;
      // GoTrue's redirect for a banned user: access_denied with the error code.
      return c.redirect(`${state.redirectTo}#error=access_denied&error_code=user_banned&error_description=User+is+banned`, 302);
    }
  });
}
