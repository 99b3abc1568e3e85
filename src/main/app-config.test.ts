import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFileCandidates, resolveAppConfig } from './app-config';

const dir = mkdtempSync(path.join(tmpdir(), 'storewise-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
};

describe('desktop configuration', () => {
  it('looks beside the executable on Windows/Linux, in /Library on macOS, then in userData', () => {
    expect(configFileCandidates({ platform: 'win32', execPath: '/opt/Storewise/Storewise.exe', userData: '/u' })).toEqual([
      path.join('/opt/Storewise', 'storewise.config.json'),
      path.join('/u', 'storewise.config.json'),
    ]);
    expect(configFileCandidates({ platform: 'darwin', execPath: '/Applications/S.app/x', userData: '/u', override: '/etc/s.json' })[0]).toBe(
      '/etc/s.json',
    );
    expect(configFileCandidates({ platform: 'darwin', execPath: '/x', userData: '/u' })[0]).toBe(
      '/Library/Application Support/Storewise/storewise.config.json',
    );
  });

  it('prefers a deployed file over the build-time values', async () => {
    const deployed = file('deployed.json', JSON.stringify({ url: 'https://prod.supabase.co', anonKey: 'prod-anon', extra: 1 }));
    expect(await resolveAppConfig([path.join(dir, 'absent.json'), deployed], { url: 'https://baked.supabase.co', anonKey: 'baked' })).toEqual({
      ok: true,
      config: { url: 'https://prod.supabase.co', anonKey: 'prod-anon' },
    });
  });

  it('falls back to the build-time values', async () => {
    expect(await resolveAppConfig([path.join(dir, 'absent.json')], { url: 'https://baked.supabase.co', anonKey: 'baked' })).toEqual({
      ok: true,
      config: { url: 'https://baked.supabase.co', anonKey: 'baked' },
    });
  });

  it.each([
    ['broken JSON', '{', /not valid JSON/],
    ['a javascript: URL', JSON.stringify({ url: 'javascript:alert(1)', anonKey: 'k' }), /needs an http\(s\) "url"/],
    ['no anon key', JSON.stringify({ url: 'https://x.supabase.co' }), /needs an http\(s\) "url"/],
  ])('explains a deployed file with %s', async (name, content, message) => {
    const result = await resolveAppConfig([file(`${name.replace(/\W/g, '-')}.json`, content)], {});
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('says what IT must install when nothing is configured', async () => {
    expect(await resolveAppConfig([], {})).toEqual({
      ok: false,
      message: 'Storewise is not configured: ask IT to install storewise.config.json with the Supabase URL and anon key.',
    });
  });
});
