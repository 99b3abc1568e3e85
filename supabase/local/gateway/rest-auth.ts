import type { Context } from 'hono';
import type { RestAuth } from '../rest/handle-rest';
import type { ApiKeys } from '../keys/api-keys';
import { verifyJwt } from '../keys/verify-jwt';

/**
 * PostgREST's JWT step: the bearer token (or, without one, the apikey, as Supabase's gateway does)
 * gives the role and claims; a bad token is a 401 with PGRST301 (undecodable / bad signature) or
 * PGRST303 (expired or unusable claims, including an aud other than "authenticated").
 */
export async function restAuth(c: Context, keys: ApiKeys, jwtSecret: string): Promise<RestAuth | Response> {
  const header = c.req.header('authorization');
  const bearer = header ? /^bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
  const token = bearer ?? c.req.header('apikey') ?? c.req.query('apikey') ?? keys.anonKey;
  if (header && !bearer) return jwtError(c, 'PGRST301', 'Authorization header is not a Bearer token');
  const check = await verifyJwt(token, jwtSecret);
  if (check.ok) return { role: check.role, claims: check.claims };
  if (check.reason === 'expired') return jwtError(c, 'PGRST303', 'JWT expired');
  if (check.reason === 'role' || check.reason === 'audience') return jwtError(c, 'PGRST303', check.message);
  return jwtError(c, 'PGRST301', check.message);
}

function jwtError(c: Context, code: string, message: string): Response {
  return c.json({ code, details: null, hint: null, message }, 401, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message}"`,
  });
}
