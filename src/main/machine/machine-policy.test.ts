import { describe, expect, it } from 'vitest';
import { loadMachinePolicy, machinePolicyFile } from './machine-policy';
import { applyUserChange, defaultSettings, isPerMachineInstall, loadUserSettings, resolveSettings } from './desktop-settings';
import { machinePolicySchema } from './policy-schema';
import { parseRegQuery, policyFromRegistry } from './registry-policy';

const enoent = () => Object.assign(new Error('missing'), { code: 'ENOENT' });

/** A file system of exactly these files. */
const files = (contents: Record<string, string>) => async (file: string) => {
  if (file in contents) return contents[file] as string;
  throw enoent();
};

const WIN_FILE = 'C:\\ProgramData\\Storewise\\policy.json';

// What `reg query HKLM\SOFTWARE\Policies\Storewise` prints (reg.exe joins a multi-string with a literal \0).
const REG_OUTPUT = [
  '',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Storewise',
  '    UpdateChannel    REG_SZ    beta',
  '    AutoUpdate    REG_DWORD    0x0',
  '    ProxyMode    REG_SZ    fixed',
  '    ProxyServer    REG_SZ    http://proxy.shop.local:3128',
  '    ProxyBypass    REG_MULTI_SZ    <local>\\0*.shop.local',
  '    Locked    REG_MULTI_SZ    proxy',
  '',
].join('\r\n');

describe('where the machine policy lives', () => {
  it('is a folder a standard user cannot write, per OS', () => {
    expect(machinePolicyFile('win32', { ProgramData: 'D:\\ProgramData' })).toBe('D:\\ProgramData\\Storewise\\policy.json');
    expect(machinePolicyFile('win32', {})).toBe(WIN_FILE);
    expect(machinePolicyFile('linux', {})).toBe('/etc/storewise/policy.json');
    expect(machinePolicyFile('darwin', {})).toBe('/Library/Application Support/Storewise/policy.json');
  });
});

describe('parsing the policy file', () => {
  it('reads a full policy (with the BOM Notepad writes)', async () => {
    const policy = {
      server: { url: 'https://shop.example.supabase.co', anonKey: 'public-anon-key' },
      updateChannel: 'beta',
      autoUpdate: false,
      proxy: { mode: 'fixed', servers: [{ url: 'http://proxy.local:3128' }], bypass: ['<local>'] },
      locked: ['updateChannel'],
    };
    const loaded = await loadMachinePolicy({ platform: 'linux' }, { readFile: files({ '/etc/storewise/policy.json': `\uFEFF${JSON.stringify(policy)}` }) });
    expect(loaded.problem).toBeNull();
    expect(loaded.broken).toBe(false);
    expect(loaded.sources).toEqual(['/etc/storewise/policy.json']);
    expect(loaded.policy).toEqual({ ...policy, proxy: { mode: 'fixed', servers: [{ for: 'all', url: 'http://proxy.local:3128' }], bypass: ['<local>'] } });
  });

  it('no file is no policy and no problem', async () => {
    expect(await loadMachinePolicy({ platform: 'darwin' }, { readFile: files({}) })).toEqual({ policy: null, sources: [], problem: null, broken: false });
  });

  it.each([
    ['not JSON', '{"autoUpdate": fals', /is not valid JSON/],
    ['a misspelt key', '{"autoUpdates": false}', /Unrecognized key.*autoUpdates/],
    ['a wrong type', '{"autoUpdate": "no"}', /autoUpdate: .*boolean/],
    ['an unknown channel', '{"updateChannel": "nightly"}', /updateChannel/],
    ['a server over ftp', '{"server": {"url": "ftp://x", "anonKey": "k"}}', /server\.url/],
    ['a bad proxy', '{"proxy": {"mode": "fixed", "servers": [{"url": "http://u:p@proxy:1"}]}}', /proxy\.servers\.0\.url: .*password/],
    ['an unknown locked setting', '{"locked": ["theme"]}', /locked\.0/],
  ])('reports %s as a problem and marks the policy broken, without throwing', async (_name, raw, message) => {
    const loaded = await loadMachinePolicy({ platform: 'linux' }, { readFile: files({ '/etc/storewise/policy.json': raw }) });
    expect(loaded.policy).toBeNull();
    expect(loaded.broken).toBe(true);
    expect(loaded.problem).toMatch(/^The machine policy has a problem/);
    expect(loaded.problem).toMatch(message);
  });

  it('an unreadable file (permissions) is a problem too', async () => {
    const loaded = await loadMachinePolicy({ platform: 'linux' }, {
      readFile: async () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' });
      },
    });
    expect(loaded).toMatchObject({ policy: null, broken: true });
    expect(loaded.problem).toMatch(/could not be read \(EACCES\)/);
  });
});

describe('the Windows registry policy', () => {
  it('parses reg.exe output by type', () => {
    const values = parseRegQuery(REG_OUTPUT);
    expect(values.get('autoupdate')).toEqual({ type: 'REG_DWORD', value: 0 });
    expect(values.get('proxybypass')).toEqual({ type: 'REG_MULTI_SZ', value: ['<local>', '*.shop.local'] });
    expect(values.get('updatechannel')).toEqual({ type: 'REG_SZ', value: 'beta' });
  });

  it('maps the values to the policy shape the schema validates', () => {
    expect(machinePolicySchema.parse(policyFromRegistry(REG_OUTPUT))).toEqual({
      updateChannel: 'beta',
      autoUpdate: false,
      proxy: { mode: 'fixed', servers: [{ for: 'all', url: 'http://proxy.shop.local:3128' }], bypass: ['<local>', '*.shop.local'] },
      locked: ['proxy'],
    });
    expect(policyFromRegistry('\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Storewise\r\n')).toBeNull();
  });

  it('wins over the file key by key; locked is the union; other platforms never ask the registry', async () => {
    const file = JSON.stringify({ updateChannel: 'stable', autoUpdate: true, server: { url: 'https://a.example', anonKey: 'k' }, locked: ['autoUpdate'] });
    let asked = 0;
    const readRegistry = async () => {
      asked += 1;
      return REG_OUTPUT;
    };
    const loaded = await loadMachinePolicy({ platform: 'win32' }, { readFile: files({ [WIN_FILE]: file }), readRegistry });
    expect(loaded.problem).toBeNull();
    expect(loaded.sources).toEqual([WIN_FILE, 'HKLM\\SOFTWARE\\Policies\\Storewise']);
    expect(loaded.policy).toMatchObject({ updateChannel: 'beta', autoUpdate: false, server: { url: 'https://a.example', anonKey: 'k' } });
    expect(new Set(loaded.policy?.locked)).toEqual(new Set(['autoUpdate', 'proxy']));

    await loadMachinePolicy({ platform: 'linux' }, { readFile: files({}), readRegistry });
    expect(asked).toBe(1);
  });

  it('a bad registry value is reported while the file still applies', async () => {
    const bad = 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Storewise\r\n    AutoUpdate    REG_DWORD    0x7\r\n';
    const loaded = await loadMachinePolicy({ platform: 'win32' }, {
      readFile: files({ [WIN_FILE]: '{"updateChannel":"beta"}' }),
      readRegistry: async () => bad,
    });
    expect(loaded.policy).toEqual({ updateChannel: 'beta', locked: [] });
    expect(loaded.broken).toBe(true);
    expect(loaded.problem).toMatch(/HKLM\\SOFTWARE\\Policies\\Storewise: autoUpdate/);
  });
});

describe('precedence: machine policy > user settings > defaults', () => {
  const defaults = defaultSettings(false);

  it('defaults alone', () => {
    expect(resolveSettings({ policy: null, policyBroken: false, user: {}, defaults })).toEqual({
      settings: { updateChannel: 'stable', autoUpdate: true, proxy: { mode: 'system' } },
      locked: [],
      sources: { updateChannel: 'default', autoUpdate: 'default', proxy: 'default' },
    });
  });

  it('the user over the defaults, the policy over the user; a key the policy sets is locked', () => {
    const resolved = resolveSettings({
      policy: machinePolicySchema.parse({ updateChannel: 'stable' }),
      policyBroken: false,
      user: { updateChannel: 'beta', autoUpdate: false },
      defaults,
    });
    expect(resolved.settings).toEqual({ updateChannel: 'stable', autoUpdate: false, proxy: { mode: 'system' } });
    expect(resolved.sources).toEqual({ updateChannel: 'policy', autoUpdate: 'user', proxy: 'default' });
    expect(resolved.locked).toEqual(['updateChannel']);
  });

  it('a locked key without a policy value keeps the default and ignores the user', () => {
    const resolved = resolveSettings({ policy: machinePolicySchema.parse({ locked: ['proxy'] }), policyBroken: false, user: { proxy: { mode: 'direct' } }, defaults });
    expect(resolved.settings.proxy).toEqual({ mode: 'system' });
    expect(resolved.sources.proxy).toBe('default');
    expect(resolved.locked).toEqual(['proxy']);
  });

  it('a broken policy turns updates off and locks them, whatever the user chose', () => {
    const resolved = resolveSettings({ policy: null, policyBroken: true, user: { autoUpdate: true }, defaults });
    expect(resolved.settings.autoUpdate).toBe(false);
    expect(resolved.sources.autoUpdate).toBe('policy');
    expect(resolved.locked).toEqual(['autoUpdate']);
  });

  it('a per-machine install defaults to no auto-update; a user may turn it on unless IT locks it', () => {
    const perMachine = defaultSettings(true);
    expect(resolveSettings({ policy: null, policyBroken: false, user: {}, defaults: perMachine }).settings.autoUpdate).toBe(false);
    expect(resolveSettings({ policy: machinePolicySchema.parse({ locked: ['autoUpdate'] }), policyBroken: false, user: { autoUpdate: true }, defaults: perMachine })
      .settings.autoUpdate).toBe(false);
  });

  it('refuses a change to a locked key and merges the others', () => {
    expect(applyUserChange({ autoUpdate: true }, { updateChannel: 'beta' }, ['autoUpdate'])).toEqual({ ok: true, settings: { autoUpdate: true, updateChannel: 'beta' } });
    expect(applyUserChange({}, { autoUpdate: false, updateChannel: 'beta' }, ['autoUpdate'])).toEqual({ ok: false, refused: ['autoUpdate'] });
  });

  it('a broken user settings file is reported and counts as empty', async () => {
    expect(await loadUserSettings('/u/desktop-settings.json', files({ '/u/desktop-settings.json': '{"autoUpdate":1}' })))
      .toEqual({ settings: {}, problem: expect.stringMatching(/autoUpdate/) });
    expect(await loadUserSettings('/u/desktop-settings.json', files({ '/u/desktop-settings.json': '{"updateChannel":"beta"}' })))
      .toEqual({ settings: { updateChannel: 'beta' }, problem: null });
    expect(await loadUserSettings('/u/desktop-settings.json', files({}))).toEqual({ settings: {}, problem: null });
  });
});

describe('per-machine installs', () => {
  const env = { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)' };
  it('are the Windows ones under Program Files', () => {
    expect(isPerMachineInstall('win32', 'C:\\Program Files\\Storewise\\Storewise.exe', env)).toBe(true);
    expect(isPerMachineInstall('win32', 'c:\\program files (x86)\\Storewise\\Storewise.exe', env)).toBe(true);
    expect(isPerMachineInstall('win32', 'C:\\Users\\ana\\AppData\\Local\\Programs\\Storewise\\Storewise.exe', env)).toBe(false);
    // "C:\Program Files Evil\..." is not under "C:\Program Files".
    expect(isPerMachineInstall('win32', 'C:\\Program Files Evil\\Storewise.exe', env)).toBe(false);
    expect(isPerMachineInstall('linux', '/opt/Storewise/storewise', env)).toBe(false);
  });
});
