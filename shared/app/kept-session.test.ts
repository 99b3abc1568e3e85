import { describe, expect, it } from 'vitest';
import { sessionStorageKey } from '../features/landing/stored-session';
import { keptSession } from './kept-session';

const url = 'http://127.0.0.1:54321';
const platformWith = (value: string | null, fail = false) => ({
  supabase: { url, anonKey: 'anon' },
  sessionStorage: {
    getItem: (key: string) => {
      if (fail) throw new Error('storage blocked');
      return key === sessionStorageKey(url) ? value : null;
    },
    setItem: () => undefined,
    removeItem: () => undefined,
  },
});

describe('the session supabase-js keeps in storage (docs/adr/0200)', () => {
  it('reads a complete session as supabase-js wrote it', async () => {
    const stored = { access_token: 'a', refresh_token: 'r', expires_at: 1, user: { id: 'u1', email: 'c@example.com' } };
    expect(await keptSession(platformWith(JSON.stringify(stored)))).toEqual(stored);
  });

  it('counts nothing, junk, an incomplete session or blocked storage as none', async () => {
    for (const value of [null, '', 'null', '{not json', '"text"', JSON.stringify({ access_token: 'a', user: { id: 'u1' } }),
      JSON.stringify({ access_token: 'a', refresh_token: 'r' })]) {
      expect(await keptSession(platformWith(value)), String(value)).toBeNull();
    }
    expect(await keptSession(platformWith('{}', true))).toBeNull();
  });
});
