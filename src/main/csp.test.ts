import { describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy } from './csp';

/** The policy as directive -> sources, failing on a directive that appears twice (browsers keep the first). */
function directives(policy: string): Record<string, string[]> {
  const entries = policy.split(';').map((part) => part.trim().split(/\s+/));
  const names = entries.map(([name]) => name!);
  expect(new Set(names).size).toBe(names.length);
  return Object.fromEntries(entries.map(([name, ...sources]) => [name!, sources]));
}

/** Everything except connect-src is the same for every configuration. */
const FIXED = {
  'default-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  // Chakra UI (emotion) injects <style> at runtime; scripts stay 'self' only.
  'style-src': ["'self'", "'unsafe-inline'"],
  'script-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

describe('renderer Content-Security-Policy', () => {
  it('is exactly the expected policy for a hosted project (https API, wss realtime)', () => {
    expect(directives(buildContentSecurityPolicy('https://abcd.supabase.co'))).toEqual({
      ...FIXED,
      'connect-src': ["'self'", 'https://abcd.supabase.co', 'wss://abcd.supabase.co'],
    });
  });

  it('allows ws:// only for a project served over plain http (the local stack), with its port', () => {
    expect(directives(buildContentSecurityPolicy('http://127.0.0.1:54321'))['connect-src']).toEqual([
      "'self'",
      'http://127.0.0.1:54321',
      'ws://127.0.0.1:54321',
    ]);
  });

  it('connects to the project origin only, never to a path or a wildcard', () => {
    expect(directives(buildContentSecurityPolicy('https://abcd.supabase.co:8443/rest/v1?x=1'))['connect-src']).toEqual([
      "'self'",
      'https://abcd.supabase.co:8443',
      'wss://abcd.supabase.co:8443',
    ]);
  });

  it("connects to nothing but 'self' when no project is configured", () => {
    expect(directives(buildContentSecurityPolicy(null))).toEqual({ ...FIXED, 'connect-src': ["'self'"] });
  });

  it('never allows eval, inline scripts or any-origin sources', () => {
    const policy = buildContentSecurityPolicy('https://abcd.supabase.co');
    expect(policy).not.toMatch(/'unsafe-eval'|'wasm-unsafe-eval'|'unsafe-hashes'|'strict-dynamic'|\*/);
    expect(directives(policy)['script-src']).not.toContain("'unsafe-inline'");
  });
});
