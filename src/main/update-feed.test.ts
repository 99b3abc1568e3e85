import { describe, expect, it } from 'vitest';
import { updateFeedFrom } from './update-feed';

describe('update feed URL', () => {
  it('accepts an https folder as a generic feed, on the stable channel unless told', () => {
    expect(updateFeedFrom('https://updates.storewise.app/desktop/')).toEqual({
      ok: true,
      feed: { provider: 'generic', url: 'https://updates.storewise.app/desktop/', channel: 'latest' },
    });
    expect(updateFeedFrom('https://updates.storewise.app/desktop/', 'beta')).toEqual({
      ok: true,
      feed: { provider: 'generic', url: 'https://updates.storewise.app/desktop/', channel: 'beta' },
    });
  });

  it.each([
    ['plain http', 'http://updates.storewise.app/desktop/', /must use https:, not http:/],
    ['upper-case HTTP', 'HTTP://updates.storewise.app/', /must use https:/],
    ['a file path', 'file:///srv/updates/', /must use https:, not file:/],
    ['ftp', 'ftp://updates.storewise.app/', /must use https:/],
    ['credentials', 'https://it:secret@updates.storewise.app/', /must not carry credentials/],
    ['not a URL', 'updates.storewise.app', /not a URL/],
    ['nothing', undefined, /no update URL/],
    ['an empty value', '', /no update URL/],
  ])('refuses %s', (_name, raw, reason) => {
    const result = updateFeedFrom(raw);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});
