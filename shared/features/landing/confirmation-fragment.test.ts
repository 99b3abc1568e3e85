import { describe, expect, it } from 'vitest';
import { linkErrorFromHash, tokensFromDoubleFragment } from './confirmation-fragment';

describe('tokensFromDoubleFragment', () => {
  it('reads the tokens an auth server appended to "#pricing"', () => {
    expect(tokensFromDoubleFragment('#pricing#access_token=a.b.c&expires_in=3600&refresh_token=r1&type=signup')).toEqual({
      accessToken: 'a.b.c',
      refreshToken: 'r1',
    });
  });
  it('ignores plain anchors, single fragments and incomplete token sets', () => {
    expect(tokensFromDoubleFragment('#pricing')).toBeNull();
    expect(tokensFromDoubleFragment('#access_token=a&refresh_token=r')).toBeNull();
    expect(tokensFromDoubleFragment('#pricing#access_token=a')).toBeNull();
    expect(tokensFromDoubleFragment('')).toBeNull();
  });
});

describe('linkErrorFromHash', () => {
  it('reads the description of a failed link from the first or the second fragment', () => {
    expect(linkErrorFromHash('#pricing#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired')).toBe(
      'Email link is invalid or has expired',
    );
    expect(linkErrorFromHash('#error=server_error&error_description=Google+sign-in+failed')).toBe('Google sign-in failed');
    expect(linkErrorFromHash('#error=access_denied')).toBe('access_denied');
  });
  it('is null for anchors and for successful links', () => {
    expect(linkErrorFromHash('#pricing')).toBeNull();
    expect(linkErrorFromHash('#pricing#access_token=a&refresh_token=r')).toBeNull();
    expect(linkErrorFromHash('')).toBeNull();
  });
});
