import { createContext, useContext, type ReactNode } from 'react';
import type { Platform } from '../platform/platform';
import type { StorewiseClient } from './supabase-client';

interface PlatformContextValue {
  platform: Platform;
  supabase: StorewiseClient;
}

const PlatformContext = createContext<PlatformContextValue | null>(null);

export function PlatformProvider(props: PlatformContextValue & { children: ReactNode }) {
  const { platform, supabase, children } = props;
  return <PlatformContext.Provider value={{ platform, supabase }}>{children}</PlatformContext.Provider>;
}

function usePlatformContext(): PlatformContextValue {
  const value = useContext(PlatformContext);
  if (!value) throw new Error('usePlatform must be used within a PlatformProvider');
  return value;
}

export const usePlatform = (): Platform => usePlatformContext().platform;
/** The typed Supabase client; feature api modules receive it as their first argument. */
export const useSupabase = (): StorewiseClient => usePlatformContext().supabase;
