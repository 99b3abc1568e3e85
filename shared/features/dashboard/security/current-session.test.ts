import { describe, expect, it } from 'vitest';
import { isCurrentSession, sessionIdFromAccessToken } from './current-session';

function token(claims: object): string {
  const encode = (value: object) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

describe('sessionIdFromAccessToken', () => {
  it('reads the session_id claim', () => {
    expect(sessionIdFromAccessToken(token({ sub: 'u1', session_id: 'a2222222-0000-4000-8000-000000000002' }))).toBe(
      'a2222222-0000-4000-8000-000000000002',
    );
  });

  it('decodes base64url payloads with non-ASCII metadata', () => {
    const jwt = token({ session_id: 's-1', user_metadata: { full_name: 'Élodie Ünal ✓?>>' } });
    expect(jwt.split('.')[1]).toMatch(/[-_]/);
    expect(sessionIdFromAccessToken(jwt)).toBe('s-1');
  });

  it('is null for missing or broken tokens and claims', () => {
    expect(sessionIdFromAccessToken(undefined)).toBeNull();
    expect(sessionIdFromAccessToken('not-a-jwt')).toBeNull();
    expect(sessionIdFromAccessToken('a.%%%.c')).toBeNull();
    expect(sessionIdFromAccessToken(token({ sub: 'u1' }))).toBeNull();
    expect(sessionIdFromAccessToken(token({ session_id: 42 }))).toBeNull();
  });
});

describe('isCurrentSession', () => {
  const row = (session_id: string, is_current: boolean) => ({ session_id, is_current });

  it('matches on the token session id, whatever is_current says', () => {
    expect(isCurrentSession(row('s-1', false), 's-1')).toBe(true);
    expect(isCurrentSession(row('s-2', true), 's-1')).toBe(false);
  });

  it('falls back to is_current without a session id', () => {
    expect(isCurrentSession(row('s-2', true), null)).toBe(true);
    expect(isCurrentSession(row('s-3', false), null)).toBe(false);
  });
});
