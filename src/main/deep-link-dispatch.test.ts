import { describe, expect, it } from 'vitest';
import type { AuthDeepLink } from '../../shared/platform/platform';
import { createDeepLinkDispatcher } from './deep-link-dispatch';

function setup() {
  const sent: AuthDeepLink[] = [];
  let focused = 0;
  const dispatcher = createDeepLinkDispatcher({ send: (link) => sent.push(link), focus: () => (focused += 1), log: () => undefined });
  return { dispatcher, sent, focused: () => focused };
}

describe('deep-link dispatcher', () => {
  it('holds links until the renderer has loaded, then delivers them in order', () => {
    const { dispatcher, sent } = setup();
    expect(dispatcher.handle('storewise://auth/callback?code=first-code')).toBe(true);
    expect(dispatcher.handle('storewise://auth/reset?code=second-code')).toBe(true);
    expect(sent).toEqual([]);
    dispatcher.ready();
    expect(sent).toEqual([
      { kind: 'oauth-callback', code: 'first-code' },
      { kind: 'recovery', params: { code: 'second-code' } },
    ]);
  });

  it('delivers at once when ready and focuses the window for every accepted link', () => {
    const { dispatcher, sent, focused } = setup();
    dispatcher.ready();
    dispatcher.handle('storewise://auth/callback?code=now-code');
    expect(sent).toEqual([{ kind: 'oauth-callback', code: 'now-code' }]);
    expect(focused()).toBe(1);
  });

  it('drops rejected links without sending or focusing', () => {
    const { dispatcher, sent, focused } = setup();
    dispatcher.ready();
    expect(dispatcher.handle('storewise://auth/callback/../x?code=abc')).toBe(false);
    expect(dispatcher.handle('https://evil.example/?code=abc')).toBe(false);
    // A page opening a reset link with its own account's tokens must not sign the desktop in (session fixation).
    expect(dispatcher.handle('storewise://auth/reset?access_token=eyJhbGciOiJIUzI1NiJ9.e30.c2ln&refresh_token=attacker')).toBe(false);
    expect(sent).toEqual([]);
    expect(focused()).toBe(0);
  });

  it('holds links again while the renderer reloads', () => {
    const { dispatcher, sent } = setup();
    dispatcher.ready();
    dispatcher.notReady();
    dispatcher.handle('storewise://auth/callback?code=later-code');
    expect(sent).toEqual([]);
    dispatcher.ready();
    expect(sent).toEqual([{ kind: 'oauth-callback', code: 'later-code' }]);
  });
});
