import type { Context } from 'hono';
import type { ApiKeys } from '../keys/api-keys';

/**
 * Supabase's gateway refuses requests without a project key (header apikey or ?apikey=). The key is
 * compared with this stack's anon and service_role keys, like Kong's key-auth.
 */
export function apiKeyProblem(c: Context, keys: ApiKeys): Response | undefined {
  const key = c.req.header('apikey') ?? c.req.query('apikey');
  if (!key) {
    return c.json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, 401);
  }
  if (key !== keys.anonKey && key !== keys.serviceRoleKey) {
    return c.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
  }
  return undefined;
}
