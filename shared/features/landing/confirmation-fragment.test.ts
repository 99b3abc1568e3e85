import { describe, expect, it } from 'vitest';
import { tokensFromDoubleFragment } from './confirmation-fragment';

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
