import AxeBuilder from '@axe-core/playwright';
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

/** Serious and critical axe violations of the current page, summarised for a readable failure. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
