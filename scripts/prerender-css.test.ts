import { describe, expect, it } from 'vitest';
import { pruneStyleTags, pruneUnusedCss } from './prerender-css';

// Shaped like emotion's output for Chakra's global style and a page's component styles.
const tokens =
  '@layer tokens{:where(html, .chakra-theme){--chakra-colors-gray-50:#fafafa;--chakra-colors-gray-600:#52525b;' +
  '--chakra-colors-pink-500:#ec4899;--chakra-colors-fg-muted:var(--chakra-colors-gray-600);' +
  '--chakra-animations-spin:spin 1s linear infinite;--chakra-sizes-4:1rem;--chakra-sizes-1\\/2:50%;--chakra-spacing-0\\.5:0.125rem;--chakra-radii-l1:var(--chakra-radii-xs);--chakra-radii-xs:0.125rem}}';
const base =
  '@layer base{@-webkit-keyframes spin{from{transform:rotate(0deg);}to{transform:rotate(360deg);}}' +
  '@keyframes spin{from{transform:rotate(0deg);}to{transform:rotate(360deg);}}' +
  '@keyframes marqueeX{from{transform:translateX(0);}to{transform:translateX(-100%);}}' +
  '@keyframes fade-in{from{opacity:0;}to{opacity:1;}}' +
  'html{--global-font-body:var(--chakra-fonts-body);}}';

describe('pruneUnusedCss (pages sent without scripts)', () => {
  it('keeps the variables the page uses, and those they refer to, and drops the rest', () => {
    const css = pruneUnusedCss(`${tokens}${base}.css-1{color:var(--chakra-colors-fg-muted);}`);
    expect(css).toContain('--chakra-colors-fg-muted:var(--chakra-colors-gray-600)');
    expect(css).toContain('--chakra-colors-gray-600:#52525b');
    expect(css).not.toContain('--chakra-colors-pink-500');
    expect(css).not.toContain('--chakra-colors-gray-50');
    expect(css).not.toContain('--chakra-sizes-4');
    expect(css).not.toContain('--chakra-sizes-1');
    expect(pruneUnusedCss(`${tokens}.css-4{width:var(--chakra-sizes-1\\/2);}`)).toContain('--chakra-sizes-1\\/2:50%;');
    expect(pruneUnusedCss(`${tokens}.css-4{width:var(--chakra-sizes-1\\/2);}`)).not.toContain('--chakra-spacing-0');
    expect(css).toContain('.css-1{color:var(--chakra-colors-fg-muted);}');
    expect(css).toContain('html{--global-font-body:var(--chakra-fonts-body);}');
  });

  it('keeps the keyframes an animation names, directly or through a variable, with their prefixed copy', () => {
    const css = pruneUnusedCss(`${tokens}${base}.css-2{animation:var(--chakra-animations-spin);}.css-3{animation-name:fade-in;}`);
    expect(css).toContain('@-webkit-keyframes spin{');
    expect(css).toContain('@keyframes spin{from{transform:rotate(0deg);}to{transform:rotate(360deg);}}');
    expect(css).toContain('@keyframes fade-in{');
    expect(css).not.toContain('marqueeX');
    expect(pruneUnusedCss(`${tokens}${base}`)).not.toContain('keyframes spin');
  });

  it('counts variables the markup refers to in inline styles', () => {
    expect(pruneUnusedCss(`${tokens}${base}`, '<div style="--x:var(--chakra-radii-l1)"></div>')).toContain('--chakra-radii-xs:0.125rem');
  });

  it('drops a token block left empty and keeps each style tag apart', () => {
    const tags = `<style data-s="" data-emotion="css-global a">${tokens}${base}</style><style data-s="" data-emotion="css b">.css-1{margin:0;}</style>`;
    const pruned = pruneStyleTags(tags, '');
    expect(pruned).not.toContain(':where(html, .chakra-theme){');
    expect(pruned).toMatch(/^<style data-s="" data-emotion="css-global a">@layer tokens\{\}@layer base\{html\{/);
    expect(pruned).toMatch(/<\/style><style data-s="" data-emotion="css b">\.css-1\{margin:0;\}<\/style>$/);
  });
});
