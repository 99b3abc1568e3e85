import { expect, test } from '@playwright/test';
import { PublicLanding } from './pages/public-site';
import { seriousAxeViolations } from './support/axe';

const publicPaths = [
  '/',
  '/auth',
  '/signup',
  '/forgot-password',
  '/auth-success',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/gdpr-compliance',
  '/data-security-policy',
  '/no-such-page',
];

test.describe('public pages', () => {
  for (const path of publicPaths) {
    test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  }

  test('404: spec texts, Storewise brand, the path logged, Return Home and Go Back', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.goto('/auth');
    await page.goto('/definitely/missing');
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await expect(page.getByText("The page you're looking for doesn't exist or has been moved.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Storewise home' })).toBeVisible();
    // The prerendered 404 shows its texts before the app hydrates and logs the path: wait for the log.
    await expect.poll(() => warnings.some((text) => text.includes('/definitely/missing'))).toBe(true);

    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/definitely/missing');
    await page.getByRole('link', { name: 'Return Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('landing: visitor buttons, anchors, footer and legal links in a new tab', async ({ page, context }) => {
    const landing = new PublicLanding(page);
    await landing.goto();
    await expect(page.getByRole('link', { name: 'Sign In' }).first()).toHaveAttribute('href', '/auth');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await expect(page.getByRole('heading', { name: 'Simple plans that grow with you' })).toBeInViewport();
    await expect(page.getByText('7-day free trial on any annual plan')).toBeVisible();
    await expect(landing.plan('Growth')).toContainText('Most Popular');
    await expect(landing.plan('Growth')).toContainText('$29.99');
    await expect(landing.plan('Growth')).toContainText('$79');
    await expect(landing.plan('Enterprise')).toContainText('Custom');
    await expect(page.getByText('Status: All Systems Operational')).toBeVisible();
    for (const column of ['Product', 'Company', 'Resources', 'Legal']) {
      await expect(page.getByRole('navigation', { name: column })).toBeVisible();
    }
    const [policy] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Privacy Policy' }).click(),
    ]);
    await expect(policy.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    await expect(policy.getByText('at least 18 years old')).toBeVisible();
  });

  test('Watch Demo and Start Free Trial (in-page links) scroll to their sections; Contact Sales goes to /auth', async ({ page }) => {
    const landing = new PublicLanding(page);
    await landing.goto();
    await page.getByRole('link', { name: 'Watch Demo' }).click();
    await expect(page.getByRole('heading', { name: 'Everything a modern retailer needs' })).toBeInViewport();
    await page.getByRole('link', { name: 'Start Free Trial' }).click();
    await expect(page.getByRole('heading', { name: 'Simple plans that grow with you' })).toBeInViewport();
    await landing.plan('Enterprise').getByRole('link', { name: /contact sales/i }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('mobile menu opens, navigates and closes', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    const landing = new PublicLanding(page);
    await landing.goto();
    await expect(landing.mobileMenu()).toBeHidden();
    await landing.menuButton().click();
    await expect(landing.mobileMenu()).toBeVisible();
    expect(await landing.menuExpanded()).toBe(true);
    await expect(landing.mobileMenu().getByRole('link', { name: 'Get Started' })).toBeVisible();
    await landing.mobileMenu().getByRole('link', { name: 'Industries' }).click();
    await expect(landing.mobileMenu()).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Built for the way your shop works' })).toBeInViewport();
    await landing.menuButton().click();
    await page.keyboard.press('Escape');
    await expect(landing.mobileMenu()).toBeHidden();
    expect(await landing.menuExpanded()).toBe(false);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
  });

  test('legal pages show their dates, the stated limits, and /terms and /privacy are registered', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
    await expect(page.locator('time')).toHaveAttribute('datetime', '2025-09-13');
    await expect(page.getByText('the amount you paid us in the past 6 months')).toBeVisible();
    await expect(page.locator('[data-placeholder]').first()).toContainText('JURISDICTION');
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    await page.goto('/cookie-policy');
    await expect(page.getByText('Persistent cookies last from 1 day to 2 years')).toBeVisible();
    await page.goto('/gdpr-compliance');
    await expect(page.locator('time')).toHaveAttribute('datetime', '2025-09-16');
    await expect(page.getByText('within 72 hours')).toBeVisible();
    await page.goto('/data-security-policy');
    await expect(page.locator('time')).toHaveAttribute('datetime', '2025-09-16');
  });

  test('auth-success redirects home after 3 seconds', async ({ page }) => {
    await page.goto('/auth-success');
    await expect(page.getByRole('heading', { name: 'All done!' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue to Dashboard' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
  });
});
