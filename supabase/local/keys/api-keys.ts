import { SignJWT } from 'jose';

export interface ApiKeys {
  anonKey: string;
  serviceRoleKey: string;
}

/** Same expiry as the supabase CLI's demo keys, so the keys stay valid for years. */
const KEY_EXPIRY = 1983812996;

async function apiKey(role: 'anon' | 'service_role', secret: Uint8Array): Promise<string> {
  return new SignJWT({ iss: 'supabase-demo', role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime(KEY_EXPIRY)
    .sign(secret);
}

/** The anon and service_role keys derive from the secret alone: same secret, same keys. */
export async function deriveApiKeys(jwtSecret: string): Promise<ApiKeys> {
  const secret = new TextEncoder().encode(jwtSecret);
  // No iat claim on purpose: deterministic keys, so `status` prints what `start` serves.
  return { anonKey: await apiKey('anon', secret), serviceRoleKey: await apiKey('service_role', secret) };
}
