import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { demo } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { seriousAxeViolations } from './support/axe';
import { signInThroughUi } from './support/sign-in';

const PAGES = ['/dashboard', '/dashboard/profile', '/dashboard/settings', '/dashboard/billing', '/dashboard/security', '/dashboard/support'];
/** Screens the lead reviews by eye; STOREWISE_SHOTS=/tmp/shots writes them there too. */
const SHOTS = new Set(['/dashboard', '/dashboard/billing', '/dashboard/security']);

for (const width of [1280, 375]) {
  test(`every dashboard page at ${width} px: no serious axe violation, no sideways scrolling`, async ({ page }, info) => {
    // Six pages with a full axe run each.
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
    const shell = new DashboardShell(page);
    for (const path of PAGES) {
      await shell.open(path);
      await expect(page.getByText('Loading...')).toHaveCount(0);
      expect(await seriousAxeViolations(page), path).toEqual([]);
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      if (SHOTS.has(path)) {
        const name = `dash-${path === '/dashboard' ? 'overview' : path.split('/').pop()}-${width}.png`;
        await page.screenshot({ path: info.outputPath(name), fullPage: true });
        const dir = process.env.STOREWISE_SHOTS;
        if (dir) {
          mkdirSync(dir, { recursive: true });
          await page.screenshot({ path: `${dir}/${name}`, fullPage: true });
        }
      }
    }
  });
}
