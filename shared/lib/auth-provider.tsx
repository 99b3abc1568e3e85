import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import { useNavigate } from 'react-router-dom';
import { usePlatform, useSupabaseLater } from './platform-context';

export interface AuthState {
  user: User | null;
  session: Session | null;
  /** True until the initial session has been read from storage. */
  loading: boolean;
  /** The last auth event, e.g. PASSWORD_RECOVERY, for screens that react to it. */
  lastEvent: AuthChangeEvent | null;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * The one place that knows who is signed in. It follows supabase-js auth events (initial session,
 * signed in/out, token refreshed, user updated, password recovery, MFA verified) and, on the desktop,
 * completes sign-ins that come back through deep links.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const supabaseLater = useSupabaseLater();
  const platform = usePlatform();
  const navigate = useNavigate();
  const [state, setState] = useState<AuthState>({ user: null, session: null, loading: true, lastEvent: null });

  // supabase-js arrives in the background (docs/adr/0044); until its INITIAL_SESSION event, loading stays true.
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    supabaseLater.then(
      (supabase) => {
        if (cancelled) return;
        const { data } = supabase.auth.onAuthStateChange((event, session) => {
          if (event !== 'INITIAL_SESSION') {
            setState({ user: session?.user ?? null, session, loading: false, lastEvent: event });
            return;
          }
          // supabase-js reports a session it found in the URL (PASSWORD_RECOVERY, SIGNED_IN) in a timer set
          // *before* INITIAL_SESSION. Waiting one timer turn lets that event land first, so /reset-password
          // never sees loading=false without the recovery event; if it came, it wins over this one.
          setTimeout(() => {
            if (cancelled) return;
            setState((current) => (current.loading ? { user: session?.user ?? null, session, loading: false, lastEvent: event } : current));
          }, 0);
        });
        unsubscribe = () => data.subscription.unsubscribe();
      },
      (error: unknown) => {
        // Without the client nobody can be signed in; screens that need it show the load error themselves.
        console.error('Storewise could not load its Supabase client:', error);
        if (!cancelled) setState({ user: null, session: null, loading: false, lastEvent: null });
      },
    );
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [supabaseLater]);

  useEffect(
    () =>
      platform.onAuthDeepLink((link) => {
        if (link.kind === 'oauth-callback') {
          void supabaseLater
            .then((supabase) => supabase.auth.exchangeCodeForSession(link.code))
            .then(({ error }) => {
              if (error) console.error('OAuth code exchange failed:', error.message);
              else navigate('/');
            });
        } else {
          navigate({ pathname: '/reset-password', search: new URLSearchParams(link.params).toString() });
        }
      }),
    [platform, supabaseLater, navigate],
  );

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
