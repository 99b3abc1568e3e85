import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

/**
 * supabase-js builds a realtime client eagerly, and Node 20 has no global WebSocket; the local stack serves no
 * realtime, so Node-side clients (tests, benchmarks) get a transport that fails loudly if anything tries to connect.
 */
// The stub only has to be constructible; it never returns an instance.
const noRealtime = function NoRealtime() {
  throw new Error('Realtime is not part of the local Storewise stack');
} as unknown as RealtimeTransport;

/** Options for every Node-side supabase-js client: no persisted or refreshed session, no realtime. */
export const nodeClientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: noRealtime },
} satisfies SupabaseClientOptions<'public'>;

/** A supabase-js client for Node-side tests and scripts. */
export function createNodeSupabaseClient(
  url: string,
  key: string,
  options: SupabaseClientOptions<'public'> = {},
): SupabaseClient {
  return createClient(url, key, {
    ...options,
    auth: { ...nodeClientOptions.auth, ...options.auth },
    realtime: { ...options.realtime, transport: noRealtime },
  });
}
