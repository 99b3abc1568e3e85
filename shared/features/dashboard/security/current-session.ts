/**
 * Which active_sessions row is this device. The access token's session_id claim names the auth session
 * it belongs to, which is exactly what active_sessions.session_id mirrors; the row's is_current flag
 * ("most recently active session") is only the fallback for tokens without the claim.
 */
export function sessionIdFromAccessToken(accessToken: string | null | undefined): string | null {
  const payload = accessToken?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (claims && typeof claims === 'object' && 'session_id' in claims && typeof claims.session_id === 'string') {
      return claims.session_id;
    }
    return null;
  } catch {
    return null;
  }
}

export function isCurrentSession(row: { session_id: string; is_current: boolean }, currentSessionId: string | null): boolean {
  return currentSessionId ? row.session_id === currentSessionId : row.is_current;
}
