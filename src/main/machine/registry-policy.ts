/**
 * The machine policy as Group Policy or Intune writes it on Windows: values under
 * HKEY_LOCAL_MACHINE\SOFTWARE\Policies\Storewise (docs/adr/0271). The app has no native registry module; main
 * passes in a reader that runs `reg query` and returns its text, and this module turns that text into the
 * same shape as policy.json, validated by the same schema.
 *
 *   ServerUrl, AnonKey        REG_SZ
 *   UpdateChannel             REG_SZ        stable | beta
 *   AutoUpdate                REG_DWORD     0 | 1
 *   ProxyMode                 REG_SZ        direct | system | auto-detect | fixed | pac
 *   ProxyServer               REG_SZ        http://proxy.shop.local:3128 (for every scheme)
 *   ProxyBypass               REG_MULTI_SZ  one entry per line
 *   ProxyPacUrl               REG_SZ        https://... or file:///...
 *   Locked                    REG_MULTI_SZ  updateChannel, autoUpdate, proxy
 */

export const REGISTRY_POLICY_KEY = 'HKLM\\SOFTWARE\\Policies\\Storewise';

type RegValue = { type: 'REG_SZ' | 'REG_EXPAND_SZ'; value: string } | { type: 'REG_DWORD'; value: number } | { type: 'REG_MULTI_SZ'; value: string[] };

/** Parses `reg query <key>` output: `    Name    REG_TYPE    data` lines under the key's own line. */
export function parseRegQuery(output: string): Map<string, RegValue> {
  const values = new Map<string, RegValue>();
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s{2,}(\S(?:.*?\S)?)\s{4}(REG_[A-Z_]+)(?:\s{4}(.*))?$/.exec(line);
    if (!match) continue;
    const [, name, type, data = ''] = match as unknown as [string, string, string, string?];
    const key = name.toLowerCase();
    if (type === 'REG_SZ' || type === 'REG_EXPAND_SZ') values.set(key, { type, value: data.trim() });
    else if (type === 'REG_DWORD') values.set(key, { type, value: Number.parseInt(data.trim(), 16) });
    // reg.exe prints the strings of a multi-string joined by a literal "\0".
    else if (type === 'REG_MULTI_SZ') values.set(key, { type, value: data.trim() === '' ? [] : data.trim().split('\\0').filter(Boolean) });
  }
  return values;
}

/**
 * The policy object the registry describes (not yet validated: machinePolicySchema does that), or null when the
 * key holds no Storewise value. A value of the wrong registry type is passed on as-is so the schema reports it.
 */
export function policyFromRegistry(output: string): Record<string, unknown> | null {
  const values = parseRegQuery(output);
  if (values.size === 0) return null;
  const get = (name: string) => values.get(name.toLowerCase())?.value;
  const policy: Record<string, unknown> = {};

  const url = get('ServerUrl');
  const anonKey = get('AnonKey');
  if (url !== undefined || anonKey !== undefined) policy.server = { url, anonKey };
  if (get('UpdateChannel') !== undefined) policy.updateChannel = get('UpdateChannel');
  const autoUpdate = get('AutoUpdate');
  if (autoUpdate !== undefined) policy.autoUpdate = autoUpdate === 1 ? true : autoUpdate === 0 ? false : autoUpdate;

  const mode = get('ProxyMode');
  if (mode !== undefined) {
    const proxy: Record<string, unknown> = { mode };
    if (mode === 'fixed') {
      const server = get('ProxyServer');
      proxy.servers = server === undefined ? [] : [{ for: 'all', url: server }];
      const bypass = get('ProxyBypass');
      if (bypass !== undefined) proxy.bypass = typeof bypass === 'string' ? bypass.split(/[;,]/).map((s) => s.trim()).filter(Boolean) : bypass;
    }
    if (mode === 'pac') proxy.pacUrl = get('ProxyPacUrl');
    policy.proxy = proxy;
  }
  const locked = get('Locked');
  if (locked !== undefined) policy.locked = typeof locked === 'string' ? locked.split(/[;,\s]+/).filter(Boolean) : locked;
  return policy;
}
