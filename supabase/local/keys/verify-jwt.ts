import { errors, jwtVerify } from 'jose';
import type { JwtClaims } from '../db/types';

export type JwtCheck =
  | { ok: true; claims: JwtClaims; role: ApiRole }
  | { ok: false; reason: 'expired' | 'invalid' | 'role'; message: string };

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export function isApiRole(role: unknown): role is ApiRole {
  return role === 'anon' || role === 'authenticated' || role === 'service_role';
}

/** Verifies an HS256 JWT of this stack and extracts its role (anon, authenticated or service_role). */
export async function verifyJwt(token: string, jwtSecret: string): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), { algorithms: ['HS256'] });
    const role = payload.role;
    if (!isApiRole(role)) return { ok: false, reason: 'role', message: `JWT role "${String(role)}" is not allowed` };
    const claims = { ...payload, role } satisfies JwtClaims;
    return { ok: true, claims, role };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired', message: 'JWT expired' };
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return { ok: false, reason: 'invalid', message: 'JWSError JWSInvalidSignature' };
    }
    return { ok: false, reason: 'invalid', message: 'JWT could not be decoded' };
  }
}
