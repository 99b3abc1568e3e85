import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { toast } from './pages/public-site';

// docs/adr/0168: a prerendered /auth boots without the app (React and the page's light components only),
// supabase-js loads when the visitor starts on the form, and the app draws the same screen on client-side
// navigation.

/** The script files the page requests, by path. */
function scriptRequests(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js')) scripts.push(path);
  });
  return scripts;
}

/** The computed styles that make a button look as it does (evaluated in the page; this project has no DOM types). */
const look = '(node) => { const style = getComputedStyle(node); return [style.backgroundColor, style.height, style.borderRadius, style.fontSize]; }';

const appModule = /\/assets\/(start|theme|theme-config|browser-app)-[\w-]+\.js$/;
const supabaseModule = /\/assets\/supabase-client-[\w-]+\.js$/;

test('a prerendered /auth hydrates without the app or supabase-js, which load once the visitor starts on the form', async ({ page }) => {
  const scripts = scriptRequests(page);
  await page.goto('/auth');
  await expect(page.locator('[inert]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => appModule.test(path) || supabaseModule.test(path))).toEqual([]);
  // Chakra's runtime never ran: the only style tags are the prerendered ones.
  expect(await page.locator('style[data-emotion]:not([data-s])').count()).toBe(0);

  await page.getByRole('textbox', { name: /^Email/ }).focus();
  await expect.poll(() => scripts.filter((path) => supabaseModule.test(path)).length).toBe(1);
  // The app's files are fetched for the hand-over after signing in.
  await expect.poll(() => scripts.filter((path) => appModule.test(path)).length).toBeGreaterThan(0);
});

test.describe('before any script ran', () => {
  test.use({ javaScriptEnabled: false });

  test('the prerendered form is inert, so it cannot be submitted natively', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
    await expect(page.locator('[inert]').locator('form[aria-label="Sign in"]')).toHaveCount(1);
    await expect(page.locator('style[data-light-styles]')).toHaveCount(1);
  });
});

test('create-account mode on the light page: field errors wired to their inputs, then the confirmation toast', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.locator('[inert]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('button', { name: 'Create Account' }).click();
  const fullName = page.getByRole('textbox', { name: /^Full Name/ });
  await expect(fullName).toHaveAttribute('aria-invalid', 'true');
  await expect(fullName).toHaveAccessibleDescription('Full name is required');
  // react-hook-form moves focus to an invalid field, as it did with Chakra's inputs.
  expect(await page.evaluate<string | null>('document.activeElement?.getAttribute("aria-invalid")')).toBe('true');

  await fullName.fill('Lena Light');
  await page.getByRole('textbox', { name: /^Email/ }).fill(`light-${randomUUID().slice(0, 8)}@e2e.storewise.test`);
  await page.getByLabel(/^Password/).fill('light-secret-1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'success', 'Check your email')).toContainText("We've sent you a confirmation link.");
  await expect(fullName).not.toHaveAttribute('aria-invalid', 'true');
});

test('the app draws the same /auth screen on client-side navigation, with the same look', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.locator('[inert]')).toHaveCount(0);
  const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
  const prerenderedLook = await signIn.evaluate(look);

  // /signup is hydrated by the app; its "Sign in" link is a router link.
  await page.goto('/signup');
  await expect(page.locator('[inert]')).toHaveCount(0);
  const documentsLoaded: string[] = [];
  page.on('request', (request) => request.resourceType() === 'document' && documentsLoaded.push(request.url()));
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
  expect(documentsLoaded).toEqual([]);
  await expect(page.locator('style[data-light-styles]')).toHaveCount(1);
  expect(await signIn.evaluate(look)).toEqual(prerenderedLook);

  await signIn.click();
  await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveAccessibleDescription('Email is required');
  // Its links stay in the app too.
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgot your password?');
  expect(documentsLoaded).toEqual([]);
});
