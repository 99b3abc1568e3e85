import type { AuthDeepLink } from '../../shared/platform/platform';

/**
 * The one gate for storewise:// URLs. Anything the OS hands us (macOS open-url, Windows/Linux argv) is
 * attacker-controlled: any web page can launch storewise://... So the parser matches the raw string
 * against the exact shapes we issue ourselves instead of normalizing it with a URL parser first, which
 * would quietly turn `auth/x/../callback`, `%2F` or `user@host` into something that looks valid.
 */

export const DEEP_LINK_SCHEME = 'storewise';

/**
 * The desktop signs in with PKCE only (docs/adr/0083): a link is exactly `?code=<code>` and nothing else.
 * A code is harmless in an attacker's hands because exchanging it needs the code verifier this app kept
 * in its own keychain entry; tokens are not: `reset?access_token=..&refresh_token=..` from any web page
 * would sign the desktop into the attacker's account (session fixation). So tokens, fragments, a second
 * `code` or any other key make the whole link invalid.
 *
 * Exact prefix, exact path, an optional single trailing slash (some Windows shells append one), then the
 * code. No userinfo, port, extra segments, percent-escapes, '+', whitespace or non-ASCII character fits;
 * PKCE codes are UUIDs, which never need escaping.
 */
const LINK_SHAPE = /^storewise:\/\/auth\/(callback|reset)\/?\?code=([A-Za-z0-9._-]{1,2048})$/;

/** Accepts only storewise://auth/callback?code=.. and storewise://auth/reset?code=.. */
export function parseAuthDeepLink(url: string): AuthDeepLink | null {
  // The pattern's length bound caps the whole URL near 2 KB; a non-string would be coerced by exec().
  if (typeof url !== 'string') return null;
  const match = LINK_SHAPE.exec(url);
  if (!match) return null;
  const [, path, code] = match as unknown as [string, 'callback' | 'reset', string];
  return path === 'callback' ? { kind: 'oauth-callback', code } : { kind: 'recovery', params: { code } };
}

/** The first argv entry that looks like one of our links (Windows/Linux pass the URL as an argument). */
export function findDeepLinkArgument(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`)) ?? null;
}
