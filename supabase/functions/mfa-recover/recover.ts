/*
 * The mfa-recover Edge Function's work, free of Deno APIs (docs/adr/0206): a user who lost the authenticator app
 * signs in with the password (an aal1 session) and sends one of the recovery codes shown at enrolment. The code is
 * spent by public.mfa_redeem_recovery_code (service role; the codes are stored hashed and no API role reads them),
 * then every factor of the user is removed through GoTrue's admin API, exactly as on hosted Supabase, so the next
 * sign-in asks for no code and the user can enrol a new phone.
 *
 * Secrets: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (set by the platform). Nothing secret is logged: no code,
 * no token, no email address.
 */

export interface RecoverConfig {
  supabaseUrl: string;
  serviceRoleKey: string;
}

export interface RecoverDeps {
  fetch: typeof fetch;
  log?: (line: string) => void;
}

export function recoverConfigFromEnv(get: (name: string) => string | undefined): RecoverConfig {
  const missing = ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY'].filter((name) => !get(name));
  if (missing.length > 0) throw new Error(`mfa-recover: missing secrets ${missing.join(', ')}`);
  return { supabaseUrl: (get('SUPABASE_URL') ?? '').replace(/\/+$/, ''), serviceRoleKey: get('SUPABASE_SERVICE_ROLE_KEY') ?? '' };
}

const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

function answer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...cors, 'Content-Type': 'application/json' } });
}

/** The signed-in user behind the bearer token, asked of the auth service (it refuses ended sessions). */
async function userIdOf(config: RecoverConfig, deps: RecoverDeps, bearer: string): Promise<string | null> {
  const response = await deps.fetch(`${config.supabaseUrl}/auth/v1/user`, {
    headers: { apikey: config.serviceRoleKey, Authorization: `Bearer ${bearer}` },
  });
  if (!response.ok) return null;
  const user = (await response.json()) as { id?: unknown };
  return typeof user.id === 'string' ? user.id : null;
}

function serviceHeaders(config: RecoverConfig): Record<string, string> {
  return { apikey: config.serviceRoleKey, Authorization: `Bearer ${config.serviceRoleKey}`, 'Content-Type': 'application/json' };
}

async function redeem(config: RecoverConfig, deps: RecoverDeps, userId: string, code: string): Promise<boolean> {
  const response = await deps.fetch(`${config.supabaseUrl}/rest/v1/rpc/mfa_redeem_recovery_code`, {
    method: 'POST',
    headers: serviceHeaders(config),
    body: JSON.stringify({ _user_id: userId, _code: code }),
  });
  if (!response.ok) throw new Error(`redeeming failed with status ${response.status}`);
  return (await response.json()) === true;
}

/** Removes every factor of the user with the auth admin API (supabase-js auth.admin.mfa.deleteFactor's route). */
async function removeFactors(config: RecoverConfig, deps: RecoverDeps, userId: string): Promise<number> {
  const base = `${config.supabaseUrl}/auth/v1/admin/users/${userId}/factors`;
  const listed = await deps.fetch(base, { headers: serviceHeaders(config) });
  if (!listed.ok) throw new Error(`listing factors failed with status ${listed.status}`);
  const factors = (await listed.json()) as { id: string }[];
  for (const factor of factors) {
    const removed = await deps.fetch(`${base}/${factor.id}`, { method: 'DELETE', headers: serviceHeaders(config) });
    if (!removed.ok && removed.status !== 404) throw new Error(`removing a factor failed with status ${removed.status}`);
  }
  return factors.length;
}

export function createRecoverHandler(config: RecoverConfig, deps: RecoverDeps): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'POST') return answer(405, { error: 'method_not_allowed' });
    const bearer = /^bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!bearer) return answer(401, { error: 'sign_in_required', message: 'Sign in with your password first.' });
    let code: unknown;
    try {
      code = ((await request.json()) as { code?: unknown }).code;
    } catch {
      return answer(400, { error: 'bad_json', message: 'Send {"code": "..."} as JSON.' });
    }
    if (typeof code !== 'string' || code.trim() === '' || code.length > 64) {
      return answer(400, { error: 'validation_failed', message: 'Type one of your recovery codes.' });
    }
    try {
      const userId = await userIdOf(config, deps, bearer);
      if (!userId) return answer(401, { error: 'sign_in_required', message: 'Sign in with your password first.' });
      if (!(await redeem(config, deps, userId, code))) {
        return answer(400, { error: 'invalid_recovery_code', message: 'That recovery code is wrong or already used.' });
      }
      const removed = await removeFactors(config, deps, userId);
      deps.log?.(`mfa-recover: a recovery code was used; ${removed} factor(s) removed`);
      return answer(200, { removed });
    } catch (error) {
      deps.log?.(`mfa-recover: ${error instanceof Error ? error.message : 'unexpected failure'}`);
      return answer(502, { error: 'recovery_failed', message: 'Recovery is not available right now. Try again shortly.' });
    }
  };
}
