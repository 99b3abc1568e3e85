import { expect, type Locator, type Page } from '@playwright/test';
import { section } from './dashboard-shell';

export class OverviewScreen {
  readonly statusCard: Locator;
  readonly planCard: Locator;
  readonly emailCard: Locator;
  readonly memberSinceCard: Locator;
  readonly recentBilling: Locator;
  readonly profileInfo: Locator;

  constructor(readonly page: Page) {
    this.statusCard = section(page, 'Account Status');
    this.planCard = section(page, 'Current Plan');
    this.emailCard = section(page, 'Email');
    this.memberSinceCard = section(page, 'Member Since');
    this.recentBilling = section(page, 'Recent Billing');
    this.profileInfo = section(page, 'Profile Information');
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard');
    await expect(this.page.getByRole('heading', { level: 1 })).toBeVisible();
  }
}
