import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { authReturnInUrl, hasStoredSession } from './stored-session';

// docs/adr/0167: the landing starts the app only when supabase-js has a session stored in this browser. The key
// is supabase-js's own: this test lets supabase-js store and remove a session and reads it back with our helper.

// supabase-js builds a realtime client eagerly and Node 20 has no WebSocket: a transport that is never used.
type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;
const noRealtime = function NoRealtime() {
  throw new Error('no realtime in this test');
} as unknown as Transport;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const accessToken = [
  base64url({ alg: 'HS256', typ: 'JWT' }),
  base64url({ sub: '00000000-0000-4000-8000-000000000001', exp: Math.floor(Date.now() / 1000) + 3600, role: 'authenticated' }),
  Buffer.from('signature').toString('base64url'),
].join('.');

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

/** Answers GoTrue's GET /user (setSession checks the token) and the local sign-out; nothing else is called. */
const authServer: typeof fetch = async (input) => {
  const url = String(input instanceof Request ? input.url : input);
  if (url.endsWith('/auth/v1/user')) return Response.json({ id: '00000000-0000-4000-8000-000000000001', aud: 'authenticated', role: 'authenticated', email: 'owner@example.com' });
  return new Response(null, { status: 204 });
};

describe('stored session', () => {
  for (const url of ['http://127.0.0.1:41100', 'https://abcdefghijklmnop.supabase.co']) {
    it(`reads the key supabase-js stores the session under (${url})`, async () => {
      const storage = memoryStorage();
      const client = createClient(url, 'anon', {
        realtime: { transport: noRealtime },
        global: { fetch: authServer },
        auth: { storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
      });
      expect(hasStoredSession(storage, url)).toBe(false);
      const { error } = await client.auth.setSession({ access_token: accessToken, refresh_token: 'refresh' });
      expect(error).toBeNull();
      expect(hasStoredSession(storage, url)).toBe(true);
      // Another project on the same origin is not this one.
      expect(hasStoredSession(storage, 'https://otherproject.supabase.co')).toBe(false);
      await client.auth.signOut({ scope: 'local' });
      expect(hasStoredSession(storage, url)).toBe(false);
    });
  }

  it('blocked storage reads as nobody signed in', () => {
    const blocked = { getItem: () => { throw new DOMException('denied', 'SecurityError'); } };
    expect(hasStoredSession(blocked, 'http://127.0.0.1:41100')).toBe(false);
  });

  it("recognises an auth server's answer in the address, and nothing else", () => {
    expect(authReturnInUrl({ hash: '#access_token=a&refresh_token=b&type=signup', search: '' })).toBe(true);
    expect(authReturnInUrl({ hash: '#pricing#access_token=a&refresh_token=b', search: '' })).toBe(true);
    expect(authReturnInUrl({ hash: '#error=access_denied&error_description=Link+expired', search: '' })).toBe(true);
    expect(authReturnInUrl({ hash: '', search: '?code=abc' })).toBe(true);
    expect(authReturnInUrl({ hash: '#pricing', search: '' })).toBe(false);
    expect(authReturnInUrl({ hash: '', search: '?plan=Pro' })).toBe(false);
  });
});
