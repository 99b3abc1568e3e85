import { describe, expect, it } from 'vitest';
import { startUpdateCheck, updateFeedFrom, type GenericFeed, type UpdaterLike } from './update-feed';

function fakeUpdater(check: () => Promise<unknown> = async () => null) {
  const calls: Array<['setFeedURL', GenericFeed] | ['check']> = [];
  const updater: UpdaterLike = {
    setFeedURL: (feed) => void calls.push(['setFeedURL', feed]),
    checkForUpdatesAndNotify: () => {
      calls.push(['check']);
      return check();
    },
  };
  return { updater, calls };
}

function run(feedUrl: string | undefined, overrides: { packaged?: boolean; hasUpdateConfig?: boolean; check?: () => Promise<unknown> } = {}) {
  const { updater, calls } = fakeUpdater(overrides.check);
  const logs: string[] = [];
  const started = startUpdateCheck({
    packaged: overrides.packaged ?? true,
    hasUpdateConfig: overrides.hasUpdateConfig ?? true,
    feedUrl,
    updater,
    log: (message) => logs.push(message),
  });
  return { started, calls, logs };
}

describe('update feed URL', () => {
  it('accepts an https folder as a generic feed', () => {
    expect(updateFeedFrom('https://updates.storewise.app/desktop/')).toEqual({
      ok: true,
      feed: { provider: 'generic', url: 'https://updates.storewise.app/desktop/', channel: 'latest' },
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

describe('startUpdateCheck', () => {
  it('sets the HTTPS feed before checking, in a packaged build', () => {
    const { started, calls, logs } = run('https://updates.storewise.app/desktop/');
    expect(started).toBe(true);
    expect(calls).toEqual([['setFeedURL', { provider: 'generic', url: 'https://updates.storewise.app/desktop/', channel: 'latest' }], ['check']]);
    expect(logs).toEqual([]);
  });

  it('never contacts an http: feed (the app would run whatever it downloads)', () => {
    const { started, calls, logs } = run('http://updates.storewise.app/desktop/');
    expect(started).toBe(false);
    expect(calls).toEqual([]);
    expect(logs).toEqual(['Storewise: updates are off: the update URL must use https:, not http:']);
  });

  it('does nothing in development or without app-update.yml', () => {
    expect(run('https://updates.storewise.app/', { packaged: false }).calls).toEqual([]);
    expect(run('https://updates.storewise.app/', { hasUpdateConfig: false }).calls).toEqual([]);
  });

  it('logs a failed check instead of crashing', async () => {
    const { logs } = run('https://updates.storewise.app/', { check: () => Promise.reject(new Error('offline')) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logs).toEqual(['Storewise: update check failed: offline']);
  });
});
