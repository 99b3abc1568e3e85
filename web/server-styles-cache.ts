import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * The attribute the prerender gives the page's component styles tag instead of emotion's `data-emotion`
 * (scripts/prerender.ts). Its value is emotion's: the cache key, then the name of every style in the tag.
 */
export const SERVER_STYLES_ATTRIBUTE = 'data-server-styles';

/**
 * The emotion cache of a prerendered page (docs/adr/0160). Emotion's own cache adopts the server's
 * `<style data-emotion="css ...">` tag by re-inserting it into <head>, and Chromium removes and re-adds a style
 * sheet that is moved, even to its own place, then recalculates the style of the whole page (docs/adr/0153).
 * Under another attribute emotion does not see the tag; this cache only learns the names of the styles it
 * holds, so a component whose style the server wrote inserts nothing, and new styles go to a tag of their own.
 */
export function serverStylesCache(): EmotionCache {
  const cache = createCache({ key: 'css' });
  for (const tag of document.querySelectorAll(`style[${SERVER_STYLES_ATTRIBUTE}]`)) {
    const [key, ...names] = (tag.getAttribute(SERVER_STYLES_ATTRIBUTE) ?? '').split(' ');
    if (key !== cache.key) continue;
    for (const name of names) if (name) cache.inserted[name] = true;
  }
  return cache;
}
