import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import type { StorewiseClient } from './supabase-client';

export interface AuthState {
  user: User | null;
  session: Session | null;
  /** True until the initial session has been read from storage. */
  loading: boolean;
  /** The last auth event, e.g. PASSWORD_RECOVERY, for screens that react to it. */
  lastEvent: AuthChangeEvent | null;
}

export interface AuthStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => AuthState;
}

/**
 * Follows supabase-js auth events from the moment the client exists, outside React. It must listen that
 * early: on a /reset-password or Google redirect, supabase-js reads the session from the URL and reports it
 * (PASSWORD_RECOVERY, SIGNED_IN) before the router has even loaded the screen, and late listeners only get
 * INITIAL_SESSION. AuthProvider reads this store with useSyncExternalStore. `kept` reads the session supabase-js
 * still keeps in storage (shared/app/kept-session.ts), for an offline start with an expired access token.
 */
export function createAuthStore(client: Promise<StorewiseClient>, kept: () => Promise<Session | null> = async () => null): AuthStore {
  let state: AuthState = { user: null, session: null, loading: true, lastEvent: null };
  const listeners = new Set<() => void>();
  const set = (next: AuthState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const fromEvent = (event: AuthChangeEvent, session: Session | null): AuthState => ({
    user: session?.user ?? null,
    session,
    loading: false,
    lastEvent: event,
  });

  client.then(
    (supabase) =>
      supabase.auth.onAuthStateChange((event, session) => {
        if (event !== 'INITIAL_SESSION') return set(fromEvent(event, session));
        // supabase-js reports a session found in the URL in a timer set *before* INITIAL_SESSION. Waiting one
        // timer turn lets that event land first, so /reset-password never sees loading=false without the
        // recovery event; when it came, it wins over this one.
        setTimeout(() => {
          if (!state.loading) return;
          if (session) return set(fromEvent(event, session));
          // No session, yet one is still stored: its refresh could not reach the server (offline). It stays the
          // signed-in person, so the register reopens without a network (docs/adr/0200); supabase-js refreshes it
          // when the network returns (TOKEN_REFRESHED), or removes it if the server refuses (SIGNED_OUT).
          void kept().catch(() => null).then((stored) => {
            if (state.loading) set(fromEvent(event, stored));
          });
        }, 0);
      }),
    (error: unknown) => {
      // Without the client nobody can be signed in; screens that need it show the load error themselves.
      console.error('Storewise could not load its Supabase client:', error);
      set({ user: null, session: null, loading: false, lastEvent: null });
    },
  );

  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
  };
}
