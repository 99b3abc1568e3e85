import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An opaque refresh token (GoTrue uses short random strings too). */
export function newRefreshToken(): string {
  return randomBytes(16).toString('base64url');
}

/** The 6-digit code shown in emails. */
export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** GoTrue's token hash: hex sha224 of email + otp; email links carry it as ?token=. */
export function tokenHash(email: string, otp: string): string {
  return createHash('sha224').update(email + otp).digest('hex');
}

export const PKCE_PREFIX = 'pkce_';

/** RFC 7636: s256 compares base64url(sha256(verifier)); plain compares the verifier itself. */
export function verifyCodeChallenge(verifier: string, challenge: string, method: 's256' | 'plain'): boolean {
  const expected = method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const given = challenge.replace(/=+$/, '');
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
