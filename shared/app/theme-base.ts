import { createSystem, defaultBaseConfig, defineConfig, type SystemConfig, type SystemContext } from '@chakra-ui/react';
import {
  animationStyles,
  breakpoints,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  keyframes,
  layerStyles,
  semanticTokens,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';

type Recipes = NonNullable<NonNullable<SystemConfig['theme']>['recipes']>;
type SlotRecipes = NonNullable<NonNullable<SystemConfig['theme']>['slotRecipes']>;

// Local system fonts only: the desktop app must work offline, so no web fonts are fetched.
const brand = defineConfig({
  // Blue is the brand: its solid shade (blue.600) keeps white text above the 4.5:1 contrast of WCAG AA.
  globalCss: {
    html: { colorPalette: 'blue', scrollBehavior: 'smooth', _motionReduce: { scrollBehavior: 'auto' } },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
        body: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
      },
    },
  },
});

/**
 * A Storewise system: Chakra's default theme (tokens, semantic tokens, styles, global CSS) and the brand,
 * with only the given recipes. The landing page's system and the full one differ in their recipes only, so
 * the same styles give the same class names in both (docs/adr/0044).
 */
export function createStorewiseSystem(recipes: Recipes, slotRecipes: SlotRecipes): SystemContext {
  const chakraTheme = defineConfig({
    preflight: true,
    cssVarsPrefix,
    cssVarsRoot,
    globalCss,
    theme: { breakpoints, keyframes, tokens, semanticTokens, recipes, slotRecipes, textStyles, layerStyles, animationStyles },
  });
  return createSystem(defaultBaseConfig, chakraTheme, brand);
}
