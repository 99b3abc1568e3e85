import { tokenClaims } from '../../../lib/token-claims';

/**
 * Which active_sessions row is this device. The access token's session_id claim names the auth session
 * it belongs to, which is exactly what active_sessions.session_id mirrors; the row's is_current flag
 * ("most recently active session") is only the fallback for tokens without the claim.
 */
export function sessionIdFromAccessToken(accessToken: string | null | undefined): string | null {
  const sessionId = tokenClaims(accessToken)?.session_id;
  return typeof sessionId === 'string' ? sessionId : null;
}

export function isCurrentSession(row: { session_id: string; is_current: boolean }, currentSessionId: string | null): boolean {
  return currentSessionId ? row.session_id === currentSessionId : row.is_current;
}
