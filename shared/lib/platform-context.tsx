import { createContext, use, useContext, type ReactNode } from 'react';
import type { Platform } from '../platform/platform';
import type { AuthStore } from './auth-store';
import type { StorewiseClient } from './supabase-client';

interface PlatformContextValue {
  platform: Platform;
  /**
   * The Supabase client, still loading: supabase-js is fetched in the background so the landing page paints
   * without it (docs/adr/0044). The promise is created once per app and never replaced.
   */
  supabase: Promise<StorewiseClient>;
  /** Who is signed in, followed from the moment the client exists (read through useAuth()). */
  auth: AuthStore;
}

const PlatformContext = createContext<PlatformContextValue | null>(null);

export function PlatformProvider(props: PlatformContextValue & { children: ReactNode }) {
  const { platform, supabase, auth, children } = props;
  return <PlatformContext.Provider value={{ platform, supabase, auth }}>{children}</PlatformContext.Provider>;
}

function usePlatformContext(): PlatformContextValue {
  const value = useContext(PlatformContext);
  if (!value) throw new Error('usePlatform must be used within a PlatformProvider');
  return value;
}

export const usePlatform = (): Platform => usePlatformContext().platform;

/**
 * The typed Supabase client; feature api modules receive it as their first argument. Until supabase-js has
 * loaded, the calling screen suspends (the root layout shows a spinner); afterwards this returns at once.
 */
export const useSupabase = (): StorewiseClient => use(usePlatformContext().supabase);

/**
 * The client as a promise, for code that must render before supabase-js is there (the landing page, the
 * auth provider): await it in effects and event handlers instead of suspending.
 */
export const useSupabaseLater = (): Promise<StorewiseClient> => usePlatformContext().supabase;

/** The auth event store of the app; only AuthProvider reads it (components use useAuth()). */
export const useAuthStore = (): AuthStore => usePlatformContext().auth;
