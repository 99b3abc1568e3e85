/**
 * Where electron-updater looks for new versions. An update is code the app will run, so the feed must come
 * over HTTPS: on http:, anyone on the shop's network could serve a "newer version". The URL is the one
 * given at build time in STOREWISE_UPDATE_URL (electron.vite.config.ts inlines it and refuses http: there
 * too); main sets it explicitly with setFeedURL instead of trusting app-update.yml, which electron-builder
 * writes from the same variable and electron-updater still reads for its cache folder and publisher name.
 */
export interface GenericFeed {
  provider: 'generic';
  url: string;
  channel: 'latest';
}

export type UpdateFeedResult = { ok: true; feed: GenericFeed } | { ok: false; reason: string };

export function updateFeedFrom(raw: string | undefined): UpdateFeedResult {
  if (!raw) return { ok: false, reason: 'no update URL was given at build time (STOREWISE_UPDATE_URL)' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the update URL is not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `the update URL must use https:, not ${url.protocol}` };
  if (url.username || url.password) return { ok: false, reason: 'the update URL must not carry credentials' };
  return { ok: true, feed: { provider: 'generic', url: url.href, channel: 'latest' } };
}

/** The slice of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  setFeedURL(options: GenericFeed): void;
  checkForUpdatesAndNotify(): Promise<unknown>;
}

/**
 * Checks for updates in a packaged build whose app-update.yml exists, from the HTTPS feed only.
 * Anything else means no update check at all (and one line in the log saying why).
 */
export function startUpdateCheck(options: {
  packaged: boolean;
  hasUpdateConfig: boolean;
  feedUrl: string | undefined;
  updater: UpdaterLike;
  log?: (message: string) => void;
}): boolean {
  const log = options.log ?? ((message: string) => console.warn(message));
  if (!options.packaged || !options.hasUpdateConfig) return false;
  const result = updateFeedFrom(options.feedUrl);
  if (!result.ok) {
    log(`Storewise: updates are off: ${result.reason}`);
    return false;
  }
  options.updater.setFeedURL(result.feed);
  options.updater.checkForUpdatesAndNotify().catch((error: unknown) => {
    log(`Storewise: update check failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  return true;
}
