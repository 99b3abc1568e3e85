import { defaultConfig } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes, system } from './theme';

/*
 * The theme keeps only the recipes the app uses (docs/adr/0044). Chakra renders a component whose recipe is
 * missing without styles and without a warning, so this test finds, for every name the app imports from
 * '@chakra-ui/react', the recipe keys its implementation asks for (`key: "button"` in Chakra's ESM build,
 * following the component's own imports, e.g. Button -> Loader -> Spinner) and requires them in the system.
 */
const appSources: Record<string, string> = import.meta.glob(
  ['/shared/**/*.{ts,tsx}', '/web/**/*.{ts,tsx}', '/renderer/**/*.{ts,tsx}', '!/**/*.test.{ts,tsx}'],
  { query: '?raw', import: 'default', eager: true },
);
const chakraEsm = '/node_modules/@chakra-ui/react/dist/esm/';
const chakraFiles: Record<string, string> = import.meta.glob('/node_modules/@chakra-ui/react/dist/esm/**/*.js', {
  query: '?raw',
  import: 'default',
  eager: true,
});

function resolveRelative(fromFile: string, specifier: string): string {
  const parts = fromFile.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

/** Exported name -> the ESM file that implements it (namespaces like Card resolve to their namespace.js). */
function chakraExports(): Map<string, string> {
  const index = chakraFiles[`${chakraEsm}index.js`] ?? '';
  const namespaces = new Map([...index.matchAll(/import \* as (\S+) from '(\.[^']+)'/g)].map((m) => [m[1]!, m[2]!]));
  const files = new Map<string, string>();
  for (const match of index.matchAll(/export \{([^}]+)\}(?: from '([^']+)')?/g)) {
    for (const part of match[1]!.split(',')) {
      const [local, exported] = part.trim().split(/\s+as\s+/);
      const file = match[2] ?? namespaces.get(local!);
      if (file?.startsWith('./')) files.set(exported ?? local!, resolveRelative(`${chakraEsm}index.js`, file));
    }
  }
  return files;
}

function recipeKeysOf(file: string, seen = new Set<string>(), keys = new Set<string>()): Set<string> {
  if (seen.has(file)) return keys;
  seen.add(file);
  const source = chakraFiles[file] ?? '';
  for (const match of source.matchAll(/key: "(\w+)"/g)) keys.add(match[1]!);
  for (const match of source.matchAll(/from '(\.[^']+)'/g)) {
    const imported = resolveRelative(file, match[1]!);
    if (imported.includes('/components/')) recipeKeysOf(imported, seen, keys);
  }
  return keys;
}

function importedChakraNames(): Set<string> {
  const names = new Set<string>();
  for (const source of Object.values(appSources)) {
    for (const match of source.matchAll(/import \{([^}]+)\} from '@chakra-ui\/react'/g)) {
      for (const part of match[1]!.split(',')) {
        const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
        if (name) names.add(name);
      }
    }
  }
  return names;
}

const defaultRecipeKeys = new Set([
  ...Object.keys(defaultConfig.theme?.recipes ?? {}),
  ...Object.keys(defaultConfig.theme?.slotRecipes ?? {}),
]);

describe('the trimmed Chakra theme', () => {
  it('finds the app sources and Chakra build it scans', () => {
    expect(Object.keys(appSources).length).toBeGreaterThan(50);
    expect(chakraExports().get('Button')).toMatch(/components\/button\/button\.js$/);
    expect(recipeKeysOf(chakraExports().get('Button')!)).toEqual(new Set(['button', 'spinner']));
  });

  function missingRecipes(target: typeof system): string[] {
    const exports = chakraExports();
    const missing: string[] = [];
    for (const name of importedChakraNames()) {
      const file = exports.get(name);
      if (!file) continue; // types, functions and re-exports of Ark (Portal) carry no recipe
      for (const key of recipeKeysOf(file)) {
        if (defaultRecipeKeys.has(key) && !target.hasRecipe(key)) missing.push(`${name} needs "${key}"`);
      }
    }
    return missing;
  }

  it('has a recipe for every Chakra component the app imports', () => {
    expect(missingRecipes(system)).toEqual([]);
  });

  it('uses Chakra’s own recipes, unchanged, under their default keys', () => {
    for (const [key, recipe] of Object.entries(recipes)) expect(recipe).toStrictEqual(defaultConfig.theme?.recipes?.[key]);
    for (const [key, recipe] of Object.entries(slotRecipes)) expect(recipe).toStrictEqual(defaultConfig.theme?.slotRecipes?.[key]);
  });

  it('drops recipes nobody renders and keeps the brand colour and fonts', () => {
    expect(system.hasRecipe('datePicker')).toBe(false);
    // What the guard above would report if a screen started using Accordion without adding its recipe.
    expect(recipeKeysOf(chakraExports().get('Accordion')!)).toContain('accordion');
    expect(system.hasRecipe('accordion')).toBe(false);
    expect(system.token('fonts.body')).toContain('system-ui');
    expect(system.getGlobalCss()).toBeTruthy();
  });
});
