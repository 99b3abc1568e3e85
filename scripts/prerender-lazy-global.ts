import type { Plugin } from 'vite';

/**
 * Chakra's `createSystem` builds the whole global style object (preflight, global CSS and every token
 * variable: `getTokenCss` runs Chakra's css() over ~500 variables) before it returns, about half of its cost.
 * A prerendered page already has that CSS in the server's `css-global` style tags and never reads it
 * (shared/app/theme.ts gives ChakraProvider an empty `_global` there), so in the browser build `_global` is
 * computed when first read instead (docs/adr/0160): on app.html and in the desktop ChakraProvider reads it on
 * its first render, as before. Same values, same order; only the moment changes.
 *
 * The edit is on Chakra's published ESM file; if an upgrade changes the lines it relies on, the build fails
 * here rather than silently keeping the eager work.
 */
const SYSTEM_MODULE = /@chakra-ui\/react\/dist\/esm\/styled-system\/system\.js$/;
const EAGER = 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';
// One line for one line, so the module's source map stays right (`map: null` below).
const LAZY = 'let _globalOnce; const globalStyles = () => (_globalOnce ??= [getPreflightCss(), getGlobalCss(), getTokenCss()]);';
const FIELD = /\n(\s*)_global,\n/;

export function lazyChakraGlobalCss(): Plugin {
  let patched = false;
  return {
    name: 'storewise-lazy-chakra-global-css',
    apply: 'build',
    transform(code, id) {
      if (!SYSTEM_MODULE.test(id)) return undefined;
      const count = code.split(EAGER).length - 1;
      if (count !== 1 || !FIELD.test(code)) throw new Error(`${id}: Chakra's createSystem changed; update scripts/prerender-lazy-global.ts`);
      patched = true;
      return { code: code.replace(EAGER, LAZY).replace(FIELD, '\n$1get _global() { return globalStyles(); },\n'), map: null };
    },
    buildEnd(error) {
      if (!error && !patched) this.error('Chakra\'s styled-system/system.js was not part of the build: scripts/prerender-lazy-global.ts matched nothing');
    },
  };
}
