import { z } from 'zod';

/**
 * The proxy a machine policy sets for the app (docs/adr/0271), and its conversion to Electron's ProxyConfig
 * (session.setProxy). IT writes proxies as URLs and bypass entries as a list; Chromium wants one rules string
 * (`http=host:port;https=host:port`) and one comma-separated bypass string, where a stray `;` or `,` would add a
 * rule nobody wrote. So every part is validated on its own and the strings are built here, never copied through.
 */

/** Host names, IPv4, or a bracketed IPv6 literal; no credentials, paths or spaces. */
const hostPattern = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$/;

type ProxyServer = { scheme: string; host: string; port: number };

/** The proxy's scheme, host and port, or why the URL is not a proxy Chromium can use. */
function parseProxyUrl(raw: string): ProxyServer | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw.slice(0, 80)}" is not a proxy URL (for example http://proxy.shop.local:3128)`;
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (!['http', 'https', 'socks4', 'socks5'].includes(scheme)) return `proxy scheme ${scheme} is not supported (http, https, socks4, socks5)`;
  // Chromium takes no credentials in proxy rules; a password here would only end up in logs.
  if (url.username || url.password) return 'a proxy URL must not carry a user name or password';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return 'a proxy URL is a scheme, host and port only';
  if (!hostPattern.test(url.hostname)) return 'the proxy host is not a host name or IP address';
  const defaultPort = { http: 80, https: 443, socks4: 1080, socks5: 1080 }[scheme as 'http'];
  return { scheme, host: url.hostname, port: url.port ? Number(url.port) : defaultPort };
}

// Kept as the URL IT wrote (settings are saved and read back in this shape); converted in toElectronProxyConfig.
const proxyUrlSchema = z.string().max(300).superRefine((raw, ctx) => {
  const parsed = parseProxyUrl(raw);
  if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
});

/**
 * A bypass entry as Chromium reads it: `<local>`, `<-loopback>`, a host pattern with optional scheme and port
 * (`*.shop.local`, `.example.com`, `https://updates.example.com:443`), or an IP range (`192.168.0.0/16`).
 */
const bypassEntrySchema = z.string().min(1).max(255).regex(
  /^(<local>|<-loopback>|([a-z][a-z0-9+.-]*:\/\/)?(\*?[A-Za-z0-9.*-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/\d{1,3})?)$/,
  'a bypass entry is <local>, a host pattern such as *.shop.local, or an address range such as 10.0.0.0/8',
);

export const proxyPolicySchema = z.discriminatedUnion('mode', [
  // No proxy at all.
  z.strictObject({ mode: z.literal('direct') }),
  // What the operating system says (Windows Internet Options, macOS network settings, GNOME or the env).
  z.strictObject({ mode: z.literal('system') }),
  z.strictObject({ mode: z.literal('auto-detect') }),
  z.strictObject({
    mode: z.literal('fixed'),
    // One proxy for everything (for: "all"), or one per URL scheme.
    servers: z.array(z.strictObject({ for: z.enum(['all', 'http', 'https']).default('all'), url: proxyUrlSchema })).min(1).max(4),
    bypass: z.array(bypassEntrySchema).max(100).default([]),
  }),
  z.strictObject({
    mode: z.literal('pac'),
    // The PAC script comes over HTTPS, or from a file IT deployed: it decides where every request goes.
    pacUrl: z.string().max(2048).refine((raw) => /^(https:|file:)/.test(raw) && URL.canParse(raw), 'pacUrl must be an https: or file: URL'),
  }),
]);

export type ProxyPolicy = z.infer<typeof proxyPolicySchema>;
export type ProxyPolicyInput = z.input<typeof proxyPolicySchema>;

/** Electron's ProxyConfig (the fields set here), declared so this module needs no Electron types. */
export interface ElectronProxyConfig {
  mode: 'direct' | 'auto_detect' | 'pac_script' | 'fixed_servers' | 'system';
  pacScript?: string;
  proxyRules?: string;
  proxyBypassRules?: string;
}

/** scheme://host:port of a URL the schema accepted. */
const hostPort = (raw: string) => {
  const server = parseProxyUrl(raw);
  if (typeof server === 'string') throw new Error(server); // unreachable: the schema checked the same function
  return `${server.scheme}://${server.host}:${server.port}`;
};

export function toElectronProxyConfig(policy: ProxyPolicy): ElectronProxyConfig {
  switch (policy.mode) {
    case 'direct':
      return { mode: 'direct' };
    case 'system':
      return { mode: 'system' };
    case 'auto-detect':
      return { mode: 'auto_detect' };
    case 'pac':
      return { mode: 'pac_script', pacScript: policy.pacUrl };
    case 'fixed': {
      // Chromium reads either one list for every scheme ("a:1,b:2") or per-scheme lists ("http=a:1;https=b:2");
      // a bare entry after a per-scheme one is ignored, so "all" is spelt out for each scheme not named.
      const all = policy.servers.filter((s) => s.for === 'all').map((s) => hostPort(s.url));
      const perScheme = policy.servers.filter((s) => s.for !== 'all');
      let proxyRules: string;
      if (perScheme.length === 0) {
        proxyRules = all.join(',');
      } else {
        proxyRules = (['http', 'https'] as const)
          .map((scheme) => {
            const named = perScheme.filter((s) => s.for === scheme).map((s) => hostPort(s.url));
            const list = named.length > 0 ? named : all;
            return list.length > 0 ? `${scheme}=${list.join(',')}` : null;
          })
          .filter((rule): rule is string => rule !== null)
          .join(';');
      }
      return { mode: 'fixed_servers', proxyRules, proxyBypassRules: policy.bypass.join(',') };
    }
  }
}

/** The slice of Electron's Session used here. */
export interface ProxySession {
  setProxy(config: ElectronProxyConfig): Promise<void>;
  closeAllConnections?(): Promise<void>;
}

/**
 * Applies the proxy to every session the app talks through (the window's and electron-updater's), then drops
 * pooled connections so nothing keeps going around the proxy on a socket opened before.
 */
export async function applyProxy(sessions: readonly ProxySession[], policy: ProxyPolicy): Promise<ElectronProxyConfig> {
  const config = toElectronProxyConfig(policy);
  await Promise.all(sessions.map(async (session) => {
    await session.setProxy(config);
    await session.closeAllConnections?.();
  }));
  return config;
}
