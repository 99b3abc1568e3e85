import { describe, expect, it } from 'vitest';
import { applyProxy, proxyPolicySchema, toElectronProxyConfig, type ElectronProxyConfig, type ProxyPolicyInput } from './proxy-config';

const convert = (input: ProxyPolicyInput) => toElectronProxyConfig(proxyPolicySchema.parse(input));

describe('proxy rules for Electron', () => {
  it('one proxy for everything is a single list, with the bypass list comma-joined', () => {
    expect(convert({
      mode: 'fixed',
      servers: [{ url: 'http://proxy.shop.local:3128' }],
      bypass: ['<local>', '*.shop.local', '10.0.0.0/8', 'https://updates.storewise.app:443'],
    })).toEqual({
      mode: 'fixed_servers',
      proxyRules: 'http://proxy.shop.local:3128',
      proxyBypassRules: '<local>,*.shop.local,10.0.0.0/8,https://updates.storewise.app:443',
    });
  });

  it('fills in the default port of each proxy scheme', () => {
    expect(convert({ mode: 'fixed', servers: [{ url: 'socks5://10.1.2.3' }] }).proxyRules).toBe('socks5://10.1.2.3:1080');
    expect(convert({ mode: 'fixed', servers: [{ url: 'https://proxy.example' }] }).proxyRules).toBe('https://proxy.example:443');
    expect(convert({ mode: 'fixed', servers: [{ url: 'http://[fd00::1]:8080' }] }).proxyRules).toBe('http://[fd00::1]:8080');
  });

  it('spells "all" out per scheme when another entry names a scheme (Chromium ignores a bare entry after a per-scheme one)', () => {
    expect(convert({
      mode: 'fixed',
      servers: [{ for: 'all', url: 'http://fallback.local:8080' }, { for: 'https', url: 'http://secure.local:3128' }],
    }).proxyRules).toBe('http=http://fallback.local:8080;https=http://secure.local:3128');
    // Only http named: https goes direct, as written.
    expect(convert({ mode: 'fixed', servers: [{ for: 'http', url: 'http://a.local:1' }, { for: 'http', url: 'http://b.local:2' }] }).proxyRules)
      .toBe('http=http://a.local:1,http://b.local:2');
  });

  it('maps the other modes', () => {
    expect(convert({ mode: 'direct' })).toEqual({ mode: 'direct' });
    expect(convert({ mode: 'system' })).toEqual({ mode: 'system' });
    expect(convert({ mode: 'auto-detect' })).toEqual({ mode: 'auto_detect' });
    expect(convert({ mode: 'pac', pacUrl: 'https://it.shop.example/proxy.pac' })).toEqual({ mode: 'pac_script', pacScript: 'https://it.shop.example/proxy.pac' });
  });

  it.each([
    ['credentials in the URL', { mode: 'fixed', servers: [{ url: 'http://it:secret@proxy.local:3128' }] }, /user name or password/],
    ['a rule smuggled in the host', { mode: 'fixed', servers: [{ url: 'http://proxy.local;https=evil.example' }] }, /not a proxy URL|host/],
    ['a path', { mode: 'fixed', servers: [{ url: 'http://proxy.local:3128/x' }] }, /scheme, host and port only/],
    ['an unknown scheme', { mode: 'fixed', servers: [{ url: 'ftp://proxy.local' }] }, /not supported/],
    ['a bypass entry with a comma', { mode: 'fixed', servers: [{ url: 'http://p.local' }], bypass: ['a.local,b.local'] }, /bypass entry/],
    ['a bypass entry with a semicolon', { mode: 'fixed', servers: [{ url: 'http://p.local' }], bypass: ['a.local;http=evil:1'] }, /bypass entry/],
    ['no servers', { mode: 'fixed', servers: [] }, /too_small|>=1|at least/i],
    ['a PAC over http', { mode: 'pac', pacUrl: 'http://it.shop.example/proxy.pac' }, /https: or file:/],
    ['an unknown mode', { mode: 'vpn' }, /mode|Invalid/],
    ['an unknown key', { mode: 'direct', servers: [] }, /Unrecognized key/],
  ])('refuses %s', (_name, input, message) => {
    const parsed = proxyPolicySchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => `${issue.code} ${issue.message}`).join(' | ')).toMatch(message);
  });
});

describe('applyProxy', () => {
  it('sets the same config on every session, then drops their pooled connections', async () => {
    const calls: string[] = [];
    const session = (name: string) => ({
      setProxy: async (config: ElectronProxyConfig) => void calls.push(`${name} setProxy ${JSON.stringify(config)}`),
      closeAllConnections: async () => void calls.push(`${name} close`),
    });
    const config = await applyProxy([session('window'), session('updater')], proxyPolicySchema.parse({ mode: 'direct' }));
    expect(config).toEqual({ mode: 'direct' });
    // The sessions are set side by side; within each, the proxy first, then the old connections go.
    expect(calls.filter((call) => call.startsWith('window'))).toEqual(['window setProxy {"mode":"direct"}', 'window close']);
    expect(calls.filter((call) => call.startsWith('updater'))).toEqual(['updater setProxy {"mode":"direct"}', 'updater close']);
  });
});
