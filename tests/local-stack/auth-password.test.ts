import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { fragmentOf, latestMailTo, redirectOf, uniqueEmail, verifyLinkIn } from './auth-helpers';

let stack: StackHandle;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const owner1 = { email: 'owner1@storewise.local', password: 'storewise-owner' };

describe('sign-up with email confirmation (the default)', () => {
  it('returns a user without a session, sends a Storewise email, and the link confirms and signs in', async () => {
    const client = createTestClient(stack);
    const email = uniqueEmail('signup');
    const { data, error } = await client.auth.signUp({
      email,
      password: 'first-password',
      options: { data: { full_name: 'Sam Signup' }, emailRedirectTo: 'http://127.0.0.1:5173/' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toMatchObject({ full_name: 'Sam Signup' });
    expect(data.user?.identities).toHaveLength(1);

    const blocked = await client.auth.signInWithPassword({ email, password: 'first-password' });
    expect(blocked.error?.code).toBe('email_not_confirmed');
    expect(blocked.error?.status).toBe(400);

    const mail = await latestMailTo(stack.inboxUrl, email);
    expect(mail.Subject).toBe('Confirm your Storewise account');
    expect(mail.HTML).toContain('Storewise');
    const link = verifyLinkIn(mail.Text);
    expect(link.startsWith(`${stack.apiUrl}/auth/v1/verify?token=`)).toBe(true);
    expect(link).toContain('type=signup');

    const { status, location } = await redirectOf(link);
    expect(status).toBe(303);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:5173/');
    const fragment = fragmentOf(location);
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    const session = await client.auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    });
    expect(session.error).toBeNull();
    expect(session.data.user?.email_confirmed_at).toBeTruthy();

    // The profile came from the sign-up metadata through the schema's trigger.
    const profile = await client.from('profiles').select('full_name').single();
    expect(profile.data).toEqual({ full_name: 'Sam Signup' });

    // A used link is spent.
    const again = await redirectOf(link);
    expect(fragmentOf(again.location).get('error_code')).toBe('otp_expired');

    const signIn = await createTestClient(stack).auth.signInWithPassword({ email, password: 'first-password' });
    expect(signIn.error).toBeNull();
  });

  it('refuses weak passwords with weak_password and the reasons', async () => {
    const { error } = await createTestClient(stack).auth.signUp({ email: uniqueEmail('weak'), password: '123' });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(['length']);
  });

  it('refuses passwords past bcrypt\'s 72 bytes, counted in bytes as GoTrue does', async () => {
    const client = createTestClient(stack);
    const tooLong = await client.auth.signUp({ email: uniqueEmail('long'), password: 'é'.repeat(37) });
    expect(tooLong.error?.status).toBe(400);
    expect(tooLong.error?.message).toContain('Password cannot be longer than 72 characters');
    const atLimit = await client.auth.signUp({ email: uniqueEmail('long'), password: 'é'.repeat(36) });
    expect(atLimit.error).toBeNull();
  });

  it('does not reveal that an email is registered (signup and recover)', async () => {
    const client = createTestClient(stack);
    const existing = await client.auth.signUp({ email: owner1.email, password: 'whatever-123' });
    expect(existing.error).toBeNull();
    expect(existing.data.session).toBeNull();
    expect(existing.data.user?.email).toBe(owner1.email);
    expect(existing.data.user?.id).not.toBe('22222222-2222-4222-8222-222222222222');
    const before = await fetch(`${stack.inboxUrl}/api/v1/messages`).then((r) => r.json() as Promise<{ total: number }>);

    const unknown = await client.auth.resetPasswordForEmail(uniqueEmail('nobody'));
    expect(unknown.error).toBeNull();
    expect(unknown.data).toEqual({});
    const after = await fetch(`${stack.inboxUrl}/api/v1/messages`).then((r) => r.json() as Promise<{ total: number }>);
    // No email for the registered address from signup, none for the unknown one from recover.
    expect(after.total).toBe(before.total);
    // And owner1's password still works.
    expect((await client.auth.signInWithPassword(owner1)).error).toBeNull();
  });
});

describe('password sign-in, user, refresh, sign-out', () => {
  it('answers wrong passwords and unknown emails identically', async () => {
    const client = createTestClient(stack);
    const wrong = await client.auth.signInWithPassword({ email: owner1.email, password: 'not-it' });
    const unknown = await client.auth.signInWithPassword({ email: uniqueEmail('ghost'), password: 'not-it' });
    for (const result of [wrong, unknown]) {
      expect(result.error?.status).toBe(400);
      expect(result.error?.code).toBe('invalid_credentials');
      expect(result.error?.message).toBe('Invalid login credentials');
    }
  });

  it('issues a session whose JWT carries the protocol claims, and getUser reads the user', async () => {
    const client = createTestClient(stack);
    const { data, error } = await client.auth.signInWithPassword(owner1);
    expect(error).toBeNull();
    const session = data.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({
      sub: '22222222-2222-4222-8222-222222222222',
      aud: 'authenticated',
      role: 'authenticated',
      email: owner1.email,
      aal: 'aal1',
      is_anonymous: false,
      iss: `${stack.apiUrl}/auth/v1`,
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(typeof claims.session_id).toBe('string');
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);

    const user = await client.auth.getUser();
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe('22222222-2222-4222-8222-222222222222');
    expect(user.data.user?.app_metadata.provider).toBe('email');
  });

  it('records login activity and keeps active_sessions current through auth.sessions', async () => {
    const client = createTestClient(stack, 'anon', { global: { headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36' } } });
    const { data } = await client.auth.signInWithPassword(owner1);
    const sessionId = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString()).session_id as string;
    const activity = await client.from('login_activity').select('device, location, ip_address').order('login_at', { ascending: false }).limit(1).single();
    expect(activity.data).toEqual({ device: 'Chrome on Windows', location: 'This computer', ip_address: '127.0.0.1' });
    const current = await client.from('active_sessions').select('session_id').eq('is_current', true);
    expect(current.data).toEqual([{ session_id: sessionId }]);

    const other = createTestClient(stack);
    await other.auth.signInWithPassword(owner1);
    // Refreshing the first session makes it the current one again (trigger on refreshed_at).
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const afterRefresh = await client.from('active_sessions').select('session_id').eq('is_current', true);
    expect(afterRefresh.data).toEqual([{ session_id: sessionId }]);
  });

  it('rotates refresh tokens, tolerates reuse within 10 s, and revokes the family after', async () => {
    const client = createTestClient(stack);
    const first = (await client.auth.signInWithPassword(owner1)).data.session!;
    const call = (token: string) =>
      fetch(`${stack.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
        method: 'POST',
        headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
        body: JSON.stringify({ refresh_token: token }),
      });
    const second = (await (await call(first.refresh_token)).json()) as { refresh_token: string; access_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    // Same token again within the reuse interval: the session's current token comes back.
    const reused = (await (await call(first.refresh_token)).json()) as { refresh_token: string };
    expect(reused.refresh_token).toBe(second.refresh_token);

    const unknown = await call('no-such-token');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { code: string }).code).toBe('refresh_token_not_found');

    // Past the interval, reuse ends the session.
    await stack.db.query(`update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1`, [first.refresh_token]);
    const late = await call(first.refresh_token);
    expect(late.status).toBe(400);
    expect(late.headers.get('x-sb-error-code')).toBe('refresh_token_already_used');
    expect(late.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(((await late.json()) as { code: string; message: string })).toEqual({
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    const familyGone = await call(second.refresh_token);
    expect(familyGone.status).toBe(400);
  });

  it('updates metadata by merging, refuses the same password, and changes the password', async () => {
    const client = createTestClient(stack);
    const created = await createTestClient(stack, 'service').auth.admin.createUser({
      email: uniqueEmail('upd'),
      password: 'old-password',
      email_confirm: true,
      user_metadata: { full_name: 'Una Update', business_name: 'Una Shop' },
    });
    const email = created.data.user!.email!;
    await client.auth.signInWithPassword({ email, password: 'old-password' });
    const merged = await client.auth.updateUser({ data: { full_name: 'Una Updated' } });
    expect(merged.error).toBeNull();
    expect(merged.data.user?.user_metadata).toMatchObject({ full_name: 'Una Updated', business_name: 'Una Shop' });

    const same = await client.auth.updateUser({ password: 'old-password' });
    expect(same.error?.status).toBe(422);
    expect(same.error?.code).toBe('same_password');

    expect((await client.auth.updateUser({ password: 'new-password' })).error).toBeNull();
    const fresh = createTestClient(stack);
    expect((await fresh.auth.signInWithPassword({ email, password: 'old-password' })).error?.code).toBe('invalid_credentials');
    expect((await fresh.auth.signInWithPassword({ email, password: 'new-password' })).error).toBeNull();
  });

  it('signs out with scopes others, local and global', async () => {
    const admin = createTestClient(stack, 'service');
    const email = uniqueEmail('scopes');
    await admin.auth.admin.createUser({ email, password: 'scopes-password', email_confirm: true });
    const devices = [createTestClient(stack), createTestClient(stack), createTestClient(stack)];
    for (const device of devices) expect((await device.auth.signInWithPassword({ email, password: 'scopes-password' })).error).toBeNull();
    const [a, b, c] = devices as [typeof devices[0], typeof devices[0], typeof devices[0]];
    const mySessions = async () => (await a.from('active_sessions').select('session_id')).data?.length;
    expect(await mySessions()).toBe(3);

    expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await mySessions()).toBe(1);
    // supabase-js turns GoTrue's 403 session_not_found into AuthSessionMissingError.
    expect((await b.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    expect((await c.auth.refreshSession()).error?.code).toBe('refresh_token_not_found');

    expect((await a.auth.getUser()).error).toBeNull();
    const d = createTestClient(stack);
    await d.auth.signInWithPassword({ email, password: 'scopes-password' });
    expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await d.auth.getUser()).error).toBeNull();
    expect((await d.auth.signOut({ scope: 'global' })).error).toBeNull();
    const count = await stack.db.query<{ n: number }>(
      `select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id where u.email = $1`,
      [email],
    );
    expect(count.rows[0]?.n).toBe(0);
  });

  it('lets the service role create and delete users, and nobody else', async () => {
    const anonAdmin = await createTestClient(stack).auth.admin.createUser({ email: uniqueEmail('x'), password: 'password-1' });
    expect(anonAdmin.error?.status).toBe(403);
    expect(anonAdmin.error?.code).toBe('not_admin');
    const admin = createTestClient(stack, 'service').auth.admin;
    const created = await admin.createUser({ email: uniqueEmail('gone'), password: 'password-1', email_confirm: true });
    expect(created.error).toBeNull();
    const duplicate = await admin.createUser({ email: created.data.user!.email!, password: 'password-1' });
    expect(duplicate.error?.code).toBe('email_exists');
    expect((await admin.deleteUser(created.data.user!.id)).error).toBeNull();
    const left = await stack.db.query('select 1 from public.profiles where id = $1', [created.data.user!.id]);
    expect(left.rows).toHaveLength(0);
  });
});
