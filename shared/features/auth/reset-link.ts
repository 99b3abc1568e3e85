/** What a /reset-password visit carries, wherever Supabase put the credentials. */
export type ResetLink =
  | { kind: 'tokens'; accessToken: string; refreshToken: string }
  | { kind: 'code'; code: string }
  /** supabase-js already took the tokens from the URL fragment and reported PASSWORD_RECOVERY. */
  | { kind: 'recovered' }
  | { kind: 'invalid'; reason: string };

/**
 * Reads the link: the spec's query tokens (both required), a PKCE code, or a recovery session that
 * supabase-js made from the fragment of the implicit flow. An error in the link (expired, used) wins.
 */
export function readResetLink(search: URLSearchParams, passwordRecoveryEvent: boolean): ResetLink {
  const error = search.get('error_description') ?? search.get('error');
  if (error) return { kind: 'invalid', reason: error };
  const accessToken = search.get('access_token');
  const refreshToken = search.get('refresh_token');
  if (accessToken && refreshToken) return { kind: 'tokens', accessToken, refreshToken };
  if (accessToken || refreshToken) return { kind: 'invalid', reason: 'the link lacks one of its two credentials' };
  const code = search.get('code');
  if (code) return { kind: 'code', code };
  if (passwordRecoveryEvent) return { kind: 'recovered' };
  return { kind: 'invalid', reason: 'the link carries no credentials' };
}
