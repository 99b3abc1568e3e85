import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2e } from '../helpers/e2e-env';
import { createConfirmedUser } from './support/users';
import { PublicPasswordReset, PublicSignIn } from './pages/public-auth';
import { linkFromEmail } from './pages/public-inbox';
import { toast } from './pages/public-site';

test.describe('sign-in and passwords', () => {
  test('a wrong password gives the error toast, the right one signs in and goes home', async ({ page }) => {
    const user = await createConfirmedUser('signin');
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await signIn.signIn(user.email, 'not-the-password');
    await expect(toast(page, 'error', 'Error')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);

    await signIn.signIn(user.email, user.password);
    await expect(toast(page, 'success', 'Welcome back!')).toContainText('You have successfully signed in.');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  });

  test('the form toggles to create-account with a required full name and a password toggle', async ({ page }) => {
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Full name is required')).toBeVisible();
    await page.getByLabel(/^Password/).fill('secret');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel(/^Password/)).toHaveAttribute('type', 'text');
  });

  test('Continue with Google through the local provider page signs in', async ({ page }) => {
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // The local stack's stand-in for Google (supabase/local/auth/routes/authorize.ts): any email and name.
    await expect(page).toHaveURL(/\/auth\/v1\/local-provider\/google/);
    await expect(page.getByRole('heading', { name: /development stand-in for Google/ })).toBeVisible();
    await page.getByLabel('Email').fill(`google-${randomUUID().slice(0, 8)}@e2e.storewise.test`);
    await page.getByLabel('Name').fill('Grace Google');
    await page.getByRole('button', { name: 'Continue' }).click();
    // Back on the landing page; supabase-js takes the implicit-flow session out of the fragment.
    await expect(page).toHaveURL(new RegExp(`^${e2e.webUrl}/#?$`));
    await expect(page.getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
  });

  test('forgot password, the emailed link, a new password, auth-success, then sign in with it', async ({ page }) => {
    const user = await createConfirmedUser('reset');
    const reset = new PublicPasswordReset(page);
    await reset.request(user.email);
    await expect(toast(page, 'success', 'Check your email')).toContainText("We've sent you a password reset link.");
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try another email' })).toBeVisible();

    await page.goto(await linkFromEmail(user.email, /reset|password/i));
    await expect(page).toHaveURL(/\/reset-password/);
    await reset.setNewPassword('short', 'short');
    await expect(toast(page, 'error', 'Password too short')).toContainText('Password must be at least 6 characters long.');
    await reset.setNewPassword('brand-new-secret', 'brand-new-secreT');
    await expect(toast(page, 'error', "Passwords don't match")).toContainText('Please make sure both passwords are the same.');
    await reset.setNewPassword('brand-new-secret');
    await expect(toast(page, 'success', 'Password updated')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'All done!' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });

    await page.evaluate(() => localStorage.clear());
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await signIn.signIn(user.email, 'brand-new-secret');
    await expect(toast(page, 'success', 'Welcome back!')).toBeVisible();
  });

  test('a reset link without credentials says so and goes to /forgot-password', async ({ page }) => {
    await page.goto('/reset-password?access_token=only-one');
    await expect(toast(page, 'error', 'Invalid reset link')).toContainText('Please request a new password reset link.');
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.goto('/reset-password');
    await expect(page).toHaveURL(/\/forgot-password$/);
  });
});
