import { describe, expect, it } from 'vitest';
import { createNavigationPolicy, defaultExternalOrigins, isAllowedExternalUrl, sameOrigin } from './navigation-policy';

const policy = createNavigationPolicy({
  appOrigin: 'app://storewise',
  externalOrigins: defaultExternalOrigins('https://abcd.supabase.co'),
});

describe('navigation (will-navigate / will-redirect)', () => {
  it.each(['app://storewise/index.html', 'app://storewise/index.html#/dashboard', 'app://storewise/'])('allows the app itself: %s', (url) => {
    expect(policy.navigation(url)).toEqual({ action: 'allow' });
  });

  it.each([
    'app://storewise.evil/index.html',
    'app://evil/index.html',
    'app://user@storewise/index.html',
    'app://storewise:8080/index.html',
    'file:///etc/passwd',
    'http://storewise/index.html',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'not a url',
  ])('denies %s without opening it anywhere', (url) => {
    expect(policy.navigation(url)).toEqual({ action: 'deny', openExternally: null });
  });

  it('denies an allowed external site in the window but hands it to the system browser', () => {
    expect(policy.navigation('https://docs.storewise.app/getting-started')).toEqual({
      action: 'deny',
      openExternally: 'https://docs.storewise.app/getting-started',
    });
  });
});

describe('window.open', () => {
  it('never opens an Electron window, even for the app origin', () => {
    expect(policy.windowOpen('app://storewise/index.html')).toEqual({ action: 'deny', openExternally: null });
  });

  it('sends allowed https links to the system browser', () => {
    expect(policy.windowOpen('https://storewise.app/privacy')).toEqual({ action: 'deny', openExternally: 'https://storewise.app/privacy' });
  });

  it('sends the Supabase OAuth start URL to the system browser', () => {
    const url = 'https://abcd.supabase.co/auth/v1/authorize?provider=google&redirect_to=storewise%3A%2F%2Fauth%2Fcallback';
    expect(policy.windowOpen(url).openExternally).toBe(url);
  });

  it.each(['https://evil.example/', 'http://storewise.app/', 'https://storewise.app.evil.example/', 'https://user:pw@storewise.app/'])(
    'drops %s',
    (url) => expect(policy.windowOpen(url)).toEqual({ action: 'deny', openExternally: null }),
  );
});

describe('external allow list', () => {
  it.each(['file:///C:/Windows/system32/calc.exe', 'javascript:alert(1)', 'data:text/html,hi', 'smb://host/share', 'ms-msdt:/id', 'https://unknown.example/'])(
    'refuses %s',
    (url) => expect(isAllowedExternalUrl(url, defaultExternalOrigins(null))).toBe(false),
  );

  it('allows a local http Supabase only when it is the configured project', () => {
    expect(isAllowedExternalUrl('http://127.0.0.1:54321/auth/v1/authorize', defaultExternalOrigins('http://127.0.0.1:54321'))).toBe(true);
    expect(isAllowedExternalUrl('http://127.0.0.1:54322/', defaultExternalOrigins('http://127.0.0.1:54321'))).toBe(false);
  });

  it('opens http(s) only, even if a non-web origin were on the list', () => {
    expect(isAllowedExternalUrl('ftp://files.storewise.app/x', ['ftp://files.storewise.app'])).toBe(false);
    expect(isAllowedExternalUrl('file:///C:/Windows/system32/calc.exe', ['file://'])).toBe(false);
  });

  it('refuses overlong URLs', () => {
    expect(isAllowedExternalUrl(`https://storewise.app/${'a'.repeat(5000)}`, defaultExternalOrigins(null))).toBe(false);
  });
});

describe('sameOrigin', () => {
  it('compares custom-scheme origins field by field (Node gives them an opaque origin)', () => {
    expect(sameOrigin('app://storewise/a', 'app://storewise')).toBe(true);
    expect(sameOrigin('app://storewisex/a', 'app://storewise')).toBe(false);
    expect(sameOrigin('http://localhost:5173/#/auth', 'http://localhost:5173')).toBe(true);
    expect(sameOrigin('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
  });

  it('never matches URLs without a host, whatever the origin', () => {
    expect(sameOrigin('file:///etc/passwd', 'file:///')).toBe(false);
    expect(sameOrigin('app:///index.html', 'app:///')).toBe(false);
  });

  it('never matches URLs with credentials', () => {
    expect(sameOrigin('https://user:pw@storewise.app/', 'https://storewise.app')).toBe(false);
    expect(sameOrigin('https://user@storewise.app/', 'https://storewise.app')).toBe(false);
  });
});

describe('permissions', () => {
  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen'])('denies %s', (permission) => {
    expect(policy.permission(permission, 'app://storewise/index.html')).toBe(false);
  });
});
