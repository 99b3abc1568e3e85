/**
 * A request that never reached Storewise: the browser's fetch rejected (no network, server down). supabase-js
 * passes that on as an error whose message names the browser's TypeError, worded differently by each engine
 * (Chromium "Failed to fetch", Firefox "NetworkError when attempting to fetch resource", Safari "Load failed",
 * Node "fetch failed"). A person needs to hear what to do, not the engine's words.
 */
const FETCH_FAILED = /failed to fetch|networkerror when attempting to fetch|load failed|fetch failed/i;

export const NO_CONNECTION = 'No connection to Storewise. Check the network, then press Retry.';

export function isConnectionError(error: Error | null | undefined, online = globalThis.navigator?.onLine): boolean {
  return online === false || (!!error && FETCH_FAILED.test(error.message));
}
