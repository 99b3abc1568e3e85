import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

let stack: StackHandle;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const owner1 = '22222222-2222-4222-8222-222222222222';
const owner2 = '33333333-3333-4333-8333-333333333333';

async function token(secret: string, claims: Record<string, unknown>, expiresIn: string | number = '1h') {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(secret));
}

async function expectJson(response: Response, status: number): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

async function stillServing() {
  const response = await fetch(`${stack.apiUrl}/auth/v1/settings`, { headers: { apikey: stack.anonKey } });
  expect(response.status).toBe(200);
}

describe('the gateway refuses bad input with JSON and keeps serving', () => {
  it('missing or unknown apikey: 401 JSON on /rest and /auth', async () => {
    for (const path of ['/rest/v1/profiles', '/auth/v1/settings']) {
      expect((await expectJson(await fetch(`${stack.apiUrl}${path}`), 401)).message).toBe('No API key found in request');
      const forged = await fetch(`${stack.apiUrl}${path}`, { headers: { apikey: 'not-a-key' } });
      expect((await expectJson(forged, 401)).message).toBe('Invalid API key');
    }
    // ?apikey= works like the header.
    expect((await fetch(`${stack.apiUrl}/auth/v1/settings?apikey=${stack.anonKey}`)).status).toBe(200);
    await stillServing();
  });

  it('forged and expired JWTs: PostgREST 401 on /rest, GoTrue 403 bad_jwt on /auth', async () => {
    const forged = await token('a-completely-different-secret-of-enough-length', { role: 'authenticated', sub: owner1 });
    const expired = await token(stack.jwtSecret, { role: 'authenticated', sub: owner1 }, Math.floor(Date.now() / 1000) - 60);
    const headers = (jwt: string) => ({ apikey: stack.anonKey, authorization: `Bearer ${jwt}` });

    const restForged = await expectJson(await fetch(`${stack.apiUrl}/rest/v1/profiles`, { headers: headers(forged) }), 401);
    expect(restForged.code).toBe('PGRST301');
    const restExpired = await expectJson(await fetch(`${stack.apiUrl}/rest/v1/profiles`, { headers: headers(expired) }), 401);
    expect(restExpired).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
    const garbage = await expectJson(await fetch(`${stack.apiUrl}/rest/v1/profiles`, { headers: headers('abc.def') }), 401);
    expect(garbage.code).toBe('PGRST301');
    const badRole = await token(stack.jwtSecret, { role: 'postgres' });
    expect((await expectJson(await fetch(`${stack.apiUrl}/rest/v1/profiles`, { headers: headers(badRole) }), 401)).code).toBe('PGRST303');

    const authForged = await fetch(`${stack.apiUrl}/auth/v1/user`, { headers: { ...headers(forged), 'X-Supabase-Api-Version': '2024-01-01' } });
    expect((await expectJson(authForged, 403)).code).toBe('bad_jwt');
    expect(authForged.headers.get('x-sb-error-code')).toBe('bad_jwt');
    const noBearer = await fetch(`${stack.apiUrl}/auth/v1/user`, { headers: { apikey: stack.anonKey, 'X-Supabase-Api-Version': '2024-01-01' } });
    expect((await expectJson(noBearer, 401)).code).toBe('no_authorization');
    await stillServing();
  });

  it('malformed JSON: 400 bad_json, nothing created', async () => {
    const response = await fetch(`${stack.apiUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
      body: '{"email": "broken@example.com", "password": ',
    });
    expect((await expectJson(response, 400)).code).toBe('bad_json');
    const users = await stack.db.query(`select 1 from auth.users where email = 'broken@example.com'`);
    expect(users.rows).toHaveLength(0);
    // Legacy clients (no API version header) get GoTrue's older error shape.
    const legacy = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: 'nope',
    });
    expect(await expectJson(legacy, 400)).toMatchObject({ code: 400, error_code: 'bad_json' });
    await stillServing();
  });

  it('oversized bodies: 413 JSON, with or without content-length', async () => {
    const big = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) });
    const withLength = await fetch(`${stack.apiUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: big,
    });
    expect((await expectJson(withLength, 413)).code).toBe('request_too_large');
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 40; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
        controller.close();
      },
    });
    const streamed = await fetch(`${stack.apiUrl}/rest/v1/support_tickets`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await stillServing();
  });

  it('deeply nested JSON on /rest/v1: 400 PGRST102 (a 200,000-deep body was a 500 stack overflow)', async () => {
    const depth = 200_000;
    const bodies = [
      `{"subject":"deep","message":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      // Objects at 150,000 levels: 200,000 would pass the 1 MiB body limit (a 413).
      `[${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}]`,
    ];
    const headers = { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}`, 'content-type': 'application/json' };
    for (const body of bodies) {
      for (const [method, path] of [['POST', 'support_tickets'], ['PATCH', 'profiles?id=eq.' + owner1], ['POST', 'rpc/choose_plan']] as const) {
        const response = await fetch(`${stack.apiUrl}/rest/v1/${path}`, { method, headers, body });
        const json = await expectJson(response, 400);
        expect(json).toMatchObject({ code: 'PGRST102', details: 'JSON nested deeper than 512 levels' });
      }
    }
    // Brackets inside strings are text, and ordinary nesting passes through to the data API.
    const brackets = await fetch(`${stack.apiUrl}/rest/v1/rpc/choose_plan`, { method: 'POST', headers, body: JSON.stringify({ plan: '['.repeat(5000) }) });
    expect(brackets.status).not.toBe(400);
    expect(((await brackets.json()) as { details?: string }).details ?? '').not.toContain('nested deeper');
    const tickets = await stack.db.query(`select 1 from public.support_tickets where subject = 'deep'`);
    expect(tickets.rows).toHaveLength(0);
    await stillServing();
  });

  it('unknown routes answer JSON 404', async () => {
    const response = await fetch(`${stack.apiUrl}/storage/v1/object`, { headers: { apikey: stack.anonKey } });
    await expectJson(response, 404);
  });

  it('CORS: the web origin and the desktop origin are allowed, others are not', async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.apiUrl}/rest/v1/profiles`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'apikey,authorization,x-client-info' },
      });
    for (const origin of ['http://127.0.0.1:5173', 'app://storewise']) {
      const response = await preflight(origin);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('apikey');
    }
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('concurrent requests never mix roles or claims', () => {
  const users = [owner1, owner2];

  it('through db.asRequest: 200 interleaved transactions each see only their own sub and role', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const sub = users[i % 2]!;
        const role = i % 5 === 0 ? ('anon' as const) : ('authenticated' as const);
        return stack.db.asRequest({ role, claims: { role, sub }, readOnly: i % 3 === 0 }, async (tx) => {
          const first = await tx.query<{ sub: string; who: string }>(`select auth.uid()::text as sub, current_user as who`);
          await new Promise((resolve) => setTimeout(resolve, i % 7));
          const second = await tx.query<{ sub: string; who: string }>(`select auth.uid()::text as sub, current_user as who`);
          return { expected: { sub, who: role }, seen: [first.rows[0], second.rows[0]] };
        });
      }),
    );
    for (const { expected, seen } of results) expect(seen).toEqual([expected, expected]);
    // Outside any request, the owner has no claims left over.
    const after = await stack.db.query<{ sub: string | null; who: string }>(`select auth.uid()::text as sub, current_user as who`);
    expect(after.rows[0]).toEqual({ sub: null, who: 'postgres' });
  });

  it('over HTTP: two users firing interleaved requests each get only their own rows', async () => {
    const clients = await Promise.all(
      ['owner1@storewise.local', 'owner2@storewise.local'].map(async (email) => {
        const client = createTestClient(stack);
        const { error } = await client.auth.signInWithPassword({ email, password: 'storewise-owner' });
        expect(error).toBeNull();
        return client;
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const index = i % 2;
        const { data, error } = await clients[index]!.from('profiles').select('id');
        expect(error).toBeNull();
        return { expected: users[index], ids: (data ?? []).map((row) => row.id as string) };
      }),
    );
    for (const { expected, ids } of results) expect(ids).toEqual([expected]);
  });

  it('a failing request rolls back and does not leak its role into the next one', async () => {
    await expect(
      stack.db.asRequest({ role: 'authenticated', claims: { role: 'authenticated', sub: owner1 }, readOnly: true }, async (tx) => {
        await tx.query(`insert into public.support_tickets (user_id, subject, message) values ($1, 'x', 'y')`, [owner1]);
      }),
    ).rejects.toThrow(/read-only/);
    const next = await stack.db.asRequest({ role: 'anon', claims: { role: 'anon' }, readOnly: false }, (tx) =>
      tx.query<{ who: string; sub: string | null }>(`select current_user as who, auth.uid()::text as sub`),
    );
    expect(next.rows[0]).toEqual({ who: 'anon', sub: null });
  });
});
