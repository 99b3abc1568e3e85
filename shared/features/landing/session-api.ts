import { serviceMessage } from '../../lib/service-message';
import type { StorewiseClient } from '../../lib/supabase-client';

/** Signs in with the tokens of an email confirmation link (see confirmation-fragment.ts). */
export async function startSessionFromLink(
  supabase: StorewiseClient,
  tokens: { accessToken: string; refreshToken: string },
): Promise<{ error: string | null }> {
  const { error } = await supabase.auth.setSession({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  return { error: error ? serviceMessage(error) : null };
}
