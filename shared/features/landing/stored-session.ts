/**
 * Whether this browser may have someone signed in, read before any of the app's JavaScript is fetched: the
 * landing is a static document for a visitor and starts the app only then (docs/adr/0167). Kept free of
 * imports so web/main.tsx stays a few hundred bytes on the landing.
 */

/**
 * The localStorage key under which supabase-js keeps the session for a project: its default
 * `sb-<first label of the project URL's host>-auth-token` (SupabaseClient's constructor; the app sets no
 * storageKey of its own, shared/lib/supabase-client.ts). stored-session.test.ts checks it against supabase-js.
 */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}

/** A session for the project is stored in this browser (expired or not: the app decides after starting). */
export function hasStoredSession(storage: Pick<Storage, 'getItem'>, supabaseUrl: string): boolean {
  try {
    const stored = storage.getItem(sessionStorageKey(supabaseUrl));
    return stored !== null && stored !== '' && stored !== 'null';
  } catch {
    // Storage blocked (private mode, a sandboxed frame): nobody can be signed in here.
    return false;
  }
}

/**
 * The address carries an auth server's answer for the app to handle: implicit-flow tokens (a Google sign-in,
 * a confirmation link back to "/#pricing#access_token=..."), a PKCE code, or a link's error (the landing's
 * effects and supabase-js read them; see confirmation-fragment.ts).
 */
export function authReturnInUrl(location: Pick<Location, 'hash' | 'search'>): boolean {
  return /[#&](access_token|refresh_token|error|error_description)=/.test(location.hash) || /[?&](code|error)=/.test(location.search);
}
