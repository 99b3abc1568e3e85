/**
 * The app's Chakra configuration, without building the system: shared/app/theme.ts builds it. Apart so that a
 * prerendered page evaluates Chakra's modules and this configuration in one task and createSystem in the next
 * (web/start.tsx, docs/adr/0091, 0153), instead of one long task for both.
 */
import { defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  markRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * Only the recipes of the Chakra components the app renders. Chakra's `defaultConfig` carries all ~80
 * (date pickers, color pickers, carousels...), which cost the landing page about 20 KB gzip (docs/adr/0044).
 * A component whose recipe is missing renders unstyled without any warning, so theme.test.ts scans every
 * Chakra import of shared/, web/ and renderer/ and fails when one needs a recipe that is not listed here.
 */
export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  checkmark: checkmarkRecipe,
  code: codeRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  mark: markRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};

export const slotRecipes = {
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  progress: progressSlotRecipe,
  stat: statSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
};

/**
 * The color palettes the app names (`colorPalette="orange"`, `color="teal.solid"`, the status maps). Each
 * palette is 11 shades and 8 semantic tokens: token variables in every page's inline CSS and entries that
 * createSystem builds before the first render (docs/adr/0153). theme-tokens.test.ts fails when the app
 * names a palette that is not listed here (Chakra would render it without colour and without a warning).
 */
export const palettes = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple'] as const;
const unusedPalettes = new Set(['cyan', 'pink']);

type TokenTree = Record<string, unknown>;
const withoutUnusedPalettes = (colors: TokenTree) => Object.fromEntries(Object.entries(colors).filter(([name]) => !unusedPalettes.has(name)));

/**
 * The app has no dark mode (nothing sets the `.dark` class): each semantic token keeps its light value only,
 * so its variable is declared once, with the plain tokens, instead of in a `:root,.light` and a `.dark` block
 * (docs/adr/0153). The light values, hence the colours on screen, are unchanged.
 */
function lightOnly(tree: TokenTree): TokenTree {
  return Object.fromEntries(
    Object.entries(tree).map(([key, node]) => {
      if (key === 'value' && node && typeof node === 'object' && '_light' in node) return [key, (node as { _light: unknown })._light];
      return [key, node && typeof node === 'object' ? lightOnly(node as TokenTree) : node];
    }),
  );
}

const appTokens = { ...tokens, colors: withoutUnusedPalettes(tokens.colors as TokenTree) } as typeof tokens;
const appSemanticTokens = lightOnly({
  ...semanticTokens,
  colors: withoutUnusedPalettes(semanticTokens.colors as TokenTree),
}) as typeof semanticTokens;

// Chakra's default theme (tokens, semantic tokens, styles, global CSS) minus the recipes, palettes and dark
// values nobody uses.
export const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: appTokens,
    semanticTokens: appSemanticTokens,
    recipes,
    slotRecipes,
    textStyles,
    layerStyles,
    animationStyles,
  },
});

// Local system fonts only: the desktop app must work offline, so no web fonts are fetched.
export const brand = defineConfig({
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

