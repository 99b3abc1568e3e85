import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { ApiKeys } from '../keys/api-keys';

/**
 * Constant-time equality: both sides are hashed first so that timingSafeEqual compares equal lengths,
 * and neither the key's length nor its first differing byte shows in the answer time.
 */
export function sameKey(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Supabase's gateway refuses requests without a project key (header apikey or ?apikey=). The key is
 * compared with this stack's anon and service_role keys, like Kong's key-auth.
 */
export function apiKeyProblem(c: Context, keys: ApiKeys): Response | undefined {
  const key = c.req.header('apikey') ?? c.req.query('apikey');
  if (!key) {
    return c.json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, 401);
  }
  // Both comparisons always run, so the answer time does not say which key was close.
  const isAnon = sameKey(key, keys.anonKey);
  const isService = sameKey(key, keys.serviceRoleKey);
  if (!isAnon && !isService) {
    return c.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
  }
  return undefined;
}
