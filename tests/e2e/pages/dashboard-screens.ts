import { expect, type Locator, type Page } from '@playwright/test';

/** Page objects of the dashboard screens: only locators and user actions, no assertions on content. */

function section(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title });
}

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

export class SupportScreen {
  readonly subject: Locator;
  readonly message: Locator;
  readonly submit: Locator;
  readonly tickets: Locator;
  readonly faq: Locator;

  constructor(readonly page: Page) {
    const form = page.getByRole('form', { name: 'Submit a Ticket' });
    this.subject = form.getByRole('textbox', { name: /^Subject/ });
    this.message = form.getByRole('textbox', { name: /^Message/ });
    this.submit = form.getByRole('button', { name: 'Submit Ticket' });
    this.tickets = section(page, 'Your Tickets');
    this.faq = section(page, 'Frequently Asked Questions');
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/support');
    await expect(this.subject).toBeVisible();
  }

  ticketRows(): Locator {
    return this.tickets.getByRole('listitem');
  }
}
