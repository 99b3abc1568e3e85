import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { adminClient, createConfirmedUser } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { SettingsScreen } from './pages/dashboard-settings';
import { signInThroughUi } from './support/sign-in';

test.describe('dashboard settings', () => {
  test('Download My Data saves a JSON file of what is held about the user', async ({ page }) => {
    const user = await createConfirmedUser('settings-export', 'Export Person');
    await signInThroughUi(page, user.email, user.password);
    await new SettingsScreen(page).goto();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download My Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^storewise-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as { login: { email: string }; profile: { full_name: string } };
    expect(exported.login.email).toBe(user.email);
    expect(exported.profile.full_name).toBe('Export Person');
  });

  test('password rules, then a change that works for the next sign-in', async ({ page, browser }) => {
    const user = await createConfirmedUser('settings');
    await signInThroughUi(page, user.email, user.password);
    const settings = new SettingsScreen(page);
    const shell = new DashboardShell(page);
    await settings.goto();

    await expect(settings.update).toBeDisabled();
    await settings.newPassword.fill('abcdef');
    await expect(settings.update).toBeDisabled();
    await settings.confirmPassword.fill('abcdeX');
    await settings.update.click();
    await expect(page.getByText('Passwords do not match.')).toBeVisible();

    await settings.newPassword.fill('abc');
    await settings.confirmPassword.fill('abc');
    await settings.update.click();
    await expect(page.getByText('Password must be at least 6 characters long.')).toBeVisible();

    const next = `${user.password}-new`;
    await settings.newPassword.fill(next);
    await settings.confirmPassword.fill(next);
    await settings.update.click();
    await expect(shell.toast('success')).toContainText('Password updated');
    await expect(shell.toast('success')).toContainText('Your password has been successfully updated.');
    await expect(settings.newPassword).toHaveValue('');
    await expect(settings.confirmPassword).toHaveValue('');

    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInThroughUi(otherPage, user.email, next);
    await new DashboardShell(otherPage).open();
    await other.close();
  });

  test('Delete Account: an owner is told to transfer the business first; a staff member\'s login is deleted', async ({ page }) => {
    // An owner (every sign-up owns a business): refused, still signed in.
    const owner = await createConfirmedUser('delete-owner');
    await signInThroughUi(page, owner.email, owner.password);
    const settings = new SettingsScreen(page);
    const shell = new DashboardShell(page);
    await settings.goto();
    await settings.deleteAccount.click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Are you absolutely sure?');
    await expect(dialog).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await settings.deleteAccount.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Account' }).click();
    await expect(shell.toast('error')).toContainText('You own a business: transfer it to another member or delete the business first.');
    await expect(page).toHaveURL(/\/dashboard\/settings/);

    // A member who joined by invitation (no business of their own): deleted, signed out, and gone.
    const admin = await adminClient();
    const email = `delete-staff-${Date.now()}@e2e.storewise.test`;
    const password = `Pw-${Date.now()}-staff`;
    const created = await admin.auth.admin.createUser({ email, password, email_confirm: true,
      user_metadata: { full_name: 'Departing Cashier', invited: true } });
    expect(created.error).toBeNull();
    await shell.signOutFromMenu();
    await signInThroughUi(page, email, password);
    await settings.goto();
    await settings.deleteAccount.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(shell.toast('success')).toContainText('Account deleted');
    const again = await createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey)
      .auth.signInWithPassword({ email, password });
    expect(again.error).not.toBeNull();
  });
});
