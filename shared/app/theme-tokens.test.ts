import { defaultSystem } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { palettes, system } from './theme';

/*
 * The theme keeps only the colour palettes the app names and the light value of each semantic token
 * (docs/adr/0153). A palette that is missing renders without colour and without a warning, so this scans the
 * app's sources for every Chakra palette name in a string (`colorPalette="orange"`, `'teal.solid'`, the status
 * maps' values) and requires it in the theme; and the light mode's colours must be Chakra's own.
 */
const appSources: Record<string, string> = import.meta.glob(
  ['/shared/**/*.{ts,tsx}', '/web/**/*.{ts,tsx}', '/renderer/**/*.{ts,tsx}', '!/**/*.test.{ts,tsx}'],
  { query: '?raw', import: 'default', eager: true },
);

const chakraPalettes = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'cyan', 'purple', 'pink'];
const semanticNames = ['contrast', 'fg', 'subtle', 'muted', 'emphasized', 'solid', 'focusRing', 'border'];

function namedPalettes(): Set<string> {
  const named = new Set<string>();
  for (const [file, source] of Object.entries(appSources)) {
    if (file.endsWith('/shared/app/theme-config.ts')) continue;
    for (const palette of chakraPalettes) {
      if (new RegExp(`["'\`{]${palette}(?:["'\`}]|\\.)`).test(source)) named.add(palette);
    }
  }
  return named;
}

/** The CSS the system declares for its tokens (the third of ChakraProvider's global styles). */
const tokenCss = (target: typeof system) => JSON.stringify(target._global);

describe('the trimmed Chakra tokens', () => {
  it('scans the app sources', () => {
    expect(Object.keys(appSources).length).toBeGreaterThan(50);
    expect(namedPalettes()).toContain('blue');
  });

  it('has every palette the app names', () => {
    const missing = [...namedPalettes()].filter((palette) => !(palettes as readonly string[]).includes(palette));
    expect(missing).toEqual([]);
    for (const palette of palettes) {
      expect(system.token(`colors.${palette}.500`), palette).toBe(defaultSystem.token(`colors.${palette}.500`));
      expect(tokenCss(system)).toContain(`--chakra-colors-${palette}-solid`);
    }
  });

  it('drops the palettes nobody names and the dark values', () => {
    expect(tokenCss(system)).not.toContain('--chakra-colors-pink-');
    expect(tokenCss(system)).not.toContain('.dark');
    expect(tokenCss(defaultSystem)).toContain('.dark');
    expect(tokenCss(system).length).toBeLessThan(tokenCss(defaultSystem).length * 0.8);
  });

  it('keeps Chakra’s light value of every semantic colour and shadow', () => {
    // Chakra resolves a semantic token to its variable; the variable's light declaration is what shows.
    const declarations = (target: typeof system, selector: string) => {
      const layer = (target._global as Record<string, Record<string, Record<string, string>>>[])[2]!['@layer tokens']!;
      return layer[selector] ?? {};
    };
    const ours = declarations(system, '&:where(html, .chakra-theme)');
    const chakraLight = declarations(defaultSystem, ':root &, .light &');
    const chakraBase = declarations(defaultSystem, '&:where(html, .chakra-theme)');
    const names = [
      ...['bg', 'bg-muted', 'bg-panel', 'fg', 'fg-muted', 'border', 'border-emphasized'].map((name) => `--chakra-colors-${name}`),
      ...palettes.flatMap((palette) => semanticNames.map((name) => `--chakra-colors-${palette}-${name.replace('focusRing', 'focus-ring')}`)),
      ...['xs', 'sm', 'md', 'lg', 'xl', 'inset'].map((size) => `--chakra-shadows-${size}`),
    ];
    expect(Object.keys(chakraLight).length).toBeGreaterThan(100);
    for (const name of names) expect(ours[name], name).toBe(chakraLight[name] ?? chakraBase[name]);
    for (const [name, value] of Object.entries(chakraLight)) {
      if (!/-(cyan|pink)-/.test(name)) expect(ours[name], name).toBe(value);
    }
  });
});
