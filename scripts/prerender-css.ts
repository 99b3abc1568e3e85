/**
 * Trims the inline CSS of a prerendered page that is sent without scripts (the legal pages, docs/adr/0091,
 * 0153). Chakra's global style declares every token as a CSS variable (colours, sizes, shadows...) and every
 * keyframes rule, whatever the page uses. A page that is never hydrated never renders anything else, so
 * its variables and keyframes can be cut to those its CSS refers to (transitively: a semantic colour refers
 * to a palette shade). Pages that hydrate keep the full sheet: the browser's emotion cache adopts it by name
 * and later screens rendered in the browser need all of it.
 *
 * Works on emotion's output (stylis-minified: `selector{prop:value;}`), which has no comments or strings
 * containing braces.
 */

/** The index just past the `}` closing the block whose `{` is at `open`. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let index = open; index < css.length; index += 1) {
    if (css[index] === '{') depth += 1;
    else if (css[index] === '}' && --depth === 0) return index + 1;
  }
  throw new Error('prerender-css: unbalanced braces');
}

interface Range {
  start: number;
  end: number;
}

/** Every `@layer tokens{...}` block (emotion writes one per style tag that declares tokens). */
function tokenLayers(css: string): Range[] {
  const ranges: Range[] = [];
  for (let start = css.indexOf('@layer tokens{'); start >= 0; start = css.indexOf('@layer tokens{', start + 1)) {
    ranges.push({ start, end: blockEnd(css, css.indexOf('{', start)) });
  }
  return ranges;
}

// Variable names may hold escaped characters (`--chakra-sizes-1\/2`, `--chakra-spacing-0\.5`).
const declarationPattern = /(--(?:[\w-]|\\.)+):([^;{}]*)(;|(?=\}))/g;
const varPattern = /var\(\s*(--(?:[\w-]|\\.)+)/g;

/** The variables `text` refers to with var(), then those their declared values refer to, and so on. */
function referencedVariables(text: string, declared: Map<string, string>): Set<string> {
  const used = new Set<string>();
  const queue = [...text.matchAll(varPattern)].map((match) => match[1]!);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    for (const match of (declared.get(name) ?? '').matchAll(varPattern)) queue.push(match[1]!);
  }
  return used;
}

const keyframesPattern = /@(?:-webkit-)?keyframes ([\w-]+)\{/g;

/**
 * Removes token variables and keyframes the rest of the page's CSS never uses. `html`: the page's markup,
 * whose inline styles may refer to variables too.
 */
export function pruneUnusedCss(css: string, html = ''): string {
  const layers = tokenLayers(css);
  const declared = new Map<string, string>();
  for (const { start, end } of layers) {
    for (const match of css.slice(start, end).matchAll(declarationPattern)) declared.set(match[1]!, match[2]!);
  }
  // Everything but the token declarations and the keyframes' own bodies refers to variables and animations.
  let rest = '';
  let cursor = 0;
  for (const { start, end } of layers) {
    rest += css.slice(cursor, start);
    cursor = end;
  }
  rest += css.slice(cursor);
  const keyframes: Range[] = [];
  for (const match of rest.matchAll(keyframesPattern)) keyframes.push({ start: match.index, end: blockEnd(rest, match.index + match[0].length - 1) });
  const outsideKeyframes = keyframes.reduceRight((text, { start, end }) => text.slice(0, start) + text.slice(end), rest);
  const used = referencedVariables(`${outsideKeyframes}\n${html}`, declared);
  // Keyframes stay when an animation names them, directly or through a variable it uses.
  const animationValues = [...outsideKeyframes.matchAll(/animation(?:-name)?:([^;{}]*)/g)].map((match) => match[1]!);
  for (const name of used) animationValues.push(declared.get(name) ?? '');
  const animationWords = new Set(animationValues.flatMap((value) => value.split(/[\s,()]+/)));

  let pruned = '';
  cursor = 0;
  const keep = (text: string) =>
    text.replace(declarationPattern, (declaration, name: string) => (declared.has(name) && !used.has(name) ? '' : declaration));
  for (const { start, end } of layers) {
    pruned += css.slice(cursor, start) + keep(css.slice(start, end)).replace(/[^{};]+\{\}/g, '');
    cursor = end;
  }
  pruned += css.slice(cursor);
  // Second pass for keyframes (their positions moved with the token layers).
  let result = '';
  cursor = 0;
  for (const match of pruned.matchAll(keyframesPattern)) {
    if (match.index < cursor) continue;
    const end = blockEnd(pruned, match.index + match[0].length - 1);
    if (animationWords.has(match[1]!)) continue;
    result += pruned.slice(cursor, match.index);
    cursor = end;
  }
  return result + pruned.slice(cursor);
}

/** `pruneUnusedCss` over the page's `<style>` tags as one sheet, each tag keeping its own part. */
export function pruneStyleTags(styleTags: string, html: string): string {
  const tags = [...styleTags.matchAll(/(<style[^>]*>)([\s\S]*?)<\/style>/g)];
  if (tags.length === 0) return styleTags;
  const separator = '\n/*--storewise-tag--*/\n';
  const parts = pruneUnusedCss(tags.map((tag) => tag[2]).join(separator), html).split(separator);
  if (parts.length !== tags.length) throw new Error('prerender-css: the style tags could not be split again');
  return tags.map((tag, index) => `${tag[1]}${parts[index]}</style>`).join('');
}
