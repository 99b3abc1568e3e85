/**
 * Two-factor sign-in (TOTP) on the local stack, through the official supabase-js auth.mfa.* and
 * auth.admin.mfa.* calls, with GoTrue's limits and errors. Codes come from otpauth with the secret
 * the enrollment shows, as an authenticator app would make them.
 */
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { uniqueEmail } from './auth-helpers';

let stack: StackHandle;
beforeAll(async () => {
  // Each client below speaks from its own X-Forwarded-For address, so GoTrue's per-IP MFA budget is per test.
  stack = await startStack({ auth: { trustForwardedFor: true } });
});
afterAll(async () => {
  await stack?.stop();
});

let ipCounter = 10;
function nextIp(): string {
  ipCounter += 1;
  return `10.26.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function codeFor(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });
}

/** A six-digit code that is valid in none of the steps the server accepts now. */
function wrongCodeFor(secret: string): string {
  const valid = new Set([-30_000, 0, 30_000].map((offset) => codeFor(secret, Date.now() + offset)));
  for (let n = 0; ; n += 1) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

async function newUser(prefix: string) {
  const email = uniqueEmail(prefix);
  const password = 'mfa-password-1';
  const { data, error } = await createTestClient(stack, 'service').auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return { email, password, id: data.user!.id };
}

async function signedIn(user: { email: string; password: string }, ip = nextIp()): Promise<SupabaseClient> {
  const client = createTestClient(stack, 'anon', { global: { headers: { 'x-forwarded-for': ip } } });
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  expect(error).toBeNull();
  return client;
}

async function enrolled(client: SupabaseClient, friendlyName = 'Phone') {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  expect(error).toBeNull();
  return data!;
}

/** Enrolls and verifies a factor: the client's session is aal2 afterwards. */
async function withVerifiedFactor(client: SupabaseClient, friendlyName = 'Phone') {
  const factor = await enrolled(client, friendlyName);
  const { data: challenge, error: challengeError } = await client.auth.mfa.challenge({ factorId: factor.id });
  expect(challengeError).toBeNull();
  const { error } = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: codeFor(factor.totp.secret) });
  expect(error).toBeNull();
  return factor;
}

async function claimsOf(client: SupabaseClient) {
  const { data } = await client.auth.getSession();
  return decodeJwt(data.session!.access_token) as { aal: string; amr: { method: string; timestamp: number }[]; session_id: string };
}

describe('enroll', () => {
  it('answers with a QR code, the secret to type and the otpauth URI', async () => {
    const user = await newUser('mfa-enroll');
    const client = await signedIn(user);
    const factor = await enrolled(client, 'My phone');
    expect(factor.type).toBe('totp');
    expect(factor.friendly_name).toBe('My phone');
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,.*<svg/s);
    expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(factor.totp.uri).toContain(`secret=${factor.totp.secret}`);
    expect(factor.totp.uri).toContain(encodeURIComponent(user.email));

    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed!.all.map((f) => [f.id, f.status])).toEqual([[factor.id, 'unverified']]);
    expect(listed!.totp).toEqual([]);
  });

  it('refuses a second factor with the same friendly name, and an unknown factor type', async () => {
    const client = await signedIn(await newUser('mfa-name'));
    await enrolled(client, 'Work phone');
    const { error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Work phone' });
    expect(error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });

    const { data: session } = await client.auth.getSession();
    const response = await fetch(`${stack.apiUrl}/auth/v1/factors`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${session.session!.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ factor_type: 'sms' }),
    });
    expect(response.status).toBe(400);
    const tooLong = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Long', issuer: 'é'.repeat(2000) });
    expect(tooLong.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('allows ten factors, and removes unverified ones older than five minutes on the next enroll', async () => {
    const user = await newUser('mfa-max');
    const client = await signedIn(user);
    const first = await enrolled(client, 'factor 0');
    for (let n = 1; n < 10; n += 1) await enrolled(client, `factor ${n}`);
    const { error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'factor 10' });
    expect(error).toMatchObject({ status: 422, code: 'too_many_enrolled_mfa_factors' });

    await stack.db.query(`update auth.mfa_factors set created_at = now() - interval '301 seconds' where id = $1`, [first.id]);
    await enrolled(client, 'factor 10');
    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed!.all).toHaveLength(10);
    expect(listed!.all.map((f) => f.id)).not.toContain(first.id);
  });

  it('needs aal2 to enroll another factor once one is verified', async () => {
    const user = await newUser('mfa-second');
    const first = await signedIn(user);
    await withVerifiedFactor(first);
    const aal1 = await signedIn(user);
    const { error } = await aal1.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const { error: aal2Error } = await first.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(aal2Error).toBeNull();
  });
});

describe('challenge and verify', () => {
  it('raise the session to aal2 with totp first in amr, kept on refresh', async () => {
    const user = await newUser('mfa-verify');
    const client = await signedIn(user);
    const before = await claimsOf(client);
    expect(before.aal).toBe('aal1');
    const factor = await enrolled(client);
    const { data: challenge } = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge!.type).toBe('totp');
    expect(challenge!.expires_at).toBeGreaterThan(Date.now() / 1000);
    const { data, error } = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: codeFor(factor.totp.secret) });
    expect(error).toBeNull();
    expect(data!.user.factors?.[0]).toMatchObject({ id: factor.id, status: 'verified' });

    const after = await claimsOf(client);
    expect(after.aal).toBe('aal2');
    expect(after.session_id).toBe(before.session_id);
    expect(after.amr.map((entry) => entry.method)).toEqual(['totp', 'password']);
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });

    const { error: refreshError } = await client.auth.refreshSession();
    expect(refreshError).toBeNull();
    expect((await claimsOf(client)).aal).toBe('aal2');

    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed!.totp.map((f) => f.id)).toEqual([factor.id]);
  });

  it('a new sign-in of a user with a verified factor is aal1 with aal2 next', async () => {
    const user = await newUser('mfa-next');
    await withVerifiedFactor(await signedIn(user));
    const later = await signedIn(user);
    const { data } = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  });

  it('refuses a wrong code, a used challenge, an expired challenge and a foreign factor', async () => {
    const user = await newUser('mfa-wrong');
    const client = await signedIn(user);
    const factor = await enrolled(client);
    const secret = factor.totp.secret;
    const { data: challenge } = await client.auth.mfa.challenge({ factorId: factor.id });
    const wrong = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: wrongCodeFor(secret) });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
    const notDigits = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: 'abcdef' });
    expect(notDigits.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    // The challenge survives a wrong code; once answered it cannot be answered again.
    const right = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: codeFor(secret) });
    expect(right.error).toBeNull();
    const reused = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: codeFor(secret) });
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const { data: old } = await client.auth.mfa.challenge({ factorId: factor.id });
    await stack.db.query(`update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`, [old!.id]);
    const expired = await client.auth.mfa.verify({ factorId: factor.id, challengeId: old!.id, code: codeFor(secret) });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    const gone = await client.auth.mfa.verify({ factorId: factor.id, challengeId: old!.id, code: codeFor(secret) });
    expect(gone.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });

    const stranger = await signedIn(await newUser('mfa-stranger'));
    const foreign = await stranger.auth.mfa.challenge({ factorId: factor.id });
    expect(foreign.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const notUuid = await stranger.auth.mfa.challenge({ factorId: 'not-a-uuid' });
    expect(notUuid.error).toMatchObject({ status: 404 });
    const badChallenge = await client.auth.mfa.verify({ factorId: factor.id, challengeId: 'nope', code: '123456' });
    expect(badChallenge.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });
    const empty = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: '' });
    expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('ends the other aal1 sessions of the user and removes the other unverified factors', async () => {
    const user = await newUser('mfa-others');
    const client = await signedIn(user);
    const other = await signedIn(user);
    const { data: otherSession } = await other.auth.getSession();
    const spare = await enrolled(client, 'Spare');
    await withVerifiedFactor(client, 'Main');

    const userResponse = await fetch(`${stack.apiUrl}/auth/v1/user`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${otherSession.session!.access_token}`, 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect(userResponse.status).toBe(403);
    expect(await userResponse.json()).toMatchObject({ code: 'session_not_found' });
    const refreshed = await other.auth.refreshSession({ refresh_token: otherSession.session!.refresh_token });
    expect(refreshed.error).toMatchObject({ code: 'refresh_token_not_found' });

    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed!.all.map((f) => f.friendly_name)).toEqual(['Main']);
    expect(listed!.all.map((f) => f.id)).not.toContain(spare.id);
  });

  it('allows 15 challenge and verify requests a minute per address; the 16th is refused', async () => {
    const client = await signedIn(await newUser('mfa-rate'));
    const factor = await enrolled(client);
    const { data: challenge } = await client.auth.mfa.challenge({ factorId: factor.id });
    for (let n = 2; n <= 15; n += 1) {
      const { error } = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: wrongCodeFor(factor.totp.secret) });
      expect(error?.code).toBe('mfa_verification_failed');
    }
    const sixteenth = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code: codeFor(factor.totp.secret) });
    expect(sixteenth.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });
});

describe('unenroll', () => {
  it('needs aal2 for a verified factor; the sessions it raised drop to aal1', async () => {
    const user = await newUser('mfa-unenroll');
    const client = await signedIn(user);
    const factor = await withVerifiedFactor(client);
    const aal1 = await signedIn(user);
    const refused = await aal1.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error).toMatchObject({ status: 422, code: 'insufficient_aal' });

    const { data, error } = await client.auth.mfa.unenroll({ factorId: factor.id });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factor.id });
    await client.auth.refreshSession();
    const claims = await claimsOf(client);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr.map((entry) => entry.method)).toEqual(['password']);
    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed!.all).toEqual([]);
  });

  it('removes an unverified factor at aal1', async () => {
    const client = await signedIn(await newUser('mfa-unverified'));
    const factor = await enrolled(client);
    expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
  });
});

describe('admin factor routes', () => {
  it('list and delete a user’s factors with the service role only', async () => {
    const user = await newUser('mfa-admin');
    const client = await signedIn(user);
    const factor = await withVerifiedFactor(client);
    const admin = createTestClient(stack, 'service');
    const { data, error } = await admin.auth.admin.mfa.listFactors({ userId: user.id });
    expect(error).toBeNull();
    expect(data!.factors.map((f) => [f.id, f.status])).toEqual([[factor.id, 'verified']]);
    expect(JSON.stringify(data)).not.toContain(factor.totp.secret);

    const denied = await client.auth.admin.mfa.listFactors({ userId: user.id });
    expect(denied.error).toMatchObject({ status: 403 });

    const deleted = await admin.auth.admin.mfa.deleteFactor({ userId: user.id, id: factor.id });
    expect(deleted.error).toBeNull();
    // supabase-js hands back the response body wrapped once more ({ data: factor }), here as on hosted.
    expect(JSON.stringify(deleted.data)).toContain(factor.id);
    const again = await admin.auth.admin.mfa.deleteFactor({ userId: user.id, id: factor.id });
    expect(again.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const later = await signedIn(user);
    const { data: level } = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });
});

describe('admin soft delete (should_soft_delete)', () => {
  it('keeps the id, hides the email, ends sessions and removes factors, as GoTrue does', async () => {
    const user = await newUser('mfa-softdelete');
    const client = await signedIn(user);
    await withVerifiedFactor(client);
    const { data: before } = await client.auth.getSession();
    const admin = createTestClient(stack, 'service');

    const { error } = await admin.auth.admin.deleteUser(user.id, true);
    expect(error).toBeNull();
    const { data: kept } = await admin.auth.admin.getUserById(user.id);
    expect(kept.user?.id).toBe(user.id);
    expect(kept.user?.email).not.toContain('@');
    expect(kept.user?.user_metadata).toEqual({});
    expect((await admin.auth.admin.mfa.listFactors({ userId: user.id })).data?.factors).toEqual([]);
    const { rows } = await stack.db.query('select 1 from auth.sessions where user_id = $1', [user.id]);
    expect(rows).toHaveLength(0);
    const { rows: profile } = await stack.db.query('select 1 from public.profiles where id = $1', [user.id]);
    expect(profile).toHaveLength(1);

    const again = createTestClient(stack);
    const signIn = await again.auth.signInWithPassword({ email: user.email, password: user.password });
    expect(signIn.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    const refreshed = await again.auth.refreshSession({ refresh_token: before.session!.refresh_token });
    expect(refreshed.error).toMatchObject({ code: 'refresh_token_not_found' });
    // A second soft delete changes nothing; a hard delete still removes the row.
    expect((await admin.auth.admin.deleteUser(user.id, true)).error).toBeNull();
    expect((await admin.auth.admin.deleteUser(user.id)).error).toBeNull();
    expect((await admin.auth.admin.getUserById(user.id)).error).toMatchObject({ status: 404 });
  });
});
