import { describe, expect, it } from 'vitest';
import { readResetLink } from './reset-link';

const read = (query: string, recovered = false) => readResetLink(new URLSearchParams(query), recovered);

describe('readResetLink', () => {
  it('takes both tokens from the query (the spec link)', () => {
    expect(read('access_token=a&refresh_token=r')).toEqual({ kind: 'tokens', accessToken: 'a', refreshToken: 'r' });
  });
  it('is invalid when one of the two tokens is missing', () => {
    expect(read('access_token=a').kind).toBe('invalid');
    expect(read('refresh_token=r').kind).toBe('invalid');
  });
  it('takes a PKCE code', () => {
    expect(read('code=abc')).toEqual({ kind: 'code', code: 'abc' });
  });
  it('accepts a session supabase-js recovered from the fragment', () => {
    expect(read('', true)).toEqual({ kind: 'recovered' });
  });
  it('is invalid with nothing, and when the link reports an error even with a session', () => {
    expect(read('').kind).toBe('invalid');
    expect(read('error=access_denied&error_description=Email+link+is+invalid+or+has+expired', true)).toEqual({
      kind: 'invalid',
      reason: 'Email link is invalid or has expired',
    });
  });
});
