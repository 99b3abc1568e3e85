/**
 * The renderer's Content Security Policy, sent as a response header by the app:// protocol handler.
 * style-src needs 'unsafe-inline' because Chakra UI (emotion) injects <style> tags at runtime;
 * scripts stay 'self' only, so injected markup cannot run code.
 */
export function buildContentSecurityPolicy(supabaseUrl: string | null): string {
  const connect = ["'self'"];
  if (supabaseUrl) {
    const origin = new URL(supabaseUrl);
    connect.push(origin.origin);
    // supabase-js realtime speaks WebSocket to the same host.
    connect.push(`${origin.protocol === 'https:' ? 'wss' : 'ws'}://${origin.host}`);
  }
  return [
    "default-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
