import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import WebSocket from 'ws';

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

/** Node 20 has no global WebSocket: realtime-js asks for the `ws` package as its transport there. */
const nodeWebSocket = WebSocket as unknown as RealtimeTransport;

/** Options for every Node-side supabase-js client: no persisted or refreshed session, realtime over `ws`. */
export const nodeClientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: nodeWebSocket },
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
    realtime: { transport: nodeWebSocket, ...options.realtime },
  });
}
