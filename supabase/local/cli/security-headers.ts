/**
 * The security headers of the web app, one list for the embedded web server and for the README's hosted
 * deploy snippet (a test keeps the two equal). The app has no inline script (Vite emits module files only;
 * the prerendered pages add JSON-LD data blocks, which never run), so scripts come from 'self' alone.
 * Chakra UI's emotion inserts <style> elements at runtime, hence style-src 'unsafe-inline'. The page talks to
 * the API origin only (the inbox is a separate page of its own), over HTTP and over Realtime's websocket
 * (ws: or wss: of the same host: Chromium does not let an http: source cover ws:), and shows pictures from it too
 * (Storage's public URLs: product images, the business logo).
 */
export function contentSecurityPolicy(apiOrigins: readonly string[]): string {
  const withSockets = apiOrigins.flatMap((origin) => (/^https?:\/\//.test(origin) ? [origin, origin.replace(/^http/, 'ws')] : [origin]));
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${['self', 'data:', 'blob:', ...apiOrigins].map((source) => (source === 'self' ? "'self'" : source)).join(' ')}`,
    "font-src 'self' data:",
    `connect-src ${['self', ...withSockets].map((source) => (source === 'self' ? "'self'" : source)).join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origin of the API URL /config.json hands out, or none when it is not a URL. */
export function originOf(url: string): string[] {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? [] : [origin];
  } catch {
    return [];
  }
}

/** Every response of the web server carries these (CSP matters for HTML; the rest for everything). */
export function securityHeaders(apiOrigins: readonly string[]): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(apiOrigins),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // For browsers without frame-ancestors.
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}
