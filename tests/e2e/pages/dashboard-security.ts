import { expect, type Locator, type Page } from '@playwright/test';
import { section } from './dashboard-shell';

export class SecurityScreen {
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly update: Locator;
  readonly sessions: Locator;
  readonly logoutOthers: Locator;
  readonly activity: Locator;
  readonly twoFactor: Locator;

  constructor(readonly page: Page) {
    const form = page.getByRole('form', { name: 'Change Password' });
    this.currentPassword = form.getByLabel(/^Current Password/);
    this.newPassword = form.getByLabel(/^New Password/);
    this.confirmPassword = form.getByLabel(/^Confirm New Password/);
    this.update = form.getByRole('button', { name: 'Update Password' });
    this.sessions = section(page, 'Active Sessions');
    this.logoutOthers = this.sessions.getByRole('button', { name: 'Logout Other Devices' });
    this.activity = section(page, 'Login Activity');
    this.twoFactor = section(page, 'Two-Factor Authentication');
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/security');
    await expect(this.currentPassword).toBeVisible();
  }

  async changePassword(current: string, next: string, confirm = next): Promise<void> {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.confirmPassword.fill(confirm);
    await this.update.click();
  }

  sessionRows(): Locator {
    return this.sessions.getByRole('listitem');
  }
}
