import { expect, type Page } from '@playwright/test';

/** /auth in sign-in mode. */
export class PublicSignIn {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/auth');
    await expect(this.page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel(/^Email/).fill(email);
    await this.page.getByLabel(/^Password/).fill(password);
    await this.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }
}

/** /signup, "Step 1: Create Account". */
export class PublicSignup {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/signup');
    await expect(this.page.getByRole('heading', { name: 'Step 1: Create Account' })).toBeVisible();
  }

  /** Labels carry a required marker, so match the start of the label. */
  field(label: string) {
    return this.page.getByLabel(new RegExp(`^${label}`));
  }

  async fill(values: {
    fullName: string;
    businessName: string;
    businessType: string;
    businessEmail: string;
    phone: string;
    password: string;
    confirmPassword: string;
    agree: boolean;
  }) {
    await this.field('Full Name').fill(values.fullName);
    await this.field('Business Name').fill(values.businessName);
    if (values.businessType) await this.field('Business Type').selectOption(values.businessType);
    await this.field('Business Email').fill(values.businessEmail);
    await this.field('Phone Number').fill(values.phone);
    await this.field('Password').fill(values.password);
    await this.field('Confirm Password').fill(values.confirmPassword);
    if (values.agree) await this.agreeToTerms();
  }

  /**
   * Chakra draws its own box and keeps the real input visually hidden under the label, so Playwright's
   * check() sees the label "intercept" the click. Click the label's first words as a user would (not the
   * Terms/Privacy links inside it) and assert the real input's state.
   */
  async agreeToTerms() {
    const terms = this.page.getByRole('checkbox', { name: /I agree to the/ });
    if (await terms.isChecked()) return;
    await this.page.getByText('I agree to the').click({ position: { x: 4, y: 4 } });
    await expect(terms).toBeChecked();
  }

  async submit() {
    await this.page.getByRole('button', { name: 'Create Account' }).click();
  }
}

/** /forgot-password and /reset-password. */
export class PublicPasswordReset {
  constructor(readonly page: Page) {}

  async request(email: string) {
    await this.page.goto('/forgot-password');
    await this.page.getByLabel(/^Email/).fill(email);
    await this.page.getByRole('button', { name: 'Reset password' }).click();
  }

  async setNewPassword(password: string, confirm = password) {
    await this.page.getByLabel(/^New Password/).fill(password);
    await this.page.getByLabel(/^Confirm New Password/).fill(confirm);
    await this.page.getByRole('button', { name: 'Update password' }).click();
  }
}
