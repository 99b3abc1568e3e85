import type { MiddlewareHandler } from 'hono';

/**
 * DNS rebinding defence for the three local servers (API, inbox, web). A page on attacker.example can point
 * its own DNS name at 127.0.0.1 and then read our answers as same-origin; the one thing it cannot forge is
 * the Host header, which stays `attacker.example`. So only loopback names and names the owner configured
 * are served (the same rule as Vite's server.allowedHosts).
 */
const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/** The environment variable naming extra host names, comma separated (a back-office PC on the LAN). */
export const allowedHostsVariable = 'STOREWISE_ALLOWED_HOSTS';

/**
 * The host name of a Host header value or URL host ("Shop-PC.lan:5173" -> "shop-pc.lan", "[::1]:80" ->
 * "[::1]"), or undefined when it is not a plain host[:port].
 */
export function hostName(value: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/\s@]+)(?::\d{1,5})?$/i.exec(value.trim());
  return match?.[1]?.toLowerCase().replace(/\.$/, '');
}

/** Host names from URLs or bare names ("http://shop.lan:5173", "shop.lan", "0.0.0.0" is skipped). */
function namesOf(entry: string): string | undefined {
  const trimmed = entry.trim();
  if (trimmed === '') return undefined;
  let name: string | undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      // app://storewise and other custom schemes never arrive as a Host header.
      name = url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : undefined;
    } catch {
      return undefined;
    }
  } else {
    // A bare IPv6 address ("::1") is bracketed like a Host header writes it.
    name = hostName(trimmed.includes('::') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed);
  }
  // A wildcard bind address is where the server listens, not a name anyone types.
  return name === '0.0.0.0' || name === '[::]' ? undefined : name;
}

/**
 * Loopback names, the given URLs' or names' hosts (site URL, bind address) and those of
 * STOREWISE_ALLOWED_HOSTS.
 */
export function allowedHostNames(configured: readonly (string | undefined)[] = [], fromEnv = process.env[allowedHostsVariable]): Set<string> {
  const names = new Set(loopbackHosts);
  for (const entry of [...configured, ...(fromEnv ?? '').split(',')]) {
    const name = entry === undefined ? undefined : namesOf(entry);
    if (name) names.add(name);
  }
  return names;
}

/** Refuses any request whose Host is not one of the allowed names (any port) with a plain-text 403. */
export function hostCheck(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    // Node's server requires Host on HTTP/1.1; app.request() in tests has only the URL.
    const header = c.req.header('host') ?? new URL(c.req.url).host;
    const name = hostName(header);
    if (name && allowed.has(name)) return next();
    return c.text(
      `Blocked request: the host name in "Host: ${header.slice(0, 100)}" is not allowed. ` +
        `Storewise answers only on localhost, 127.0.0.1, [::1] and the names in ${allowedHostsVariable}.`,
      403,
      { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    );
  };
}
