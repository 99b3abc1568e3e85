/**
 * Pure decisions behind will-navigate, will-redirect, setWindowOpenHandler, shell.openExternal and the
 * permission handlers. Every input is a URL string from web content, so it is parsed with the WHATWG
 * parser and compared field by field (never with startsWith, which `app://storewise.evil` would pass).
 */

export interface NavigationPolicyOptions {
  /** Where the renderer is served: app://storewise in builds, the electron-vite dev server in development. */
  appOrigin: string;
  /** Exact origins (scheme + host + port) that may be opened in the system browser. */
  externalOrigins: readonly string[];
}

export type NavigationDecision = { action: 'allow' } | { action: 'deny'; openExternally: string | null };

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Custom schemes have an opaque origin ('null') in Node's URL, so compare the parts ourselves.
 * URLs carrying credentials are never "ours": they are a classic way to disguise the real host.
 */
export function sameOrigin(candidate: string, origin: string): boolean {
  const a = parse(candidate);
  const b = parse(origin);
  if (!a || !b || a.username || a.password) return false;
  return a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port && a.hostname !== '';
}

/** http(s) only, exact origin from the allow list, no credentials, no overlong URLs. */
export function isAllowedExternalUrl(url: string, externalOrigins: readonly string[]): boolean {
  if (typeof url !== 'string' || url.length > 4096) return false;
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return false;
  return externalOrigins.some((origin) => sameOrigin(url, origin)); // sameOrigin refuses credentials
}

export function createNavigationPolicy({ appOrigin, externalOrigins }: NavigationPolicyOptions) {
  const external = (url: string) => (isAllowedExternalUrl(url, externalOrigins) ? url : null);
  return {
    isAppUrl: (url: string) => sameOrigin(url, appOrigin),
    isAllowedExternal: (url: string) => external(url) !== null,
    /** will-navigate and will-redirect: stay inside the app; allowed links go to the system browser instead. */
    navigation(url: string): NavigationDecision {
      if (sameOrigin(url, appOrigin)) return { action: 'allow' };
      return { action: 'deny', openExternally: external(url) };
    },
    /** window.open / target=_blank: never a new Electron window. */
    windowOpen(url: string): { action: 'deny'; openExternally: string | null } {
      return { action: 'deny', openExternally: external(url) };
    },
    /** Camera, microphone, notifications, geolocation...: the product needs none of them. */
    permission(_permission: string, _requestingUrl: string): boolean {
      return false;
    },
  };
}

export type NavigationPolicy = ReturnType<typeof createNavigationPolicy>;

/** The origins links may open in the system browser: the Supabase project (OAuth starts there), our sites, Google sign-in. */
export function defaultExternalOrigins(supabaseUrl: string | null): string[] {
  const origins = ['https://storewise.app', 'https://www.storewise.app', 'https://docs.storewise.app', 'https://accounts.google.com'];
  const supabase = supabaseUrl ? parse(supabaseUrl) : null;
  if (supabase) origins.push(supabase.origin);
  return origins;
}
