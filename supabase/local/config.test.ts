import { describe, expect, it } from 'vitest';
import { defaultAuthConfig, defaultRateLimits, rateLimitsFromEnv } from './config';

describe('auth config from the environment', () => {
  it('keeps GoTrue defaults, and reads overrides and the autoconfirm switch', () => {
    expect(defaultAuthConfig('http://127.0.0.1:5173', {}).rateLimits).toEqual({ windowSeconds: 300, token: 150, signupRecover: 30, verify: 30 });
    expect(rateLimitsFromEnv('token=1000, verify=5')).toEqual({ ...defaultRateLimits, token: 1000, verify: 5 });
    expect(() => rateLimitsFromEnv('token=lots')).toThrow(/STOREWISE_AUTH_RATE_LIMITS/);
    expect(defaultAuthConfig('http://x', { STOREWISE_AUTOCONFIRM: '1' }).autoconfirm).toBe(true);
    expect(defaultAuthConfig('http://x', {}).autoconfirm).toBe(false);
  });
});
