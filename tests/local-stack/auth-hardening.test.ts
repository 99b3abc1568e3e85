/**
 * Issue 10's auth findings, tried the way an attacker or a user would: supabase-js and raw HTTP against
 * a local stack. Each test failed on the code before the fix.
 */
import { format } from 'node:util';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { fragmentOf, latestMailTo, redirectOf, uniqueEmail, verifyLinkIn } from './auth-helpers';

let stack: StackHandle;
beforeAll(async () => {
  // emailSendInterval 0: a second sign-up of the same address sends its email at once (the takeover case).
  stack = await startStack({ rateLimits: { verify: 1000, token: 1000, signupRecover: 1000 }, auth: { emailSendInterval: 0 } });
});
afterAll(async () => {
  await stack?.stop();
});

const site = 'http://127.0.0.1:5173';

async function confirmedUser(prefix: string, password = 'first-password') {
  const email = uniqueEmail(prefix);
  const { data, error } = await createTestClient(stack, 'service').auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return { email, password, id: data.user!.id };
}

async function signedIn(email: string, password: string) {
  const client = createTestClient(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return { client, session: data.session! };
}

/** POST /token?grant_type=refresh_token straight over HTTP: status and body. */
async function refresh(refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function authCall(path: string, init: { method: string; body?: string; bearer?: string; key?: string }) {
  const response = await fetch(`${stack.apiUrl}/auth/v1${path}`, {
    method: init.method,
    headers: {
      apikey: init.key ?? stack.anonKey,
      authorization: `Bearer ${init.bearer ?? init.key ?? stack.anonKey}`,
      'content-type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
    },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

describe('a password change ends the other sessions and kills pending links (finding 2)', () => {
  it('PUT /user with a password: other refresh tokens stop rotating, this session stays, an older recovery link is dead', async () => {
    const user = await confirmedUser('pw-change');
    const mine = await signedIn(user.email, user.password);
    const other = await signedIn(user.email, user.password);
    expect((await createTestClient(stack).auth.resetPasswordForEmail(user.email, { redirectTo: `${site}/reset-password` })).error).toBeNull();
    const oldLink = verifyLinkIn((await latestMailTo(stack.inboxUrl, user.email)).Text);

    expect((await mine.client.auth.updateUser({ password: 'second-password' })).error).toBeNull();

    const otherRefresh = await refresh(other.session.refresh_token);
    expect(otherRefresh.status).toBe(400);
    expect(otherRefresh.body.code).toBe('refresh_token_not_found');
    const otherUser = await authCall('/user', { method: 'GET', bearer: other.session.access_token });
    expect(otherUser.body.code).toBe('session_not_found');

    expect((await mine.client.auth.getUser()).data.user?.email).toBe(user.email);
    expect((await refresh(mine.session.refresh_token)).status).toBe(200);

    const clicked = await redirectOf(oldLink);
    expect(fragmentOf(clicked.location).get('error_code')).toBe('otp_expired');
    expect(fragmentOf(clicked.location).get('access_token')).toBeNull();
  });

  it('the recovery-link flow: the reset session survives, every session from before does not', async () => {
    const user = await confirmedUser('pw-reset');
    const before = await signedIn(user.email, user.password);
    const client = createTestClient(stack);
    await client.auth.resetPasswordForEmail(user.email, { redirectTo: `${site}/reset-password` });
    const { location } = await redirectOf(verifyLinkIn((await latestMailTo(stack.inboxUrl, user.email)).Text));
    const fragment = fragmentOf(location);
    await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect((await client.auth.updateUser({ password: 'after-reset-2' })).error).toBeNull();

    expect((await refresh(before.session.refresh_token)).body.code).toBe('refresh_token_not_found');
    expect((await client.auth.getUser()).error).toBeNull();
    expect((await createTestClient(stack).auth.signInWithPassword({ email: user.email, password: 'after-reset-2' })).error).toBeNull();
  });

  it('an admin password change ends every session of the user', async () => {
    const user = await confirmedUser('pw-admin');
    const session = await signedIn(user.email, user.password);
    const { error } = await createTestClient(stack, 'service').auth.admin.updateUserById(user.id, { password: 'admin-set-pass' });
    expect(error).toBeNull();
    expect((await refresh(session.session.refresh_token)).body.code).toBe('refresh_token_not_found');
  });
});

describe('signing up again for an unconfirmed address (finding 3)', () => {
  it('leaves the password and metadata as the owner set them and sends the confirmation again; no code in the email (finding 18)', async () => {
    const email = uniqueEmail('resignup');
    const owner = await createTestClient(stack).auth.signUp({ email, password: 'owner-password', options: { data: { full_name: 'Olive Owner' } } });
    expect(owner.error).toBeNull();
    const attacker = await createTestClient(stack).auth.signUp({ email, password: 'mallory-password', options: { data: { full_name: 'Mallory' } } });
    expect(attacker.error).toBeNull();
    expect(attacker.data.session).toBeNull();
    expect(attacker.data.user?.user_metadata.full_name).toBe('Olive Owner');

    const mail = await latestMailTo(stack.inboxUrl, email);
    expect(mail.Subject).toBe('Confirm your Storewise account');
    // Finding 18: no screen takes a code, so the email offers none.
    expect(mail.Text).not.toMatch(/code/i);
    expect(mail.HTML).not.toMatch(/code/i);
    await redirectOf(verifyLinkIn(mail.Text));

    const mallory = await createTestClient(stack).auth.signInWithPassword({ email, password: 'mallory-password' });
    expect(mallory.error?.code).toBe('invalid_credentials');
    const signedInOwner = await createTestClient(stack).auth.signInWithPassword({ email, password: 'owner-password' });
    expect(signedInOwner.error).toBeNull();
    expect(signedInOwner.data.user?.user_metadata.full_name).toBe('Olive Owner');
  });

  it('the recovery email offers no code either', async () => {
    const user = await confirmedUser('no-code');
    await createTestClient(stack).auth.resetPasswordForEmail(user.email);
    const mail = await latestMailTo(stack.inboxUrl, user.email);
    expect(mail.Subject).toBe('Reset your Storewise password');
    expect(mail.Text).not.toMatch(/code/i);
    expect(mail.HTML).not.toMatch(/code/i);
  });
});

describe('a ban blocks every way in (finding 5)', () => {
  it('refresh is user_banned, links are user_banned, old access tokens are refused; lifting the ban restores the session', async () => {
    const user = await confirmedUser('banned');
    const { session } = await signedIn(user.email, user.password);
    await createTestClient(stack).auth.resetPasswordForEmail(user.email, { redirectTo: `${site}/reset-password` });
    const link = verifyLinkIn((await latestMailTo(stack.inboxUrl, user.email)).Text);
    const admin = createTestClient(stack, 'service');
    expect((await admin.auth.admin.updateUserById(user.id, { ban_duration: '24h' })).error).toBeNull();

    const refused = await refresh(session.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'user_banned', message: 'Invalid Refresh Token: User Banned' });

    const clicked = await redirectOf(link);
    expect(fragmentOf(clicked.location).get('error_code')).toBe('user_banned');
    expect(fragmentOf(clicked.location).get('error')).toBe('access_denied');
    expect(fragmentOf(clicked.location).get('access_token')).toBeNull();

    const tokenHash = new URL(link).searchParams.get('token')!;
    const viaOtp = await authCall('/verify', { method: 'POST', body: JSON.stringify({ type: 'recovery', token_hash: tokenHash }) });
    expect(viaOtp.status).toBe(403);
    expect(viaOtp.body.code).toBe('user_banned');

    const getUser = await authCall('/user', { method: 'GET', bearer: session.access_token });
    expect(getUser.status).toBe(403);
    expect(getUser.body.code).toBe('user_banned');

    expect((await admin.auth.admin.updateUserById(user.id, { ban_duration: 'none' })).error).toBeNull();
    expect((await refresh(session.refresh_token)).status).toBe(200);
  });

  it('answers a garbage ban_duration with 400 validation_failed and leaves the user unbanned (finding 8)', async () => {
    const user = await confirmedUser('ban-garbage');
    for (const banDuration of ['forever', "1 day'; drop table auth.users; --", '10 years', '1h\u0000']) {
      const answer = await authCall(`/admin/users/${user.id}`, {
        method: 'PUT',
        key: stack.serviceRoleKey,
        body: JSON.stringify({ ban_duration: banDuration }),
      });
      expect(answer.status, banDuration).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
    await signedIn(user.email, user.password);
  });
});

describe('bad input is a clear 4xx, never a 5xx (finding 8)', () => {
  it('NUL bytes in email, refresh token, token_hash and metadata', async () => {
    const nul = '\u0000';
    const cases = [
      { path: '/signup', body: { email: `a${nul}b@example.com`, password: 'some-password' } },
      { path: '/token?grant_type=password', body: { email: `a${nul}b@example.com`, password: 'some-password' } },
      { path: '/token?grant_type=refresh_token', body: { refresh_token: `abc${nul}def` } },
      { path: '/verify', body: { type: 'recovery', token_hash: `abc${nul}def` } },
      { path: '/recover', body: { email: `a${nul}b@example.com` } },
      { path: '/signup', body: { email: uniqueEmail('nul-meta'), password: 'some-password', data: { full_name: `x${nul}y` } } },
    ];
    for (const { path, body } of cases) {
      const answer = await authCall(path, { method: 'POST', body: JSON.stringify(body) });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
    const user = await confirmedUser('nul-user');
    const { session } = await signedIn(user.email, user.password);
    const put = await authCall('/user', { method: 'PUT', bearer: session.access_token, body: JSON.stringify({ data: { [`k${nul}`]: 1 } }) });
    expect(put.status).toBe(400);
    expect(put.body.code).toBe('validation_failed');
    // A lone UTF-16 surrogate is just as unstorable in jsonb.
    const surrogate = await authCall('/user', { method: 'PUT', bearer: session.access_token, body: '{"data":{"k":"\\ud800"}}' });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.code).toBe('validation_failed');

    const link = await fetch(`${stack.apiUrl}/auth/v1/verify?type=recovery&token=abc%00def`, { redirect: 'manual' });
    expect(link.status).toBe(303);
    expect(fragmentOf(new URL(link.headers.get('location')!)).get('error_code')).toBe('otp_expired');
  });

  it('CR/LF in redirect_to falls back to the site URL instead of breaking the Location header', async () => {
    const evil = encodeURIComponent(`${site}/\r\nSet-Cookie: sb=stolen`);
    const link = await fetch(`${stack.apiUrl}/auth/v1/verify?type=recovery&token=nothing&redirect_to=${evil}`, { redirect: 'manual' });
    expect(link.status).toBe(303);
    const location = link.headers.get('location')!;
    expect(location.startsWith(`${site}#`) || location.startsWith(`${site}/#`)).toBe(true);
    expect(link.headers.get('set-cookie')).toBeNull();

    const authorize = await fetch(`${stack.apiUrl}/auth/v1/authorize?provider=google&redirect_to=${evil}`, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const recover = await fetch(`${stack.apiUrl}/auth/v1/recover?redirect_to=${evil}`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('crlf') }),
    });
    expect(recover.status).toBe(200);
  });

  it('deeply nested metadata (5,000 levels) is 400 bad_json, not a stack overflow in Postgres', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const signup = await authCall('/signup', {
      method: 'POST',
      body: `{"email":"${uniqueEmail('deep')}","password":"some-password","data":${deep}}`,
    });
    expect(signup.status).toBe(400);
    expect(signup.body.code).toBe('bad_json');
    const user = await confirmedUser('deep-user');
    const { session } = await signedIn(user.email, user.password);
    const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const put = await authCall('/user', { method: 'PUT', bearer: session.access_token, body: `{"data":{"x":${deepArray}}}` });
    expect(put.status).toBe(400);
    expect(put.body.code).toBe('bad_json');
  });

  it('admin pagination past any sensible number is 400 validation_failed, not a database error', async () => {
    for (const query of ['page=1e308', 'per_page=-5', 'page=abc']) {
      const answer = await authCall(`/admin/users?${query}`, { method: 'GET', key: stack.serviceRoleKey });
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
    expect((await authCall('/admin/users?page=2&per_page=10', { method: 'GET', key: stack.serviceRoleKey })).status).toBe(200);
  });

  it('a malformed PKCE code challenge on /authorize is 400 validation_failed', async () => {
    const answer = await fetch(
      `${stack.apiUrl}/auth/v1/authorize?provider=google&code_challenge=${'a'.repeat(43)}%00&code_challenge_method=s256`,
      { redirect: 'manual', headers: { 'X-Supabase-Api-Version': '2024-01-01' } },
    );
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { code: string }).code).toBe('validation_failed');
  });
});

describe('user metadata is capped at 4 KB (finding 10)', () => {
  it('refuses 20 KB with 400 validation_failed, also when merged from small updates, and the account keeps working', async () => {
    const user = await confirmedUser('meta');
    const { client } = await signedIn(user.email, user.password);
    const big = await client.auth.updateUser({ data: { blob: 'x'.repeat(20_000) } });
    expect(big.error?.status).toBe(400);
    expect(big.error?.code).toBe('validation_failed');
    expect(big.error?.message).toContain('4096');

    expect((await client.auth.updateUser({ data: { a: 'x'.repeat(1500) } })).error).toBeNull();
    expect((await client.auth.updateUser({ data: { b: 'x'.repeat(1500) } })).error).toBeNull();
    const third = await client.auth.updateUser({ data: { c: 'x'.repeat(1500) } });
    expect(third.error?.code).toBe('validation_failed');
    // Removing a key (null) makes room again.
    expect((await client.auth.updateUser({ data: { a: null, c: 'x'.repeat(1500) } })).error).toBeNull();

    const { data } = await client.auth.refreshSession();
    expect(data.session!.access_token.length).toBeLessThan(8000);
    expect((await client.from('profiles').select('id')).error).toBeNull();
  });

  it('refuses oversized metadata at sign-up and through the admin API', async () => {
    const signup = await createTestClient(stack).auth.signUp({
      email: uniqueEmail('meta-signup'),
      password: 'some-password',
      options: { data: { blob: 'x'.repeat(5000) } },
    });
    expect(signup.error?.code).toBe('validation_failed');
    const user = await confirmedUser('meta-admin');
    const admin = createTestClient(stack, 'service');
    const update = await admin.auth.admin.updateUserById(user.id, { app_metadata: { blob: 'x'.repeat(5000) } });
    expect(update.error?.status).toBe(400);
  });
});

describe('logs carry no secrets (finding 9)', () => {
  it('an unexpected database error logs its code and message, not the query parameters', async () => {
    const user = await confirmedUser('logs');
    const { session } = await signedIn(user.email, user.password);
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
    const db = stack.db as unknown as { transaction: (...args: unknown[]) => Promise<unknown> };
    const original = db.transaction;
    // A database failure shaped like PGlite's: the error object carries the query and its parameters.
    db.transaction = async () => {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
        code: '22021',
        query: 'select user_id from auth.refresh_tokens where token = $1',
        params: [session.refresh_token, '$2a$10$abcdefghijklmnopqrstuuhashhashhashhashhashhashhashhas'],
      });
    };
    try {
      const answer = await refresh(session.refresh_token);
      expect(answer.status).toBe(500);
    } finally {
      db.transaction = original;
      spy.mockRestore();
    }
    const logged = lines.join('\n');
    expect(logged).toContain('22021');
    expect(logged).toContain('invalid byte sequence');
    expect(logged).not.toContain(session.refresh_token);
    expect(logged).not.toContain('$2a$10$');
    expect(logged).not.toContain('auth.refresh_tokens');
  });
});

describe('JWT audience (finding 11)', () => {
  async function tokenWith(claims: Record<string, unknown>, sub: string) {
    return new SignJWT({ role: 'authenticated', ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(stack.jwtSecret));
  }

  it('a token for another audience is 401 PGRST303 on the data API and 403 bad_jwt on auth; "authenticated" passes', async () => {
    const user = await confirmedUser('aud');
    const foreign = await tokenWith({ aud: 'some-other-service' }, user.id);
    const rest = await fetch(`${stack.apiUrl}/rest/v1/profiles?select=id`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${foreign}` },
    });
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ code: 'PGRST303', message: 'JWT not in audience' });
    const auth = await authCall('/user', { method: 'GET', bearer: foreign });
    expect(auth.status).toBe(403);
    expect(auth.body.code).toBe('bad_jwt');

    const array = await tokenWith({ aud: ['x', 'authenticated'] }, user.id);
    const ok = await fetch(`${stack.apiUrl}/rest/v1/profiles?select=id`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${array}` } });
    expect(ok.status).toBe(200);
    // The project keys have no aud claim and keep working.
    const service = await fetch(`${stack.apiUrl}/rest/v1/profiles?select=id&limit=1`, { headers: { apikey: stack.serviceRoleKey } });
    expect(service.status).toBe(200);
  });
});
