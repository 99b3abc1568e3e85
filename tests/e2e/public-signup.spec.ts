import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { PublicSignup } from './pages/public-auth';
import { linkFromEmail } from './pages/public-inbox';
import { toast } from './pages/public-site';

const valid = {
  fullName: 'Ada Lovelace',
  businessName: 'Ada Groceries',
  businessType: 'Grocery',
  businessEmail: 'ada@example.com',
  phone: '+1 555 010 9999',
  password: 'correct-horse-1',
  confirmPassword: 'correct-horse-1',
  agree: true,
};

test.describe('sign-up', () => {
  test('an empty form shows the validation toast and every required message', async ({ page }) => {
    const signup = new PublicSignup(page);
    await signup.goto();
    await signup.submit();
    await expect(toast(page, 'error', 'Validation Error')).toContainText('Please check the form and try again.');
    for (const message of [
      'Name must be at least 2 characters',
      'Business name is required',
      'Please select a business type',
      'Invalid email address',
      'Phone number must be at least 10 digits',
      'Password must be at least 8 characters',
      'You must agree to the terms and privacy policy',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
  });

  test('too-long values and a mismatch show the other messages; an edited field loses its error', async ({ page }) => {
    const signup = new PublicSignup(page);
    await signup.goto();
    await signup.fill({
      ...valid,
      fullName: 'n'.repeat(101),
      businessName: 'b'.repeat(101),
      businessEmail: `${'a'.repeat(250)}@example.com`,
      phone: '1'.repeat(21),
      password: 'p'.repeat(101),
      confirmPassword: 'different',
    });
    await signup.submit();
    for (const message of ['Name is too long', 'Business name is too long', 'Email is too long', 'Phone number is too long', 'Password is too long', "Passwords don't match"]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await signup.field('Full Name').fill('Ada');
    await expect(page.getByText('Name is too long', { exact: true })).toBeHidden();
    await expect(page.getByText('Business name is too long', { exact: true })).toBeVisible();
  });

  test('a password within 100 characters but past 72 bytes is refused in words that say bytes', async ({ page }) => {
    const signup = new PublicSignup(page);
    await signup.goto();
    // 30 characters, 90 bytes: the auth service's bcrypt reads 72 bytes.
    await signup.fill({ ...valid, password: '€'.repeat(30), confirmPassword: '€'.repeat(30) });
    await signup.submit();
    await expect(
      page.getByText('Password must be at most 72 bytes (fewer characters if it uses accents or symbols)', { exact: true }),
    ).toBeVisible();
    await expect(page.getByText(/72 characters/)).toHaveCount(0);
  });

  test('terms and privacy links open the registered legal pages in a new tab', async ({ page, context }) => {
    const signup = new PublicSignup(page);
    await signup.goto();
    const [terms] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Terms of Service' }).click()]);
    await expect(terms.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
  });

  test('through the real confirmation email to signed in, landing on pricing', async ({ page }) => {
    const email = `signup-${randomUUID().slice(0, 8)}@e2e.storewise.test`;
    const signup = new PublicSignup(page);
    await signup.goto();
    await signup.fill({ ...valid, businessEmail: email });
    await signup.submit();
    await expect(toast(page, 'success', 'Account created successfully!')).toContainText(
      'Check your email for confirmation, then proceed to plan selection.',
    );
    await expect(page).toHaveURL(/\/#pricing$/);
    // The page has scrolled to the plans the toast points at (it used to stay at the top).
    await expect(page.locator('#pricing')).toBeInViewport();
    await expect(page.getByRole('heading', { name: 'Simple plans that grow with you' })).toBeInViewport();
    await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();

    const link = await linkFromEmail(email, /confirm/i);
    await page.goto(link);
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Simple plans that grow with you' })).toBeInViewport();

    // The same link a second time has been used up: the page says so and drops the error from the address.
    const second = await page.context().browser()!.newPage();
    await second.goto(link);
    await expect(toast(second, 'error', 'Error')).toContainText(/invalid or has expired/);
    await expect(second).toHaveURL(/\/$/);
    await second.close();
  });
});
