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

/**
 * The failure an auth link came back with, from either fragment: "#error=...&error_description=..." or, for
 * a redirect URL that already had one, "#pricing#error=...". Used links and expired ones end here.
 */
export function linkErrorFromHash(hash: string): string | null {
  const fragment = hash.slice(hash.lastIndexOf('#') + 1);
  if (!/(^|&)error(_description)?=/.test(fragment)) return null;
  const params = new URLSearchParams(fragment);
  return params.get('error_description') ?? params.get('error');
}
