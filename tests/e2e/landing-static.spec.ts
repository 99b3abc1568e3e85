import { expect, test, type Page } from '@playwright/test';
import { PublicSignIn } from './pages/public-auth';
import { payOnCheckout } from './support/checkout';
import { PublicLanding, toast } from './pages/public-site';
import { createConfirmedUser } from './support/users';

// docs/adr/0167: the landing is a static document for a visitor (links, anchors, a native popover menu) and is
// sent without the app's JavaScript; the app starts on it, and hydrates it, only where a session is stored.

/** The scripts the page requests from the site, by path. */
function scriptRequests(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || /\.js(\?|$)/.test(request.url())) scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/**
 * The module scripts the landing's HTML names: web/main.tsx's chunk and web/live.ts's (the banner, announcement
 * and status read after the first paint, docs/adr/0261). Neither is React or Chakra.
 */
async function entryScripts(page: Page): Promise<string[]> {
  const sources = await page.locator('script[type="module"]').evaluateAll((scripts) => scripts.map((s) => s.getAttribute('src') ?? ''));
  expect(sources).toHaveLength(2);
  for (const src of sources) expect(src).toMatch(/^\/assets\/(index|live)-.+\.js$/);
  return sources;
}

test.describe('the landing without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 320, height: 700 } });

  test('the mobile menu is a popover: its button, Escape and the keyboard open and close it', async ({ page }) => {
    const landing = new PublicLanding(page);
    await landing.goto();
    await expect(landing.mobileMenu()).toBeHidden();
    expect(await landing.menuExpanded()).toBe(false);

    await landing.menuButton().click();
    await expect(landing.mobileMenu()).toBeVisible();
    expect(await landing.menuExpanded()).toBe(true);
    await expect(landing.mobileMenu().getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    await expect(landing.mobileMenu().getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');
    await page.keyboard.press('Escape');
    await expect(landing.mobileMenu()).toBeHidden();
    expect(await landing.menuExpanded()).toBe(false);

    // From the keyboard: Enter on the focused button opens it, the button again closes it.
    await landing.menuButton().focus();
    await page.keyboard.press('Enter');
    await expect(landing.mobileMenu()).toBeVisible();
    await landing.menuButton().click();
    await expect(landing.mobileMenu()).toBeHidden();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
  });

  test('Watch Demo, the section buttons and the plans are links', async ({ page }) => {
    const landing = new PublicLanding(page);
    await landing.goto();
    await expect(page.getByRole('link', { name: 'Watch Demo' })).toHaveAttribute('href', '#features');
    await expect(page.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute('href', '#pricing');
    await expect(page.getByRole('link', { name: 'Schedule Demo' })).toHaveAttribute('href', '#about');
    for (const name of ['Starter', 'Growth', 'Pro'] as const) {
      await expect(landing.plan(name).getByRole('link', { name: /get started/i })).toHaveAttribute('href', `/signup?plan=${name}`);
    }
    await page.getByRole('link', { name: 'Watch Demo' }).click();
    await expect(page).toHaveURL(/#features$/);
    await expect(page.getByRole('heading', { name: 'Everything a modern retailer needs' })).toBeInViewport();
  });
});

test.describe('the landing for a visitor', () => {
  test('requests no script but its small entry, and its menu links close the menu', async ({ page }) => {
    // Its CSS was cut to what it uses: no palette it never shows (docs/adr/0167).
    expect(await (await page.request.get('/')).text()).not.toContain('--chakra-colors-red-500:');
    await page.setViewportSize({ width: 320, height: 700 });
    const scripts = scriptRequests(page);
    const landing = new PublicLanding(page);
    await landing.goto();
    await page.waitForLoadState('networkidle');
    expect([...scripts].sort()).toEqual((await entryScripts(page)).sort());
    // Nothing was hydrated, so no handler of React's closes the menu: the entry's listener does.
    await landing.menuButton().click();
    await landing.mobileMenu().getByRole('link', { name: 'Pricing' }).click();
    await expect(landing.mobileMenu()).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Simple plans that grow with you' })).toBeInViewport();
    expect([...scripts].sort()).toEqual((await entryScripts(page)).sort());
  });

  test("a plan's link lands on /signup with the plan remembered", async ({ page }) => {
    const landing = new PublicLanding(page);
    await landing.goto('#pricing');
    await landing.getStarted('Growth');
    await expect(page).toHaveURL(/\/signup\?plan=Growth$/);
    await expect(page.getByTestId('remembered-plan')).toContainText('Selected plan: Growth');
    expect(await page.evaluate(() => localStorage.getItem('storewise.remembered-plan'))).toBe('"Growth"');
  });

  test('/signup opened again with a plan remembered hydrates its HTML without a mismatch, then shows the note', async ({ page }) => {
    await page.goto('/signup?plan=Pro');
    await expect(page.getByTestId('remembered-plan')).toContainText('Selected plan: Pro');
    const complaints: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /hydrat|did not match|server rendered/i.test(message.text())) complaints.push(message.text());
    });
    page.on('pageerror', (error) => complaints.push(error.message));
    // The prerendered shell has no note; localStorage has the plan from before.
    await page.goto('/signup');
    const heading = page.getByRole('heading', { level: 1 });
    await heading.evaluate((node) => void ((node as unknown as Record<string, unknown>).prerendered = true));
    await expect(page.getByTestId('remembered-plan')).toContainText('Selected plan: Pro');
    // Hydrated, not painted again: the node from the HTML is still there.
    expect(await heading.evaluate((node) => (node as unknown as Record<string, unknown>).prerendered)).toBe(true);
    expect(complaints).toEqual([]);
  });

  test('/signup ignores a plan that cannot be started alone', async ({ page }) => {
    await page.goto('/signup?plan=Enterprise');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('remembered-plan')).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('storewise.remembered-plan'))).toBeNull();
  });
});

test.describe('the landing for a signed-in user', () => {
  test('is hydrated: Dashboard button, and Get Started chooses the plan', async ({ page }) => {
    const user = await createConfirmedUser('landing-static');
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await signIn.signIn(user.email, user.password);
    await expect(toast(page, 'success', 'Welcome back!')).toBeVisible();

    // A fresh load of the landing, as from a bookmark: the stored session starts the app (its files may come from
    // the cache: /auth fetched them ahead of signing in, so the Dashboard link is the proof, not the requests).
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/#pricing');
    const heading = page.getByRole('heading', { level: 1 });
    await heading.evaluate((node) => void ((node as unknown as Record<string, unknown>).prerendered = true));
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
    // The visitor's HTML carries only the CSS variables the landing uses; the started app adds the whole sheet,
    // which the screens it renders next (the dashboard) need.
    await expect
      .poll(() => page.locator('html').evaluate((root) => root.ownerDocument.defaultView?.getComputedStyle(root).getPropertyValue('--chakra-colors-red-500') ?? ''))
      .not.toBe('');
    // Hydrated, not painted again: the node from the HTML is still there.
    expect(await heading.evaluate((node) => (node as unknown as Record<string, unknown>).prerendered)).toBe(true);

    await new PublicLanding(page).getStarted('Pro');
    // Issue 24: the trial starts on the payment provider's checkout (the local TEST MODE stand-in here).
    await payOnCheckout(page, '4242 4242 4242 4242', 'Start trial');
    await expect(toast(page, 'success', 'Trial started')).toContainText('Pro');
    await expect(page).toHaveURL(/\/dashboard\/billing$/);
    expect(errors).toEqual([]);
  });
});
