/**
 * The session in a confirmation link that came back to "/#pricing". Auth servers append their fragment to
 * the redirect URL as is, so the address reads "/#pricing#access_token=...&refresh_token=..."; supabase-js
 * only reads a fragment that starts with the tokens, so the landing page picks this one up itself.
 */
export function tokensFromDoubleFragment(hash: string): { accessToken: string; refreshToken: string } | null {
  const second = hash.indexOf('#', 1);
  if (!hash.startsWith('#') || second < 0) return null;
  const params = new URLSearchParams(hash.slice(second + 1));
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  return accessToken && refreshToken ? { accessToken, refreshToken } : null;
}
