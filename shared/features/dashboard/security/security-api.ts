// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/auth.sql: active_sessions login_activity
import { createClient } from '@supabase/supabase-js';
import type { SupabaseConfig } from '../../../platform/platform';
import { serviceMessage } from '../../../lib/service-message';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { ServiceError, unwrap } from '../api-result';

export async function fetchActiveSessions(supabase: StorewiseClient, userId: string) {
  return unwrap(
    await supabase
      .from('active_sessions')
      .select('id, session_id, device, location, last_active, is_current, created_at, two_factor')
      .eq('user_id', userId)
      .order('last_active', { ascending: false }),
  );
}

/** The last 10 sign-ins (spec section 9). */
export async function fetchLoginActivity(supabase: StorewiseClient, userId: string, limit = 10) {
  return unwrap(
    await supabase
      .from('login_activity')
      .select('id, device, login_at, location, ip_address')
      .eq('user_id', userId)
      .order('login_at', { ascending: false })
      .limit(limit),
  );
}

/** The current password did not match: the screen says so instead of showing the service's wording. */
export class WrongPasswordError extends Error {
  constructor() {
    super('Your current password is incorrect.');
    this.name = 'WrongPasswordError';
  }
}

/**
 * Checks the current password by signing in on a separate client that keeps nothing: no storage, no
 * refresh timer, no URL parsing. The app's own session is left alone; the check's session is ended at
 * once. See docs/adr/0051-reauthenticate-before-password-change.md.
 */
async function verifyCurrentPassword(config: SupabaseConfig, email: string, password: string): Promise<void> {
  const probe = createClient(config.url, config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, storageKey: 'storewise-reauth' },
  });
  const { error } = await probe.auth.signInWithPassword({ email, password });
  if (error) {
    if (error.code === 'invalid_credentials' || error.message === 'Invalid login credentials') throw new WrongPasswordError();
    throw new ServiceError(serviceMessage(error), error.code);
  }
  const { error: signOutError } = await probe.auth.signOut({ scope: 'local' });
  if (signOutError) console.error('Ending the password check session failed:', signOutError.message);
}

/** Security > Change Password: verify the current password, then set the new one on the app's session. */
export async function changePassword(
  supabase: StorewiseClient,
  config: SupabaseConfig,
  email: string,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  await verifyCurrentPassword(config, email, currentPassword);
  const { error } = await supabase.auth.updateUser({ password: newPassword });
  if (error) throw new ServiceError(serviceMessage(error), error.code);
}

/** Ends every session of this user except this device's (auth service logout scope 'others'). */
export async function logoutOtherDevices(supabase: StorewiseClient): Promise<void> {
  const { error } = await supabase.auth.signOut({ scope: 'others' });
  if (error) throw new ServiceError(serviceMessage(error), error.code);
}

export type ActiveSession = Awaited<ReturnType<typeof fetchActiveSessions>>[number];
export type LoginEntry = Awaited<ReturnType<typeof fetchLoginActivity>>[number];
