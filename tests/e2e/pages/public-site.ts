import { expect, type Page } from '@playwright/test';

/** The landing page: navigation, mobile menu and pricing. */
export class PublicLanding {
  constructor(readonly page: Page) {}

  async goto(hash = '') {
    await this.page.goto(`/${hash}`);
    await expect(this.page.getByRole('heading', { level: 1 })).toContainText('Storewise');
  }

  menuButton() {
    return this.page.getByRole('button', { name: /open menu|close menu/i });
  }

  mobileMenu() {
    return this.page.getByTestId('mobile-menu');
  }

  plan(name: 'Starter' | 'Growth' | 'Pro' | 'Enterprise') {
    return this.page.getByTestId(`plan-${name}`);
  }

  async getStarted(name: 'Starter' | 'Growth' | 'Pro') {
    await this.plan(name).getByRole('button', { name: /get started/i }).click();
  }
}

/** The toasts of spec 8: title and description inside one toast. */
export function toast(page: Page, kind: 'success' | 'error', title: string) {
  return page.getByTestId(`toast-${kind}`).filter({ hasText: title });
}

