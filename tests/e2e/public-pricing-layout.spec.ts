import { expect, test, type Page } from '@playwright/test';
import { PublicLanding } from './pages/public-site';

const PLANS = ['Starter', 'Growth', 'Pro', 'Enterprise'] as const;

/**
 * The top of each plan card's feature list, in page coordinates (viewport top plus scroll), read in one go
 * so a re-render between two cards cannot mix layouts.
 */
function featureListTops(page: Page): Promise<number[]> {
  return page.evaluate<number[]>(
    `${JSON.stringify(PLANS)}.map((name) => {
      const list = document.querySelector('[data-testid="plan-' + name + '"] ul');
      return list ? Math.round(list.getBoundingClientRect().top + window.scrollY) : -1;
    })`,
  );
}

async function openPricing(page: Page, width: number) {
  await page.setViewportSize({ width, height: 800 });
  const landing = new PublicLanding(page);
  await landing.goto();
  for (const name of PLANS) await expect(landing.plan(name).getByRole('list')).toBeVisible();
}

test.describe('pricing cards', () => {
  test('at 1280 px the four feature lists start at one height, whatever badge or price line is above', async ({ page }) => {
    await openPricing(page, 1280);
    await expect.poll(async () => new Set(await featureListTops(page)).size).toBe(1);
    expect(await featureListTops(page)).not.toContain(-1);
  });

  test('at 900 px, two per row, each row\'s feature lists start at one height', async ({ page }) => {
    await openPricing(page, 900);
    await expect
      .poll(async () => {
        const [starter = 0, growth = 0, pro = 0, enterprise = 0] = await featureListTops(page);
        return { sameFirstRow: growth === starter, sameSecondRow: enterprise === pro, twoRows: pro > starter };
      })
      .toEqual({ sameFirstRow: true, sameSecondRow: true, twoRows: true });
  });
});
