import { createSystem, defaultBaseConfig, type SystemContext } from '@chakra-ui/react';
import { brand, chakraTheme } from './theme-config';

export { palettes, recipes, slotRecipes } from './theme-config';

/**
 * Chakra's styling engine for the app: the base configuration (conditions and style properties), Chakra's
 * theme trimmed to what the app uses, and the brand (shared/app/theme-config.ts, docs/adr/0044, 0153).
 */
const chakraSystem = createSystem(defaultBaseConfig, chakraTheme, brand);

/**
 * A prerendered page (docs/adr/0090) arrives with ChakraProvider's two global styles (the layer order and the
 * preflight, global CSS and token variables) as `<style data-emotion="css-global ...">` tags, written from
 * this same system at build time. Given them again, emotion's Global would serialise the ~40 KB style object
 * once more to find its tag by name and then move the tag in <head>, and every move of a style sheet makes the
 * browser recalculate the style of the whole page (docs/adr/0153). The tags stay for the page's life, also
 * when the app renders other screens in their place, so on such a page the provider is given nothing to add.
 * Elsewhere (the server, app.html, the desktop) the system is Chakra's as is.
 */
const prerenderedGlobalStyles = typeof document !== 'undefined' && document.querySelector('style[data-emotion^="css-global "]') !== null;

// Copied by property descriptors, not spread: in the browser build `_global` is a getter that computes the
// global CSS on first read (scripts/prerender-lazy-global.ts, docs/adr/0160), and a spread would read it.
export const system: SystemContext = prerenderedGlobalStyles
  ? (Object.defineProperties(
      {},
      {
        ...Object.getOwnPropertyDescriptors(chakraSystem),
        _global: { value: [], enumerable: true },
        layers: { value: { ...chakraSystem.layers, atRule: '' }, enumerable: true },
      },
    ) as SystemContext)
  : chakraSystem;
