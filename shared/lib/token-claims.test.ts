import { describe, expect, it } from 'vitest';
import { tokenClaims } from './token-claims';

const encode = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value)))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const token = (claims: unknown) => `${encode({ alg: 'HS256' })}.${encode(claims)}.sig`;

describe('tokenClaims', () => {
  it('reads a JWT payload, base64url and UTF-8', () => {
    expect(tokenClaims(token({ aal: 'aal2', name: 'Élodie ✓?>>' }))).toEqual({ aal: 'aal2', name: 'Élodie ✓?>>' });
  });

  it('is null for a missing token, a non-JWT, a broken payload and a payload that is not an object', () => {
    expect(tokenClaims(null)).toBeNull();
    expect(tokenClaims('opaque')).toBeNull();
    expect(tokenClaims('a.%%%.c')).toBeNull();
    expect(tokenClaims(token([1, 2]))).toBeNull();
    expect(tokenClaims(token('aal2'))).toBeNull();
  });
});
