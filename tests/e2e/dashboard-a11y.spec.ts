import { expect, test } from '@playwright/test';
import { demo } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { signInThroughUi } from './support/sign-in';
import { CHECKED_WIDTHS, checkAtWidths, widthsFor } from './support/widths';

const PAGES = ['/dashboard', '/dashboard/profile', '/dashboard/settings', '/dashboard/billing', '/dashboard/security', '/dashboard/support'];
/** Screens the lead reviews by eye; STOREWISE_SHOTS=/tmp/shots writes them there too. */
const SHOTS = new Set(['/dashboard', '/dashboard/billing', '/dashboard/security']);

test(`every dashboard page at ${CHECKED_WIDTHS.join(' px and ')} px: no serious axe violation, no sideways scrolling`, async ({ page }, info) => {
  // Six pages, each loaded once and run through axe at both widths: the budget of the two one-width tests this replaces.
  test.setTimeout(480_000);
  await page.setViewportSize({ width: CHECKED_WIDTHS[0], height: 900 });
  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  const shell = new DashboardShell(page);
  for (const [index, path] of PAGES.entries()) {
    const widths = widthsFor(index);
    await page.setViewportSize({ width: widths[0] ?? CHECKED_WIDTHS[0], height: 900 });
    await shell.open(path);
    await checkAtWidths(page, info, widths, {
      name: path,
      settled: () => expect(page.getByText('Loading...')).toHaveCount(0),
      shot: SHOTS.has(path) ? (width) => `dash-${path === '/dashboard' ? 'overview' : path.split('/').pop()}-${width}.png` : undefined,
    });
  }
});
