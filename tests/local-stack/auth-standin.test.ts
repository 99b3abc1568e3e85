/**
 * The local Google stand-in (issue 10, findings 4 and 5): it proves no address, so it may only reopen
 * accounts it created and that nobody has since given a password; its states are single use and
 * short-lived, its submissions rate-limited, and banned users stay out.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { fragmentOf, latestMailTo, redirectOf, uniqueEmail, verifyLinkIn } from './auth-helpers';

const SUBMISSIONS_PER_IP = 8;

let stack: StackHandle;
beforeAll(async () => {
  // X-Forwarded-For is trusted so that each test counts against its own client address.
  stack = await startStack({
    rateLimits: { signupRecover: SUBMISSIONS_PER_IP, verify: 1000, token: 1000 },
    auth: { trustForwardedFor: true, emailSendInterval: 0 },
  });
});
afterAll(async () => {
  await stack?.stop();
});

const site = 'http://127.0.0.1:5173';
let nextIp = 1;
const freshIp = () => `10.20.0.${nextIp++}`;

/** authorize -> the stand-in page: the signed state its form carries. */
async function newState(): Promise<string> {
  const { data } = await createTestClient(stack).auth.signInWithOAuth({
    provider: 'google',
    options: { redirectTo: `${site}/`, skipBrowserRedirect: true },
  });
  const toPage = await redirectOf(data.url!);
  const html = await (await fetch(toPage.location)).text();
  const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
  expect(state).toBeTruthy();
  return state!;
}

function submit(state: string, email: string, ip: string, name = 'Stan Standin'): Promise<Response> {
  return fetch(`${stack.apiUrl}/auth/v1/local-provider/google`, {
    method: 'POST',
    headers: { 'x-forwarded-for': ip },
    body: new URLSearchParams({ state, email, name }),
    redirect: 'manual',
  });
}

async function usersNamed(email: string): Promise<number> {
  const { rows } = await stack.db.query<{ n: number }>('select count(*)::int as n from auth.users where email = $1', [email]);
  return rows[0]!.n;
}

describe('the Google stand-in', () => {
  it('no longer reopens an account it created once that account was given a password through forgot-password', async () => {
    const ip = freshIp();
    const email = uniqueEmail('adopted');
    const first = await submit(await newState(), email, ip);
    expect(first.status).toBe(302);

    const client = createTestClient(stack);
    await client.auth.resetPasswordForEmail(email, { redirectTo: `${site}/reset-password` });
    const { location } = await redirectOf(verifyLinkIn((await latestMailTo(stack.inboxUrl, email)).Text));
    const fragment = fragmentOf(location);
    await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect((await client.auth.updateUser({ password: 'now-with-a-password' })).error).toBeNull();

    const again = await submit(await newState(), email, ip);
    expect(again.status).toBe(409);
    expect(again.headers.get('location')).toBeNull();
    expect(await again.text()).toContain('This email belongs to an account that signs in with its password.');
    // The password still works.
    expect((await createTestClient(stack).auth.signInWithPassword({ email, password: 'now-with-a-password' })).error).toBeNull();
  });

  it('uses a state once: a second submission of the same state creates nothing', async () => {
    const ip = freshIp();
    const state = await newState();
    const first = await submit(state, uniqueEmail('once-a'), ip);
    expect(first.status).toBe(302);
    const secondEmail = uniqueEmail('once-b');
    const second = await submit(state, secondEmail, ip);
    expect(second.status).toBe(400);
    expect(second.headers.get('location')).toBeNull();
    expect(await usersNamed(secondEmail)).toBe(0);
  });

  it('refuses a state older than five minutes even when its exp claim says otherwise', async () => {
    const now = Math.floor(Date.now() / 1000);
    const old = await new SignJWT({ redirectTo: `${site}/` })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(randomUUID())
      .setIssuedAt(now - 6 * 60)
      .setExpirationTime(now + 4 * 60)
      .sign(new TextEncoder().encode(`oauth-state:${stack.jwtSecret}`));
    const email = uniqueEmail('stale');
    const answer = await submit(old, email, freshIp());
    expect(answer.status).toBe(400);
    expect(await usersNamed(email)).toBe(0);
  });

  it(`creates at most ${SUBMISSIONS_PER_IP} accounts per client address and window, then answers 429`, async () => {
    const ip = freshIp();
    const prefix = `burst-${randomUUID().slice(0, 8)}`;
    const statuses: number[] = [];
    for (let i = 0; i <= SUBMISSIONS_PER_IP; i += 1) {
      statuses.push((await submit(await newState(), `${prefix}-${i}@example.com`, ip)).status);
    }
    expect(statuses).toEqual([...Array<number>(SUBMISSIONS_PER_IP).fill(302), 429]);
    const { rows } = await stack.db.query<{ n: number }>('select count(*)::int as n from auth.users where email like $1', [`${prefix}-%`]);
    expect(rows[0]!.n).toBe(SUBMISSIONS_PER_IP);
  });

  it('answers a NUL in the name with 400 and the form again, and creates nothing', async () => {
    const email = uniqueEmail('nul-name');
    const answer = await submit(await newState(), email, freshIp(), 'Nul\u0000Name');
    expect(answer.status).toBe(400);
    expect(await usersNamed(email)).toBe(0);
  });

  it('keeps a banned user out (403, no redirect), like GoTrue at the provider callback', async () => {
    const ip = freshIp();
    const email = uniqueEmail('banned-google');
    const first = await submit(await newState(), email, ip);
    expect(first.status).toBe(302);
    const { rows } = await stack.db.query<{ id: string }>('select id from auth.users where email = $1', [email]);
    const admin = createTestClient(stack, 'service');
    expect((await admin.auth.admin.updateUserById(rows[0]!.id, { ban_duration: '1h' })).error).toBeNull();
    const again = await submit(await newState(), email, ip);
    expect(again.status).toBe(403);
    expect(again.headers.get('location')).toBeNull();
    expect(await again.text()).toContain('banned');
  });
});
