import { expect, type Locator, type Page } from '@playwright/test';
import { section } from './dashboard-shell';

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
