import { expect, type Locator, type Page } from '@playwright/test';

export class ProfileScreen {
  readonly fullName: Locator;
  readonly phone: Locator;
  readonly email: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    this.fullName = page.getByRole('textbox', { name: 'Full Name' });
    this.phone = page.getByRole('textbox', { name: /^Phone/ });
    this.email = page.getByRole('textbox', { name: 'Email' });
    this.save = page.getByRole('button', { name: 'Save Changes' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/profile');
    await expect(this.fullName).toBeVisible();
  }

  async saveWith(fullName: string, phone: string): Promise<void> {
    await this.fullName.fill(fullName);
    await this.phone.fill(phone);
    await this.save.click();
  }
}
