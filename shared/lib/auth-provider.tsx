import { createContext, useContext, useDeferredValue, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AuthState } from './auth-store';
import { notify } from '../components/toaster';
import { useAuthStore, usePlatform, useSupabaseLater } from './platform-context';
import { serviceMessage } from './service-message';

export type { AuthState } from './auth-store';

const AuthContext = createContext<AuthState | null>(null);

// The prerendered public pages were rendered before anyone signed in (docs/adr/0090): hydration starts from
// that state, and the signed-in variants follow in the next render.
const prerenderedState: AuthState = { user: null, session: null, loading: true, lastEvent: null };
const getPrerenderedState = () => prerenderedState;

/**
 * The one place that knows who is signed in. It provides the supabase-js auth events (initial session,
 * signed in/out, token refreshed, user updated, password recovery, MFA verified) that auth-store.ts
 * follows from app start and, on the desktop, completes sign-ins that come back through deep links.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const supabaseLater = useSupabaseLater();
  const platform = usePlatform();
  const navigate = useNavigate();
  const store = useAuthStore();
  const latest = useSyncExternalStore(store.subscribe, store.getSnapshot, getPrerenderedState);
  // Passed on in a render that yields to the browser: a store change is urgent for React, and parts of a
  // prerendered page still waiting to hydrate would all hydrate at once, in one long task (docs/adr/0091).
  const state = useDeferredValue(latest);

  useEffect(
    () =>
      platform.onAuthDeepLink((link) => {
        if (link.kind === 'oauth-callback') {
          void supabaseLater
            .then((supabase) => supabase.auth.exchangeCodeForSession(link.code))
            .then(({ error }) => {
              if (!error) return navigate('/');
              console.error('OAuth code exchange failed:', error.message);
              notify.error('Error', serviceMessage(error));
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
