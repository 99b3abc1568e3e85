import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tokenHash, verifyCodeChallenge } from './tokens';

describe('PKCE code challenge', () => {
  it('accepts the matching s256 verifier (padded or not) and refuses others', () => {
    const verifier = 'a'.repeat(56);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(verifyCodeChallenge(verifier, challenge, 's256')).toBe(true);
    expect(verifyCodeChallenge(verifier, `${challenge}=`, 's256')).toBe(true);
    expect(verifyCodeChallenge('b'.repeat(56), challenge, 's256')).toBe(false);
    expect(verifyCodeChallenge('plain-verifier', 'plain-verifier', 'plain')).toBe(true);
    expect(verifyCodeChallenge('plain-verifier', 'other', 'plain')).toBe(false);
  });

  it('hashes email and code like GoTrue (sha224 hex)', () => {
    expect(tokenHash('a@b.c', '123456')).toBe(createHash('sha224').update('a@b.c123456').digest('hex'));
    expect(tokenHash('a@b.c', '123456')).toHaveLength(56);
  });
});
