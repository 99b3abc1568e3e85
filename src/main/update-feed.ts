/**
 * Where electron-updater looks for new versions. An update is code the app will run, so the feed must come
 * over HTTPS: on http:, anyone on the shop's network could serve a "newer version". The URL is the one
 * given at build time in STOREWISE_UPDATE_URL (electron.vite.config.ts inlines it and refuses http: there
 * too); main sets it explicitly with setFeedURL (updates/update-controller.ts) instead of trusting app-update.yml, which electron-builder
 * writes from the same variable and electron-updater still reads for its cache folder and publisher name.
 */
export interface GenericFeed {
  provider: 'generic';
  url: string;
  /** latest.yml (stable) or beta.yml; electron-updater adds -mac / -linux on those systems. */
  channel: 'latest' | 'beta';
}

export type UpdateFeedResult = { ok: true; feed: GenericFeed } | { ok: false; reason: string };

export function updateFeedFrom(raw: string | undefined, channel: GenericFeed['channel'] = 'latest'): UpdateFeedResult {
  if (!raw) return { ok: false, reason: 'no update URL was given at build time (STOREWISE_UPDATE_URL)' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the update URL is not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `the update URL must use https:, not ${url.protocol}` };
  if (url.username || url.password) return { ok: false, reason: 'the update URL must not carry credentials' };
  return { ok: true, feed: { provider: 'generic', url: url.href, channel } };
}
