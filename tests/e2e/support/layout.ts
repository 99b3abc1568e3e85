import type { Locator, Page } from '@playwright/test';

/**
 * The visual line breaks inside an element, each as the two characters either side of it ("o|c" style),
 * measured from the rendered glyph boxes, so a test can say where a long email or id is allowed to wrap.
 */
export async function lineBreaks(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const doc = element.ownerDocument;
    const glyphs: { char: string; top: number }[] = [];
    const showText = 4; // NodeFilter.SHOW_TEXT
    const walker = doc.createTreeWalker(element, showText);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let index = 0; index < text.length; index += 1) {
        const range = doc.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getClientRects()[0];
        if (box) glyphs.push({ char: text[index] ?? '', top: box.top });
      }
    }
    const breaks: string[] = [];
    for (let index = 1; index < glyphs.length; index += 1) {
      if (glyphs[index]!.top > glyphs[index - 1]!.top + 2) breaks.push(`${glyphs[index - 1]!.char}|${glyphs[index]!.char}`);
    }
    return breaks;
  });
}

/** Where an email, id or name may wrap: at a space, after "@" or "-", or before ".". */
export function isNaturalBreak(pair: string): boolean {
  const [before = '', after = ''] = pair.split('|');
  return /[\s@-]/.test(before) || /\s/.test(after) || after === '.';
}

/** The page's full scroll height and the viewport's height. */
export async function pageHeights(page: Page): Promise<{ page: number; viewport: number }> {
  return page.evaluate<{ page: number; viewport: number }>(
    '({ page: document.documentElement.scrollHeight, viewport: window.innerHeight })',
  );
}

/** Scrolls the window to the bottom of the page. */
export async function scrollToBottom(page: Page): Promise<void> {
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
}
