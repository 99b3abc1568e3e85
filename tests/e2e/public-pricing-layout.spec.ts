import { expect, test } from '@playwright/test';
import { PublicLanding } from './pages/public-site';

const PLANS = ['Starter', 'Growth', 'Pro', 'Enterprise'] as const;

/** The top of each plan card's feature list, in page coordinates. */
async function featureListTops(landing: PublicLanding): Promise<number[]> {
  const tops: number[] = [];
  for (const name of PLANS) {
    const list = landing.plan(name).getByRole('list');
    await expect(list).toBeVisible();
    // Page coordinates (viewport top plus scroll), so no scrolling is needed to compare cards.
    tops.push(await list.evaluate((element) => Math.round(element.getBoundingClientRect().top + (element.ownerDocument.defaultView?.scrollY ?? 0))));
  }
  return tops;
}

test.describe('pricing cards', () => {
  test('at 1280 px the four feature lists start at one height, whatever badge or price line is above', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const landing = new PublicLanding(page);
    await landing.goto();
    const [starter, ...others] = await featureListTops(landing);
    expect(others).toEqual([starter, starter, starter]);
  });

  test('at 900 px, two per row, each row\'s feature lists start at one height', async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 800 });
    const landing = new PublicLanding(page);
    await landing.goto();
    const [starter, growth, pro, enterprise] = await featureListTops(landing);
    expect(growth).toBe(starter);
    expect(enterprise).toBe(pro);
    expect(pro).toBeGreaterThan(starter!);
  });
});
