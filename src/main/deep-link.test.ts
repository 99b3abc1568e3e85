import { describe, expect, it } from 'vitest';
import { findDeepLinkArgument, parseAuthDeepLink } from './deep-link';

const CODE = '9c5e1d7a-3f0b-4c4e-8a55-2d4f1b9e7c10';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl';

describe('parseAuthDeepLink: accepted links', () => {
  it('accepts the OAuth callback with a PKCE code', () => {
    expect(parseAuthDeepLink(`storewise://auth/callback?code=${CODE}`)).toEqual({ kind: 'oauth-callback', code: CODE });
  });

  it('accepts a single trailing slash', () => {
    expect(parseAuthDeepLink(`storewise://auth/callback/?code=${CODE}`)).toEqual({ kind: 'oauth-callback', code: CODE });
    expect(parseAuthDeepLink(`storewise://auth/reset/?code=${CODE}`)).toEqual({ kind: 'recovery', params: { code: CODE } });
  });

  it('accepts a PKCE recovery link', () => {
    expect(parseAuthDeepLink(`storewise://auth/reset?code=${CODE}`)).toEqual({ kind: 'recovery', params: { code: CODE } });
  });

  it('accepts a code of the longest allowed length', () => {
    const code = 'c'.repeat(2048);
    expect(parseAuthDeepLink(`storewise://auth/callback?code=${code}`)).toEqual({ kind: 'oauth-callback', code });
  });
});

/**
 * Session fixation (issue 10, finding 12): any web page can open storewise:// links, so a link that carries
 * tokens would sign the desktop into whatever account the page chose. Only a PKCE code, which is useless
 * without this app's own code verifier, may come in.
 */
describe('parseAuthDeepLink: links carrying tokens (session fixation)', () => {
  const REFRESH = 'r3fr3sh-t0k3n';
  it.each([
    ['reset with tokens in the query', `storewise://auth/reset?access_token=${JWT}&refresh_token=${REFRESH}`],
    ['reset with tokens and type in the query', `storewise://auth/reset?access_token=${JWT}&refresh_token=${REFRESH}&type=recovery`],
    [
      'reset with the implicit-flow fragment',
      `storewise://auth/reset#access_token=${JWT}&expires_at=1999999999&expires_in=3600&refresh_token=${REFRESH}&token_type=bearer&type=recovery`,
    ],
    ['reset with tokens in query and fragment', `storewise://auth/reset?access_token=${JWT}#refresh_token=${REFRESH}`],
    ['reset with a code and tokens', `storewise://auth/reset?code=${CODE}&access_token=${JWT}&refresh_token=${REFRESH}`],
    ['reset with tokens before a code', `storewise://auth/reset?access_token=${JWT}&refresh_token=${REFRESH}&code=${CODE}`],
    ['reset with a code and a fragment of tokens', `storewise://auth/reset?code=${CODE}#access_token=${JWT}&refresh_token=${REFRESH}`],
    ['callback with tokens in the query', `storewise://auth/callback?access_token=${JWT}&refresh_token=${REFRESH}`],
    ['callback with tokens in the fragment', `storewise://auth/callback#access_token=${JWT}&refresh_token=${REFRESH}`],
    ['callback with a code and a fragment of tokens', `storewise://auth/callback?code=${CODE}#access_token=${JWT}`],
    ['callback with a code and tokens', `storewise://auth/callback?code=${CODE}&access_token=${JWT}&refresh_token=${REFRESH}`],
  ])('rejects %s', (_name, url) => {
    expect(parseAuthDeepLink(url)).toBeNull();
  });
});

/** Every key besides `code` is refused, even when it is well-formed (finding 13: extra keys on the callback). */
describe('parseAuthDeepLink: extra keys', () => {
  it.each([
    ['state after the code', `storewise://auth/callback?code=${CODE}&state=abc123`],
    ['a well-formed unknown key', `storewise://auth/callback?code=${CODE}&next=dashboard`],
    ['a redirect key', `storewise://auth/callback?code=${CODE}&redirect_to=evil.example`],
    ['a key before the code', `storewise://auth/callback?provider=google&code=${CODE}`],
    ['a second code', `storewise://auth/callback?code=${CODE}&code=other`],
    ['reset: type after the code', `storewise://auth/reset?code=${CODE}&type=recovery`],
    ['reset: a key before the code', `storewise://auth/reset?type=recovery&code=${CODE}`],
    ['reset: a second code', `storewise://auth/reset?code=${CODE}&code=other`],
    ['reset: an error next to the code', `storewise://auth/reset?code=${CODE}&error=access_denied`],
  ])('rejects %s', (_name, url) => {
    expect(parseAuthDeepLink(url)).toBeNull();
  });
});

describe('parseAuthDeepLink: hostile or malformed links', () => {
  const hostile: Array<[string, string]> = [
    ['empty', ''],
    ['other scheme', `https://auth/callback?code=${CODE}`],
    ['look-alike scheme', `storewise2://auth/callback?code=${CODE}`],
    ['scheme with uppercase', `STOREWISE://auth/callback?code=${CODE}`],
    ['javascript scheme', 'javascript:alert(1)//storewise://auth/callback?code=x'],
    ['file scheme', 'file:///etc/passwd'],
    ['single slash', `storewise:/auth/callback?code=${CODE}`],
    ['no authority', `storewise:auth/callback?code=${CODE}`],
    ['other host', `storewise://evil/callback?code=${CODE}`],
    ['host prefix trick', `storewise://auth.evil.com/callback?code=${CODE}`],
    ['userinfo', `storewise://user:pass@auth/callback?code=${CODE}`],
    ['userinfo without password', `storewise://evil@auth/callback?code=${CODE}`],
    ['port', `storewise://auth:8080/callback?code=${CODE}`],
    ['other path', `storewise://auth/logout?code=${CODE}`],
    ['path suffix', `storewise://auth/callbackx?code=${CODE}`],
    ['extra segment', `storewise://auth/callback/x?code=${CODE}`],
    ['dot-dot segment', `storewise://auth/callback/../x?code=${CODE}`],
    ['dot-dot into callback', `storewise://auth/x/../callback?code=${CODE}`],
    ['double slash', `storewise://auth//callback?code=${CODE}`],
    ['double trailing slash', `storewise://auth/callback//?code=${CODE}`],
    ['encoded slash', `storewise://auth%2Fcallback?code=${CODE}`],
    ['encoded path', `storewise://auth/%63allback?code=${CODE}`],
    ['encoded dot-dot', `storewise://auth/callback/%2e%2e/x?code=${CODE}`],
    ['encoded value', `storewise://auth/callback?code=%61${CODE}`],
    ['encoded key', `storewise://auth/callback?%63ode=${CODE}`],
    ['plus in value', `storewise://auth/callback?code=a+b`],
    ['backslash', `storewise://auth\\callback?code=${CODE}`],
    ['missing code', 'storewise://auth/callback'],
    ['empty query', 'storewise://auth/callback?'],
    ['empty code', 'storewise://auth/callback?code='],
    ['bare code key', 'storewise://auth/callback?code'],
    ['duplicated code', `storewise://auth/callback?code=${CODE}&code=other`],
    ['unknown parameter', `storewise://auth/callback?code=${CODE}&redirect=https://evil.example`],
    ['empty pair', `storewise://auth/callback?code=${CODE}&`],
    ['callback with fragment', `storewise://auth/callback?code=${CODE}#access_token=${JWT}`],
    ['code with quote', `storewise://auth/callback?code=abc"onload=x`],
    ['code with angle bracket', `storewise://auth/callback?code=<script>`],
    ['question mark in value', `storewise://auth/callback?code=a?b`],
    ['NUL byte', `storewise://auth/callback?code=${CODE}\u0000`],
    ['newline', `storewise://auth/callback?code=${CODE}\nstorewise://auth/reset`],
    ['tab', `storewise://auth/callback?code=\t${CODE}`],
    ['space', `storewise://auth/callback?code= ${CODE}`],
    ['leading space', ` storewise://auth/callback?code=${CODE}`],
    ['DEL', `storewise://auth/callback?code=${CODE}\u007f`],
    ['non-ASCII homoglyph', `storewise://аuth/callback?code=${CODE}`],
    ['right-to-left override', `storewise://auth/callback?code=${CODE}\u202e`],
    ['very long URL', `storewise://auth/callback?code=${'a'.repeat(5000)}`],
    ['code one over the length bound', `storewise://auth/callback?code=${'a'.repeat(2049)}`],
    ['code after a fragment mark', `storewise://auth/callback#code=${CODE}`],
    ['query key that only starts with code', `storewise://auth/callback?codex=${CODE}`],
    ['reset without credentials', 'storewise://auth/reset'],
    ['reset with only access token', `storewise://auth/reset#access_token=${JWT}`],
    ['reset with only refresh token', 'storewise://auth/reset#refresh_token=abc'],
    ['reset with wrong type', `storewise://auth/reset#access_token=${JWT}&refresh_token=abc&type=signup`],
    ['reset with wrong token type', `storewise://auth/reset#access_token=${JWT}&refresh_token=abc&token_type=mac`],
    ['reset with non-numeric expiry', `storewise://auth/reset#access_token=${JWT}&refresh_token=abc&expires_in=soon`],
    ['reset with credentials in query and fragment', `storewise://auth/reset?access_token=${JWT}#refresh_token=abc`],
    ['reset with duplicated refresh token', `storewise://auth/reset#access_token=${JWT}&refresh_token=a&refresh_token=b`],
    ['reset with code in the fragment', `storewise://auth/reset#code=${CODE}`],
    ['reset with an error', 'storewise://auth/reset#error=access_denied&error_code=otp_expired'],
    ['reset with an unknown key', `storewise://auth/reset#access_token=${JWT}&refresh_token=abc&provider_token=x`],
  ];

  it.each(hostile)('rejects %s', (_name, url) => {
    expect(parseAuthDeepLink(url)).toBeNull();
  });

  it('rejects values that are not strings at runtime', () => {
    expect(parseAuthDeepLink(undefined as unknown as string)).toBeNull();
    expect(parseAuthDeepLink({ toString: () => `storewise://auth/callback?code=${CODE}` } as unknown as string)).toBeNull();
  });
});

describe('findDeepLinkArgument', () => {
  it('finds the link among Electron and Chromium arguments', () => {
    const argv = ['/opt/Storewise/storewise', '--no-sandbox', `storewise://auth/callback?code=${CODE}`];
    expect(findDeepLinkArgument(argv)).toBe(`storewise://auth/callback?code=${CODE}`);
  });

  it('takes only an argument that is a link, not one that merely contains it', () => {
    expect(findDeepLinkArgument(['/opt/Storewise/storewise', `--open=storewise://auth/callback?code=${CODE}`])).toBeNull();
  });

  it('returns null when no argument is a storewise link', () => {
    expect(findDeepLinkArgument(['/opt/Storewise/storewise', '--inspect', 'https://storewise.app'])).toBeNull();
  });
});
