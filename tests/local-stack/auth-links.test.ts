import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { fragmentOf, latestMailTo, memoryStorage, redirectOf, uniqueEmail, verifyLinkIn } from './auth-helpers';

let stack: StackHandle;
beforeAll(async () => {
  stack = await startStack({ rateLimits: { verify: 1000 } });
});
afterAll(async () => {
  await stack?.stop();
});

const site = 'http://127.0.0.1:5173';

async function confirmedUser(prefix: string, password = 'link-password') {
  const email = uniqueEmail(prefix);
  const { error } = await createTestClient(stack, 'service').auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return { email, password };
}

function pkceClient() {
  return createTestClient(stack, 'anon', { auth: { flowType: 'pkce', storage: memoryStorage(), persistSession: true } });
}

describe('password recovery', () => {
  it('implicit: the emailed link lands on redirect_to with recovery tokens, then the password changes', async () => {
    const user = await confirmedUser('recover');
    const client = createTestClient(stack);
    const sent = await client.auth.resetPasswordForEmail(user.email, { redirectTo: `${site}/reset-password` });
    expect(sent.error).toBeNull();
    const mail = await latestMailTo(stack.inboxUrl, user.email);
    expect(mail.Subject).toBe('Reset your Storewise password');
    const { status, location } = await redirectOf(verifyLinkIn(mail.Text));
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(`${site}/reset-password`);
    const fragment = fragmentOf(location);
    expect(fragment.get('type')).toBe('recovery');
    await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect((await client.auth.updateUser({ password: 'after-reset-1' })).error).toBeNull();
    expect((await createTestClient(stack).auth.signInWithPassword({ email: user.email, password: 'after-reset-1' })).error).toBeNull();
  });

  it('PKCE: the link carries ?code= and exchangeCodeForSession in the same client signs in', async () => {
    const user = await confirmedUser('recover-pkce');
    const client = pkceClient();
    expect((await client.auth.resetPasswordForEmail(user.email, { redirectTo: 'storewise://auth/reset' })).error).toBeNull();
    const link = verifyLinkIn((await latestMailTo(stack.inboxUrl, user.email)).Text);
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_/);
    const { location } = await redirectOf(link);
    expect(location.protocol).toBe('storewise:');
    const code = location.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await client.auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(user.email);
    // A code is single use.
    const again = await client.auth.exchangeCodeForSession(code!);
    expect(again.error).not.toBeNull();
  });

  it('refuses a second email within 60 s with 429 over_email_send_rate_limit', async () => {
    const user = await confirmedUser('recover-twice');
    const client = createTestClient(stack);
    expect((await client.auth.resetPasswordForEmail(user.email)).error).toBeNull();
    const second = await client.auth.resetPasswordForEmail(user.email);
    expect(second.error?.status).toBe(429);
    expect(second.error?.code).toBe('over_email_send_rate_limit');
  });

  it('falls back to the site URL when redirect_to is not on the allow list', async () => {
    const user = await confirmedUser('recover-evil');
    await createTestClient(stack).auth.resetPasswordForEmail(user.email, { redirectTo: 'https://evil.example/steal' });
    const { location } = await redirectOf(verifyLinkIn((await latestMailTo(stack.inboxUrl, user.email)).Text));
    expect(location.origin).toBe(site);
  });

  it('verifyOtp with the token hash (POST /verify) returns a session; a bad hash is otp_expired', async () => {
    const user = await confirmedUser('otp');
    await createTestClient(stack).auth.resetPasswordForEmail(user.email);
    const hash = new URL(verifyLinkIn((await latestMailTo(stack.inboxUrl, user.email)).Text)).searchParams.get('token')!;
    const client = createTestClient(stack);
    const verified = await client.auth.verifyOtp({ type: 'recovery', token_hash: hash });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(user.email);
    const bad = await client.auth.verifyOtp({ type: 'recovery', token_hash: hash });
    expect(bad.error?.status).toBe(403);
    expect(bad.error?.code).toBe('otp_expired');
  });
});

describe('PKCE sign-up confirmation', () => {
  it('confirms through ?code= and exchangeCodeForSession; wrong verifier and unknown code are refused', async () => {
    const client = pkceClient();
    const email = uniqueEmail('pkce-signup');
    const signUp = await client.auth.signUp({ email, password: 'pkce-password', options: { emailRedirectTo: 'storewise://auth/callback' } });
    expect(signUp.error).toBeNull();
    const { location } = await redirectOf(verifyLinkIn((await latestMailTo(stack.inboxUrl, email)).Text));
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe('storewise://auth/callback');
    const code = location.searchParams.get('code')!;

    const raw = (body: unknown) =>
      fetch(`${stack.apiUrl}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
        body: JSON.stringify(body),
      });
    const wrong = await raw({ auth_code: code, code_verifier: 'x'.repeat(50) });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { code: string }).code).toBe('bad_code_verifier');
    const unknown = await raw({ auth_code: crypto.randomUUID(), code_verifier: 'x'.repeat(50) });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('flow_state_not_found');

    const exchanged = await client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('an expired flow state is flow_state_expired', async () => {
    const client = pkceClient();
    const email = uniqueEmail('pkce-old');
    await client.auth.signUp({ email, password: 'pkce-password' });
    const { location } = await redirectOf(verifyLinkIn((await latestMailTo(stack.inboxUrl, email)).Text));
    const code = location.searchParams.get('code')!;
    await stack.db.query(`update auth.flow_state set auth_code_issued_at = now() - interval '301 seconds' where auth_code = $1`, [code]);
    const result = await client.auth.exchangeCodeForSession(code);
    expect(result.error?.status).toBe(422);
    expect(result.error?.code).toBe('flow_state_expired');
  });
});

describe('Google sign-in through the local stand-in page', () => {
  /** Follows authorize to the stand-in page and submits it; returns the raw answer. */
  async function submitLocalGoogle(authorizeUrl: string, email: string, name: string): Promise<Response> {
    const toPage = await redirectOf(authorizeUrl);
    expect(toPage.location.pathname).toBe('/auth/v1/local-provider/google');
    const page = await fetch(toPage.location);
    const html = await page.text();
    expect(html).toContain('Storewise local sign-in (development stand-in for Google)');
    const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
    expect(state).toBeTruthy();
    return fetch(`${stack.apiUrl}/auth/v1/local-provider/google`, {
      method: 'POST',
      body: new URLSearchParams({ state: state!, email, name }),
      redirect: 'manual',
    });
  }

  async function completeLocalGoogle(authorizeUrl: string, email: string, name: string): Promise<URL> {
    const done = await submitLocalGoogle(authorizeUrl, email, name);
    expect(done.status).toBe(302);
    return new URL(done.headers.get('location')!);
  }

  it('never signs in as an existing password account (no password-free way into the admin)', async () => {
    const client = createTestClient(stack);
    const { data } = await client.auth.signInWithOAuth({ provider: 'google', options: { redirectTo: `${site}/`, skipBrowserRedirect: true } });
    const owner = await confirmedUser('google-takeover');
    for (const email of [owner.email, 'admin@storewise.local']) {
      const answer = await submitLocalGoogle(data.url!, email, 'Mallory');
      expect(answer.status).toBe(409);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toContain('This email belongs to an account that signs in with its password.');
    }
    const { rows } = await stack.db.query(
      `select i.provider from auth.identities i join auth.users u on u.id = i.user_id where u.email = $1`, [owner.email]);
    expect(rows.map((row) => row.provider)).toEqual(['email']);
  });

  it('PKCE (desktop): authorize -> local form -> storewise://auth/callback?code= -> session', async () => {
    const client = pkceClient();
    const { data } = await client.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: 'storewise://auth/callback', skipBrowserRedirect: true },
    });
    const email = uniqueEmail('google');
    const back = await completeLocalGoogle(data.url!, email, 'Gia Google');
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe('storewise://auth/callback');
    const exchanged = await client.auth.exchangeCodeForSession(back.searchParams.get('code')!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect(exchanged.data.user?.app_metadata.provider).toBe('google');
    expect(exchanged.data.user?.user_metadata.full_name).toBe('Gia Google');
    const profile = await client.from('profiles').select('full_name').single();
    expect(profile.data?.full_name).toBe('Gia Google');
  });

  it('implicit (web): the redirect carries tokens in the fragment; a second sign-in is the same user', async () => {
    const client = createTestClient(stack);
    const { data } = await client.auth.signInWithOAuth({ provider: 'google', options: { redirectTo: `${site}/`, skipBrowserRedirect: true } });
    const email = uniqueEmail('google-web');
    const first = fragmentOf(await completeLocalGoogle(data.url!, email, 'Wes Web'));
    const second = fragmentOf(await completeLocalGoogle(data.url!, email, 'Wes Web'));
    const sub = (token: string | null) => JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()).sub as string;
    expect(sub(first.get('access_token'))).toBe(sub(second.get('access_token')));
    await client.auth.setSession({ access_token: first.get('access_token')!, refresh_token: first.get('refresh_token')! });
    expect((await client.auth.getUser()).data.user?.email).toBe(email);
  });

  it('refuses unknown providers', async () => {
    const response = await fetch(`${stack.apiUrl}/auth/v1/authorize?provider=github`, { redirect: 'manual' });
    expect(response.status).toBe(400);
  });
});

describe('settings and rate limits', () => {
  it('GET /settings reports email and google and confirmations on', async () => {
    const response = await fetch(`${stack.apiUrl}/auth/v1/settings`, { headers: { apikey: stack.anonKey } });
    const settings = (await response.json()) as { external: Record<string, boolean>; mailer_autoconfirm: boolean };
    expect(settings.external.email).toBe(true);
    expect(settings.external.google).toBe(true);
    expect(settings.mailer_autoconfirm).toBe(false);
  });

  it('answers 429 over_request_rate_limit past a lowered token limit', async () => {
    const limited = await startStack({ rateLimits: { token: 3 } });
    try {
      const client = createTestClient(limited);
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 4; i += 1) {
        codes.push((await client.auth.signInWithPassword({ email: 'owner1@storewise.local', password: 'wrong' })).error?.code);
      }
      expect(codes).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'over_request_rate_limit']);
    } finally {
      await limited.stop();
    }
  });
});

describe('autoconfirm', () => {
  it('signs up straight into a session and refuses a second sign-up with user_already_exists', async () => {
    const auto = await startStack({ autoconfirm: true, seed: false });
    try {
      const client = createTestClient(auto);
      const email = uniqueEmail('auto');
      const first = await client.auth.signUp({ email, password: 'auto-password' });
      expect(first.error).toBeNull();
      expect(first.data.session?.access_token).toBeTruthy();
      const second = await client.auth.signUp({ email, password: 'auto-password' });
      expect(second.error?.code).toBe('user_already_exists');
      expect(second.error?.status).toBe(422);
    } finally {
      await auto.stop();
    }
  });
});
