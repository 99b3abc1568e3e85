import type { AuthDeepLink } from '../../shared/platform/platform';

/**
 * The one gate for storewise:// URLs. Anything the OS hands us (macOS open-url, Windows/Linux argv) is
 * attacker-controlled: any web page can launch storewise://... So the parser matches the raw string
 * against the exact shapes we issue ourselves instead of normalizing it with a URL parser first, which
 * would quietly turn `auth/x/../callback`, `%2F` or `user@host` into something that looks valid.
 */

export const DEEP_LINK_SCHEME = 'storewise';
export const MAX_DEEP_LINK_LENGTH = 4096;

// Exact prefix, exact path, optional single trailing slash (some Windows shells append one), then an
// optional query and an optional fragment. No userinfo, port, extra segments or percent-escapes fit.
const LINK_SHAPE = /^storewise:\/\/auth\/(callback|reset)\/?(?:\?([^#]*))?(?:#(.*))?$/;
// Values we issue or Supabase issues: PKCE codes (UUIDs), JWTs (base64url + dots), refresh tokens, numbers.
// None of them ever needs percent-encoding, so '%' and '+' are refused instead of decoded.
const VALUE = /^[A-Za-z0-9._-]{1,2048}$/;
const KEY = /^[a-z_]{1,32}$/;
// C0 controls, DEL, whitespace, backslash and every non-ASCII character are never part of our links.
const FORBIDDEN_CHAR = /[^\x21-\x7e]|\\/;

const CALLBACK_KEYS = new Set(['code', 'state']);
const RECOVERY_CODE_KEYS = new Set(['code']);
const RECOVERY_TOKEN_KEYS = new Set(['access_token', 'refresh_token', 'type', 'expires_in', 'expires_at', 'token_type']);
const NUMERIC_KEYS = new Set(['expires_in', 'expires_at']);

/** Parses `a=1&b=2` strictly: every pair well-formed, no key twice. Null on any deviation. */
function parsePairs(raw: string): Map<string, string> | null {
  const pairs = new Map<string, string>();
  for (const segment of raw.split('&')) {
    const eq = segment.indexOf('=');
    if (eq <= 0) return null;
    const key = segment.slice(0, eq);
    const value = segment.slice(eq + 1);
    if (!KEY.test(key) || !VALUE.test(value) || pairs.has(key)) return null;
    if (NUMERIC_KEYS.has(key) && !/^\d{1,12}$/.test(value)) return null;
    pairs.set(key, value);
  }
  return pairs;
}

function onlyKeys(pairs: Map<string, string>, allowed: Set<string>): boolean {
  return [...pairs.keys()].every((key) => allowed.has(key));
}

function parseCallback(query: string | undefined, fragment: string | undefined): AuthDeepLink | null {
  if (fragment !== undefined || !query) return null;
  const pairs = parsePairs(query);
  const code = pairs?.get('code');
  if (!pairs || !code || !onlyKeys(pairs, CALLBACK_KEYS)) return null;
  return { kind: 'oauth-callback', code };
}

function parseRecovery(query: string | undefined, fragment: string | undefined): AuthDeepLink | null {
  // Credentials come in exactly one place: `?code=` (PKCE) or the implicit tokens in the query or fragment.
  if ((query === undefined) === (fragment === undefined)) return null;
  const pairs = parsePairs((query ?? fragment)!);
  if (!pairs) return null;
  if (pairs.has('code')) {
    if (query === undefined || !onlyKeys(pairs, RECOVERY_CODE_KEYS)) return null;
    return { kind: 'recovery', params: { code: pairs.get('code')! } };
  }
  if (!onlyKeys(pairs, RECOVERY_TOKEN_KEYS) || !pairs.has('access_token') || !pairs.has('refresh_token')) return null;
  const type = pairs.get('type');
  if (type !== undefined && type !== 'recovery') return null;
  const tokenType = pairs.get('token_type');
  if (tokenType !== undefined && tokenType !== 'bearer') return null;
  return { kind: 'recovery', params: Object.fromEntries(pairs) };
}

/** Accepts only storewise://auth/callback?code=.. and storewise://auth/reset with recovery credentials. */
export function parseAuthDeepLink(url: string): AuthDeepLink | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_DEEP_LINK_LENGTH) return null;
  if (FORBIDDEN_CHAR.test(url)) return null;
  const match = LINK_SHAPE.exec(url);
  if (!match) return null;
  const [, path, query, fragment] = match;
  return path === 'callback' ? parseCallback(query, fragment) : parseRecovery(query, fragment);
}

/** The first argv entry that looks like one of our links (Windows/Linux pass the URL as an argument). */
export function findDeepLinkArgument(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`)) ?? null;
}
