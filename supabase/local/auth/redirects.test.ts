import { describe, expect, it } from 'vitest';
import { chooseRedirect, isAllowedRedirect } from './redirects';

const site = 'http://127.0.0.1:5173';

describe('redirect allow list', () => {
  it('allows the site origin with any path and the desktop deep links', () => {
    expect(isAllowedRedirect('http://127.0.0.1:5173/reset-password', site, [])).toBe(true);
    expect(isAllowedRedirect('storewise://auth/callback', site, [])).toBe(true);
    expect(isAllowedRedirect('storewise://auth/reset', site, [])).toBe(true);
  });

  it('refuses other hosts, look-alike hosts, other deep links and script URLs', () => {
    expect(isAllowedRedirect('http://evil.example/reset', site, [])).toBe(false);
    expect(isAllowedRedirect('http://127.0.0.1:5174/', site, [])).toBe(false);
    expect(isAllowedRedirect('http://127.0.0.1:5173.evil.example/', site, [])).toBe(false);
    expect(isAllowedRedirect('storewise://evil/callback', site, [])).toBe(false);
    expect(isAllowedRedirect('javascript:alert(1)', site, [])).toBe(false);
    expect(isAllowedRedirect('not a url', site, [])).toBe(false);
  });

  it('honours configured extras, with globs', () => {
    expect(isAllowedRedirect('http://localhost:3000/x', site, ['http://localhost:3000'])).toBe(true);
    expect(isAllowedRedirect('https://preview-1.example.com/a', site, ['https://*.example.com/**'])).toBe(true);
    expect(isAllowedRedirect('https://example.org/a', site, ['https://*.example.com/**'])).toBe(false);
  });

  it('falls back to the site URL', () => {
    expect(chooseRedirect('http://evil.example/', site, [])).toBe(site);
    expect(chooseRedirect(undefined, site, [])).toBe(site);
    expect(chooseRedirect(`${site}/x`, site, [])).toBe(`${site}/x`);
  });
});
