import { desktopRedirectUrls } from '../config';
import { hasControlCharacter } from './input-guards';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function globToRegExp(pattern: string): RegExp {
  // ** crosses path segments, * stays within one.
  const source = pattern
    .split('**')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/**
 * GoTrue's rule: a redirect is allowed when it goes to the site URL's host, or matches an entry of the
 * allow list (exact, or a * / ** glob). The desktop deep links are always on the list. Anything else
 * (including unparsable URLs and javascript:) falls back to the site URL.
 */
export function isAllowedRedirect(candidate: string, siteUrl: string, extra: readonly string[]): boolean {
  // The URL parser drops tabs and line breaks, but the candidate itself becomes the Location header,
  // where CR/LF is header injection (and Node refuses it with a 500). Go's url.Parse refuses them too.
  if (hasControlCharacter(candidate) || /\s/.test(candidate)) return false;
  const url = parse(candidate);
  if (!url) return false;
  if (!['http:', 'https:', 'storewise:'].includes(url.protocol)) return false;
  const site = parse(siteUrl);
  if (site && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === site.origin) return true;
  const withoutQuery = `${url.protocol}//${url.host}${url.pathname}`;
  for (const entry of [...desktopRedirectUrls, ...extra]) {
    if (entry.includes('*')) {
      if (globToRegExp(entry).test(candidate) || globToRegExp(entry).test(withoutQuery)) return true;
    } else if (entry === candidate || entry === withoutQuery) {
      return true;
    } else {
      const allowed = parse(entry);
      // An allowed origin entry (http://host:port or with a trailing /) covers every path below it.
      if (allowed && (allowed.pathname === '/' || allowed.pathname === '') && allowed.origin === url.origin && allowed.origin !== 'null') {
        return true;
      }
    }
  }
  return false;
}

export function chooseRedirect(candidate: string | undefined | null, siteUrl: string, extra: readonly string[]): string {
  if (candidate && isAllowedRedirect(candidate, siteUrl, extra)) return candidate;
  return siteUrl;
}
