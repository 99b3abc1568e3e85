import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import type { Platform } from '../platform/platform';

export type StorewiseClient = SupabaseClient<Database>;

/** The one typed Supabase client of the app, configured for the platform it runs on. */
export function createStorewiseClient(platform: Platform): StorewiseClient {
  return createClient<Database>(platform.supabase.url, platform.supabase.anonKey, {
    auth: {
      storage: platform.sessionStorage,
      flowType: platform.authFlow,
      persistSession: true,
      autoRefreshToken: true,
      // The web app receives implicit-flow tokens and PKCE codes in its URL; the desktop app gets them
      // through deep links instead (see AuthProvider).
      detectSessionInUrl: platform.kind === 'web',
    },
  });
}
