import { expect, type Locator, type Page } from '@playwright/test';
import { section } from './dashboard-shell';

export class BillingScreen {
  readonly plan: Locator;
  readonly planName: Locator;
  readonly autoRenew: Locator;
  readonly methods: Locator;
  readonly history: Locator;

  constructor(readonly page: Page) {
    this.plan = section(page, 'Current Plan');
    this.planName = page.getByTestId('plan-name');
    this.autoRenew = this.plan.getByRole('checkbox', { name: 'Auto-renew' });
    this.methods = section(page, 'Payment Methods');
    this.history = section(page, 'Billing History');
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/billing');
    await expect(this.planName).toBeVisible();
  }

  /** Clicks the switch's visible control (the checkbox itself is visually hidden). */
  async toggleAutoRenew(): Promise<void> {
    await this.plan.locator('label', { hasText: 'Auto-renew' }).click();
  }
}
