import { mkdirSync } from 'node:fs';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { seriousAxeViolations } from './axe';

/** The window widths every dashboard and admin page is checked at: a laptop and a small phone. */
export const CHECKED_WIDTHS = [1280, 375] as const;

const HEIGHT = 900;

/**
 * Resizes the window and waits until the browser reports the width and has drawn two frames since (media-query
 * listeners re-render the page before then). A starved renderer may hold frames back: after two seconds the checks
 * go on anyway, since the sideways check below is polled and the loading checks wait on their own.
 */
async function resize(page: Page, width: number, name: string): Promise<void> {
  await page.setViewportSize({ width, height: HEIGHT });
  await expect.poll(() => page.evaluate<number>('window.innerWidth'), { message: `${name}: window width` }).toBe(width);
  await page.evaluate(`new Promise((done) => {
    requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
    setTimeout(() => done(false), 2000);
  })`);
}

/** No sideways scrolling; polled because a layout may pass through a wider state while it re-renders after a resize. */
async function expectNoSidewaysScrolling(page: Page, width: number, name: string): Promise<void> {
  await expect
    .poll(
      () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
      { message: `${name} scrolls sideways at ${width} px` },
    )
    .toBeLessThanOrEqual(0);
}

export interface WidthCheck {
  /** What the failure messages call the page (its path or menu label). */
  name: string;
  /** Waits for the page's own loading states to end; run after load and after each resize. */
  settled: () => Promise<void>;
  /** File name of the screenshot at a width, when the lead reviews this page by eye. */
  shot?: (width: number) => string;
}

/**
 * Checks the page already open at each width of `widths`, in that order: the layout has no sideways scrolling
 * and axe finds no serious or critical violation. One load serves every width (a resize re-lays the page out the
 * way a load at that width would), so a suite checks N pages at two widths with N loads, not 2N.
 */
export async function checkAtWidths(page: Page, info: TestInfo, widths: readonly number[], check: WidthCheck): Promise<void> {
  for (const width of widths) {
    await resize(page, width, check.name);
    await check.settled();
    await expectNoSidewaysScrolling(page, width, check.name);
    expect(await seriousAxeViolations(page), `${check.name} at ${width} px`).toEqual([]);
    if (check.shot) {
      const name = check.shot(width);
      await page.screenshot({ path: info.outputPath(name), fullPage: true });
      const dir = process.env.STOREWISE_SHOTS;
      if (dir) {
        mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: `${dir}/${name}`, fullPage: true });
      }
    }
  }
}

/** The widths in the order a page should be checked so that each page starts at the width the previous one ended at. */
export function widthsFor(index: number): readonly number[] {
  return index % 2 === 0 ? CHECKED_WIDTHS : [...CHECKED_WIDTHS].reverse();
}
