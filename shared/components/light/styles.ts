import lightCss from './light.css?inline';

/** The attribute of the one style tag holding light.css; the prerender writes it into the page's head. */
export const LIGHT_STYLES_ATTRIBUTE = 'data-light-styles';

/** light.css as a `<style>` tag, for the prerendered head (web/entry-server.tsx). */
export const lightStyleTag = `<style ${LIGHT_STYLES_ATTRIBUTE}="">${lightCss}</style>`;

/**
 * Makes sure the page has light.css (docs/adr/0168). A prerendered auth page has it in its head already; in the
 * app (client-side navigation, the desktop) it is added once, at the end of <head>, the first time a light
 * component's module is evaluated. Inlined rather than a CSS file: no request, and nothing for Vite to inject
 * twice into a page that already has the tag.
 */
export function ensureLightStyles(): void {
  if (typeof document === 'undefined' || document.head.querySelector(`style[${LIGHT_STYLES_ATTRIBUTE}]`)) return;
  const style = document.createElement('style');
  style.setAttribute(LIGHT_STYLES_ATTRIBUTE, '');
  style.textContent = lightCss;
  document.head.append(style);
}
