import type { Session } from '@supabase/supabase-js';
import { sessionStorageKey } from '../features/landing/stored-session';
import type { Platform } from '../platform/platform';

/**
 * The session supabase-js keeps in the platform's storage, read as it wrote it (docs/adr/0200). supabase-js reports
 * "no session" when the access token has expired and the refresh could not reach the server, yet keeps the
 * session stored (it removes it only when the server refuses the refresh): offline, that kept session is still
 * the person at the register. Anything unreadable or incomplete counts as none.
 */
export async function keptSession(platform: Pick<Platform, 'sessionStorage' | 'supabase'>): Promise<Session | null> {
  try {
    const raw = await platform.sessionStorage.getItem(sessionStorageKey(platform.supabase.url));
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return null;
    const session = value as Partial<Session>;
    const complete = typeof session.access_token === 'string' && typeof session.refresh_token === 'string'
      && typeof session.user?.id === 'string';
    return complete ? (session as Session) : null;
  } catch {
    return null;
  }
}
