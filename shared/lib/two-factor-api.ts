// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/auth.sql: mfa_new_recovery_codes() mfa_recovery_codes_left()
import type { Factor } from '@supabase/supabase-js';
import { serviceMessage } from './service-message';
import type { StorewiseClient } from './supabase-client';

/**
 * Two-factor sign-in through supabase-js's auth.mfa.* (GoTrue's TOTP API, the same on hosted Supabase and the
 * local stack) and the recovery-code functions of migration 20261127150000. Each call throws an Error whose
 * message can be shown as it is.
 */

const codeMessages: Record<string, string> = {
  mfa_verification_failed: 'That code is not right. Check the time on your phone and type the code shown now.',
  mfa_challenge_expired: 'That took too long. Type the code shown now.',
  over_request_rate_limit: 'Too many tries. Wait a minute, then try again.',
  insufficient_aal: 'Confirm with a code from your authenticator app first.',
  mfa_factor_name_conflict: 'You already have an authenticator with that name.',
  too_many_enrolled_mfa_factors: 'You have the most authenticators allowed. Remove one first.',
};

function fail(error: { message: string; name?: string; code?: string | undefined }): never {
  throw new Error((error.code && codeMessages[error.code]) || serviceMessage(error));
}

export interface Assurance {
  current: 'aal1' | 'aal2' | null;
  next: 'aal1' | 'aal2' | null;
}

/** Read from the session's token and its user's factors; no request. */
export async function assuranceOf(supabase: StorewiseClient): Promise<Assurance> {
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error) fail(error);
  return { current: data.currentLevel as Assurance['current'], next: data.nextLevel as Assurance['next'] };
}

/** The user's confirmed authenticator apps (unconfirmed ones are left from an abandoned setup). */
export async function verifiedFactors(supabase: StorewiseClient): Promise<Factor[]> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) fail(error);
  return data.totp;
}

/** Challenge and verify in one: the session becomes aal2 (supabase-js stores the new tokens). */
export async function verifyCode(supabase: StorewiseClient, factorId: string, code: string): Promise<void> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) fail(error);
}

export interface NewFactor {
  id: string;
  qrCode: string;
  secret: string;
}

export async function enrollAuthenticator(supabase: StorewiseClient, friendlyName: string): Promise<NewFactor> {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName, issuer: 'Storewise' });
  if (error) fail(error);
  return { id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

/** Removes a factor; a confirmed one needs a fresh code first (GoTrue requires aal2, we ask for a new proof). */
export async function removeAuthenticator(supabase: StorewiseClient, factorId: string, code: string | null): Promise<void> {
  if (code !== null) await verifyCode(supabase, factorId, code);
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) fail(error);
}

/** Ten new one-time recovery codes, replacing the old ones; the only moment they can be read. */
export async function newRecoveryCodes(supabase: StorewiseClient): Promise<string[]> {
  const { data, error } = await supabase.rpc('mfa_new_recovery_codes');
  if (error) fail(error);
  return data;
}

export async function recoveryCodesLeft(supabase: StorewiseClient): Promise<number> {
  const { data, error } = await supabase.rpc('mfa_recovery_codes_left');
  if (error) fail(error);
  return data;
}

/**
 * Spends a recovery code through the mfa-recover Edge Function, which removes the user's authenticators; the
 * session is then refreshed so it carries the user without factors.
 */
export async function redeemRecoveryCode(supabase: StorewiseClient, code: string): Promise<void> {
  const { error } = await supabase.functions.invoke('mfa-recover', { body: { code } });
  if (error) throw new Error('That recovery code did not work. Check it, or ask support to reset your two-factor sign-in.');
  const { error: refreshError } = await supabase.auth.refreshSession();
  if (refreshError) fail(refreshError);
}
