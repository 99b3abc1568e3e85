import { expect, test, type Page } from '@playwright/test';

// The public routes arrive as real HTML (docs/adr/0090): with JavaScript off, Chromium still shows their texts.

const featureNames = [
  'AI-Powered Insights', 'Enterprise Security', 'Lightning Fast', 'Global Scaling', 'Team Collaboration', 'Growth Analytics',
  '24/7 Operations', 'Full Customization', 'Mobile First', 'Cloud Infrastructure', 'Advanced Permissions', 'Real-time Reporting',
];

// Spec section 9's plans as the pricing section shows them.
const plans = [
  { name: 'Starter', price: '$9.99' },
  { name: 'Growth', price: '$29.99' },
  { name: 'Pro', price: '$99.99' },
  { name: 'Enterprise', price: 'Custom' },
];

const legalPages = {
  'privacy-policy': 'Privacy Policy',
  'terms-of-service': 'Terms of Service',
  'cookie-policy': 'Cookie Policy',
  'gdpr-compliance': 'GDPR Compliance',
  'data-security-policy': 'Data Security Policy',
};

test.describe('prerendered HTML without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('landing: hero, the 12 features, the four plans with their prices', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Run every store from one place with Storewise');
    for (const name of featureNames) await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    for (const plan of plans) {
      const card = page.getByTestId(`plan-${plan.name}`);
      await expect(card.getByRole('heading', { name: plan.name })).toBeVisible();
      await expect(card).toContainText(plan.price);
    }
    // Styled, not raw HTML: the critical CSS came with the page.
    const heroSize = await page.evaluate<string>('getComputedStyle(document.querySelector("h1")).fontSize');
    expect(parseFloat(heroSize)).toBeGreaterThan(24);
    await expect(page).toHaveTitle('Storewise | Retail management for every store');
  });

  for (const [slug, title] of Object.entries(legalPages)) {
    test(`legal page /${slug}: title and section headings`, async ({ page }) => {
      await page.goto(`/${slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(2);
      await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText(/^1\. /);
      await expect(page).toHaveTitle(`${title} | Storewise`);
    });
  }

  test('auth shells: /auth, /signup and /forgot-password show their forms', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
    await expect(page.getByRole('textbox', { name: /^Email/ })).toBeVisible();
    await page.goto('/signup');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(/Full Name/).first()).toBeVisible();
    await page.goto('/forgot-password');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Email/ })).toBeVisible();
  });

  test('an unknown path: the prerendered 404 page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  });
});

/** Every console message of the page that is an error or mentions hydration. */
function hydrationComplaints(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /hydrat|did not match|server rendered/i.test(text)) complaints.push(`${message.type()}: ${text}`);
  });
  page.on('pageerror', (error) => complaints.push(`pageerror: ${error.message}`));
  return complaints;
}

test.describe('hydration', () => {
  for (const path of ['/', '/privacy-policy', '/auth']) {
    test(`${path} hydrates the prerendered HTML without warnings`, async ({ page }) => {
      const complaints = hydrationComplaints(page);
      await page.goto(path);
      const heading = page.getByRole('heading', { level: 1 });
      // The very node painted from the HTML survives hydration (a client re-render would replace it).
      await heading.evaluate((node) => void ((node as unknown as Record<string, unknown>).prerendered = true));
      // Hydrated: the screen is no longer inert, and the account state has arrived.
      await expect(page.locator('[inert]')).toHaveCount(0);
      if (path === '/') await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await heading.evaluate((node) => (node as unknown as Record<string, unknown>).prerendered)).toBe(true);
      expect(complaints).toEqual([]);
    });
  }

  test('landing: the visitor buttons appear after hydration without moving the header links', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const pricingLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' });
    const before = await pricingLink.boundingBox();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(await pricingLink.boundingBox()).toEqual(before);
  });
});
