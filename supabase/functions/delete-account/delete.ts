/*
 * The delete-account Edge Function's work, free of Deno APIs (docs/adr/0208): a team member deletes their own login.
 * 1. public.account_deletion_check() with the caller's own token: signed in, the second factor given when the user
 *    has one (aal2), no business owned. 2. public.erase_member_personal_data (service role): memberships end, the
 *    name becomes "Former staff member", written to the account security trail first. 3. GoTrue's admin soft delete
 *    (should_soft_delete): the auth row and its id stay, so sales, shifts, stock movements and the trail keep their
 *    actor; email, password, sessions and factors go. Each step is idempotent: a deletion cut off halfway is finished
 *    by calling again (step 1 then fails only if the auth user is already gone, which is the finished state).
 *
 * Secrets: SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY (set by the platform). Nothing personal or
 * secret is logged.
 */

export interface DeleteConfig {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
}

export interface DeleteDeps {
  fetch: typeof fetch;
  log?: (line: string) => void;
}

export function deleteConfigFromEnv(get: (name: string) => string | undefined): DeleteConfig {
  const names = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'];
  const missing = names.filter((name) => !get(name));
  if (missing.length > 0) throw new Error(`delete-account: missing secrets ${missing.join(', ')}`);
  return {
    supabaseUrl: (get('SUPABASE_URL') ?? '').replace(/\/+$/, ''),
    anonKey: get('SUPABASE_ANON_KEY') ?? '',
    serviceRoleKey: get('SUPABASE_SERVICE_ROLE_KEY') ?? '',
  };
}

const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

function answer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...cors, 'Content-Type': 'application/json' } });
}

/** The data API's refusals that the user can act on, passed on with their wording. */
const userFacing: Record<string, number> = { '42501': 403, P0001: 409 };

export function createDeleteHandler(config: DeleteConfig, deps: DeleteDeps): (request: Request) => Promise<Response> {
  const service = { apikey: config.serviceRoleKey, Authorization: `Bearer ${config.serviceRoleKey}`, 'Content-Type': 'application/json' };
  return async (request) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'POST') return answer(405, { error: 'method_not_allowed' });
    const bearer = /^bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!bearer) return answer(401, { error: 'sign_in_required', message: 'Sign in first.' });
    try {
      const check = await deps.fetch(`${config.supabaseUrl}/rest/v1/rpc/account_deletion_check`, {
        method: 'POST',
        headers: { apikey: config.anonKey, Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      if (!check.ok) {
        const refusal = (await check.json().catch(() => ({}))) as { code?: string; message?: string };
        const status = (refusal.code && userFacing[refusal.code]) || (check.status === 401 ? 401 : 0);
        if (status) return answer(status, { error: refusal.code ?? 'refused', message: refusal.message ?? 'Sign in first.' });
        throw new Error(`the deletion check failed with status ${check.status}`);
      }
      const userId = (await check.json()) as unknown;
      if (typeof userId !== 'string') throw new Error('the deletion check returned no user');
      const erase = await deps.fetch(`${config.supabaseUrl}/rest/v1/rpc/erase_member_personal_data`, {
        method: 'POST',
        headers: service,
        body: JSON.stringify({ _user_id: userId }),
      });
      if (!erase.ok) throw new Error(`erasing failed with status ${erase.status}`);
      const removed = await deps.fetch(`${config.supabaseUrl}/auth/v1/admin/users/${userId}`, {
        method: 'DELETE',
        headers: service,
        body: JSON.stringify({ should_soft_delete: true }),
      });
      if (!removed.ok) throw new Error(`the auth soft delete failed with status ${removed.status}`);
      deps.log?.('delete-account: a login was deleted');
      return answer(200, { deleted: true });
    } catch (error) {
      deps.log?.(`delete-account: ${error instanceof Error ? error.message : 'unexpected failure'}`);
      return answer(502, { error: 'deletion_failed', message: 'Deleting the account failed; nothing is lost. Try again shortly.' });
    }
  };
}
