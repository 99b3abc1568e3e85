import { createContext, useContext } from 'react';
import type { Notify } from '../../components/light/toaster';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { Platform } from '../../platform/platform';

/**
 * What the auth screens call out to (docs/adr/0168). In the app: its supabase-js client, platform and toaster
 * (spa-bridge.tsx). On a prerendered auth page booted without the app (web/auth-entry.tsx): supabase-js loaded
 * when first needed, the light toaster. Both functions start the work when called and return the same promise
 * each time.
 */
export interface AuthServices {
  supabase: () => Promise<StorewiseClient>;
  platform: () => Promise<Platform>;
  notify: Notify;
  /** The visitor started on a form: load what submitting and moving on will need (nothing in the app). */
  prepare: () => void;
}

export const AuthServicesContext = createContext<AuthServices | null>(null);

export function useAuthServices(): AuthServices {
  const services = useContext(AuthServicesContext);
  if (!services) throw new Error('useAuthServices must be used within an AuthServicesContext');
  return services;
}
