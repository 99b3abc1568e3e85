import { expect, type Locator, type Page } from '@playwright/test';
import { section } from './dashboard-shell';

export class SettingsScreen {
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly update: Locator;
  readonly signOut: Locator;
  readonly deleteAccount: Locator;

  constructor(readonly page: Page) {
    const form = page.getByRole('form', { name: 'Change Password' });
    this.newPassword = form.getByLabel(/^New Password/);
    this.confirmPassword = form.getByLabel(/^Confirm New Password/);
    this.update = form.getByRole('button', { name: 'Update Password' });
    const actions = section(page, 'Account Actions');
    this.signOut = actions.getByRole('button', { name: 'Sign Out' });
    this.deleteAccount = actions.getByRole('button', { name: 'Delete Account' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/settings');
    await expect(this.newPassword).toBeVisible();
  }
}
