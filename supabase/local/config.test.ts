import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { defaultAuthConfig, defaultRateLimits, desktopRedirectUrls, rateLimitsFromEnv } from './config';
import { repoRoot } from './db/paths';

describe('auth config from the environment', () => {
  it('keeps GoTrue defaults, and reads overrides and the autoconfirm switch', () => {
    expect(defaultAuthConfig('http://127.0.0.1:5173', {}).rateLimits).toEqual({ windowSeconds: 300, token: 150, signupRecover: 30, verify: 30 });
    expect(rateLimitsFromEnv('token=1000, verify=5')).toEqual({ ...defaultRateLimits, token: 1000, verify: 5 });
    expect(() => rateLimitsFromEnv('token=lots')).toThrow(/STOREWISE_AUTH_RATE_LIMITS/);
    expect(defaultAuthConfig('http://x', { STOREWISE_AUTOCONFIRM: '1' }).autoconfirm).toBe(true);
    expect(defaultAuthConfig('http://x', {}).autoconfirm).toBe(false);
  });
});

// config.toml is what `supabase start` users get; the embedded stack must behave the same (its header says so).
// That the Supabase CLI itself accepts the file is proven by tests/hosted (supabase db push reads it).
describe('supabase/config.toml and the embedded stack', () => {
  const toml = parse(readFileSync(join(repoRoot, 'supabase', 'config.toml'), 'utf8')) as {
    api: { max_rows: number; auto_expose_new_tables: boolean };
    local_smtp: { enabled: boolean };
    auth: {
      additional_redirect_urls: string[];
      jwt_expiry: number;
      refresh_token_reuse_interval: number;
      enable_signup: boolean;
      minimum_password_length: number;
      rate_limit: { token_refresh: number; sign_in_sign_ups: number; token_verifications: number };
      email: { enabled: boolean; enable_confirmations: boolean; max_frequency: string };
    };
  };
  const local = defaultAuthConfig(toml.auth.additional_redirect_urls[0] ?? '', {});

  it('has the same auth settings', () => {
    expect(toml.auth).toMatchObject({
      jwt_expiry: local.jwtExpiry,
      refresh_token_reuse_interval: local.refreshTokenReuseInterval,
      enable_signup: local.enableSignup,
      minimum_password_length: local.minimumPasswordLength,
      rate_limit: { token_refresh: local.rateLimits.token, sign_in_sign_ups: local.rateLimits.signupRecover,
        token_verifications: local.rateLimits.verify },
      email: { enabled: true, enable_confirmations: !local.autoconfirm, max_frequency: `${local.emailSendInterval / 60}m0s` },
    });
    expect(toml.auth.additional_redirect_urls).toEqual(expect.arrayContaining(desktopRedirectUrls));
  });

  it('exposes new tables to nobody, caps rows at 1000, and uses the CLI 3.x mail section', () => {
    // 1000 rows at most per read, as hosted's default and the embedded data API's cap.
    expect(toml.api).toMatchObject({ max_rows: 1000, auto_expose_new_tables: false });
    expect(toml.local_smtp.enabled).toBe(true);
    expect(toml).not.toHaveProperty('inbucket');
  });
});
