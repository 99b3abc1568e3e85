import { errors, jwtVerify } from 'jose';
import type { JwtClaims } from '../db/types';

export type JwtCheck =
  | { ok: true; claims: JwtClaims; role: ApiRole }
  | { ok: false; reason: 'expired' | 'invalid' | 'role' | 'audience'; message: string };

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

/** The audience GoTrue puts in user tokens, and the jwt-aud Supabase's PostgREST is configured with. */
export const JWT_AUDIENCE = 'authenticated';

export function isApiRole(role: unknown): role is ApiRole {
  return role === 'anon' || role === 'authenticated' || role === 'service_role';
}

/**
 * PostgREST's jwt-aud rule: a token without an aud claim (the anon and service_role keys) passes; one
 * with an aud must name this audience (a string, or an array of strings containing it).
 */
function audienceProblem(aud: unknown): string | undefined {
  if (aud === undefined || aud === null) return undefined;
  const list = Array.isArray(aud) ? aud : [aud];
  if (!list.every((entry) => typeof entry === 'string')) return "The JWT 'aud' claim must be a string or an array of strings";
  if (list.length > 0 && !list.includes(JWT_AUDIENCE)) return 'JWT not in audience';
  return undefined;
}

/** Verifies an HS256 JWT of this stack and extracts its role (anon, authenticated or service_role). */
export async function verifyJwt(token: string, jwtSecret: string): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), { algorithms: ['HS256'] });
    const audience = audienceProblem(payload.aud);
    if (audience) return { ok: false, reason: 'audience', message: audience };
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
