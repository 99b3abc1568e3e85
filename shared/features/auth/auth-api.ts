import { serviceMessage } from '../../lib/service-message';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';
import type { SignupValues } from './signup-schema';

/**
 * Every auth call of the public screens, one function per operation. Each returns the service's error
 * message (or null) so the screen decides how to show it; none drops an error.
 */
type Result = { error: string | null };
const result = (error: { message: string; name?: string } | null): Result => ({ error: error ? serviceMessage(error) : null });

export async function signInWithPassword(supabase: StorewiseClient, email: string, password: string): Promise<Result> {
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  return result(error);
}

/**
 * After the password: true when the account has an authenticator app and this session has not given its code
 * yet (aal1 with aal2 next). Read from the session, no request; the code step itself is SecondFactorGate's.
 */
export async function needsSecondFactor(supabase: StorewiseClient): Promise<boolean> {
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  return !error && data.currentLevel === 'aal1' && data.nextLevel === 'aal2';
}

/** Create-account mode of /auth: only the full name goes into the metadata (spec 7). */
export async function createAccount(
  supabase: StorewiseClient,
  platform: Platform,
  values: { fullName: string; email: string; password: string },
): Promise<Result> {
  const { error } = await supabase.auth.signUp({
    email: values.email,
    password: values.password,
    options: { emailRedirectTo: platform.redirects.signIn, data: { full_name: values.fullName } },
  });
  return result(error);
}

/**
 * /signup. The profile row is written by the database (handle_new_user) from this metadata in the same
 * transaction as the user, so the browser never inserts into profiles (see docs/adr/0040).
 */
export async function registerOwner(supabase: StorewiseClient, platform: Platform, values: SignupValues): Promise<Result> {
  const { data, error } = await supabase.auth.signUp({
    email: values.businessEmail,
    password: values.password,
    options: {
      emailRedirectTo: platform.redirects.signUpConfirmed,
      data: {
        full_name: values.fullName,
        business_name: values.businessName,
        business_type: values.businessType,
        business_email: values.businessEmail,
        phone: values.phone,
      },
    },
  });
  if (error) return result(error);
  // The spec's fallback message for a reply that carries neither an error nor the new user.
  if (!data.user) return { error: 'Failed to create account. Please try again.' };
  return { error: null };
}

/** Google through supabase-js; the platform opens the URL (web: this window, desktop: system browser). */
export async function signInWithGoogle(supabase: StorewiseClient, platform: Platform): Promise<Result> {
  const { data, error } = await supabase.auth.signInWithOAuth({
    provider: 'google',
    options: { redirectTo: platform.redirects.signIn, skipBrowserRedirect: true },
  });
  if (error) return result(error);
  platform.openOAuthUrl(data.url);
  return { error: null };
}

export async function requestPasswordReset(supabase: StorewiseClient, platform: Platform, email: string): Promise<Result> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: platform.redirects.passwordReset });
  return result(error);
}

/** The reset link's credentials as the spec puts them: both tokens in the query. */
export async function startSessionFromTokens(
  supabase: StorewiseClient,
  tokens: { accessToken: string; refreshToken: string },
): Promise<Result> {
  const { error } = await supabase.auth.setSession({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  return result(error);
}

/** The reset link of the PKCE flow (the desktop): a one-time code. */
export async function startSessionFromCode(supabase: StorewiseClient, code: string): Promise<Result> {
  const { error } = await supabase.auth.exchangeCodeForSession(code);
  return result(error);
}

export async function updatePassword(supabase: StorewiseClient, password: string): Promise<Result> {
  const { error } = await supabase.auth.updateUser({ password });
  return result(error);
}
