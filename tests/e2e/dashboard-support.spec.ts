import { expect, test } from '@playwright/test';
import { createConfirmedUser, demo } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { SupportScreen } from './pages/dashboard-support';
import { signInThroughUi } from './support/sign-in';

// page.route does not see every request of a page the service worker controls: Playwright lets some through
// unrouted (a paused request without a network id, or one it already saw), and CI once found an "offline" sale on
// the server. This spec fakes the server's failures with routes and never reloads offline, so it runs without the
// worker, as Playwright advises; pos-pwa-offline.spec.ts tests the worker.
test.use({ serviceWorkers: 'block' });

test.describe('dashboard support', () => {
  test('owner1 sees tickets newest first with status colours and relative updates', async ({ page }) => {
    await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
    const support = new SupportScreen(page);
    await support.goto();

    const rows = support.ticketRows();
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('Barcode scanner not detected');
    await expect(rows.nth(0).locator('[data-status="open"]')).toHaveText('Open');
    await expect(rows.nth(0)).toContainText('Last updated 1 day ago');
    await expect(rows.nth(1)).toContainText('Add a second store');
    await expect(rows.nth(1).locator('[data-status="in_progress"]')).toHaveText('In progress');
    await expect(rows.nth(1)).toContainText('Last updated 4 days ago');
    await expect(rows.nth(2).locator('[data-status="resolved"]')).toHaveText('Resolved');

    // Badge colours: open blue, resolved green, others grey.
    const colour = (status: string) =>
      page.evaluate<string>(`getComputedStyle(document.querySelector('[data-status="${status}"]')).color`);
    const [open, resolved, inProgress] = [await colour('open'), await colour('resolved'), await colour('in_progress')];
    expect(new Set([open, resolved, inProgress]).size).toBe(3);

    await expect(support.faq.getByRole('link', { name: 'Go to Billing' })).toHaveAttribute('href', '/dashboard/billing');
    await expect(support.faq.getByRole('link', { name: 'Go to Security' })).toHaveAttribute(
      'href',
      '/dashboard/security',
    );
    await expect(page.getByText('Max file size: 10MB. Supported formats: PDF, PNG, JPG.', { exact: false })).toBeVisible();
  });

  test('validates, submits a ticket and lists it first', async ({ page }) => {
    const user = await createConfirmedUser('support');
    await signInThroughUi(page, user.email, user.password);
    const support = new SupportScreen(page);
    const shell = new DashboardShell(page);
    await support.goto();
    await expect(support.tickets).toContainText('No support tickets yet');

    await support.subject.fill('Printer');
    await support.submit.click();
    await expect(shell.toast('error')).toContainText('Missing Information');
    await expect(shell.toast('error')).toContainText('Please fill in both subject and message fields.');
    await expect(page.getByText('Message is required')).toBeVisible();

    await support.message.fill('The receipt printer prints blank pages.');
    await support.submit.click();
    await expect(shell.toast('success')).toContainText('Ticket Submitted');
    await expect(shell.toast('success')).toContainText('Our support team will get back to you within 24 hours.');
    await expect(support.subject).toHaveValue('');
    await expect(support.ticketRows()).toHaveCount(1);
    await expect(support.ticketRows().first()).toContainText('Printer');
    await expect(support.ticketRows().first()).toContainText('Open');
    await expect(support.ticketRows().first()).toContainText('Less than an hour ago');

    await page.reload();
    await expect(support.ticketRows()).toHaveCount(1);
  });

  test('a failed submit keeps the typed ticket and says so', async ({ page }) => {
    const user = await createConfirmedUser('support-fail');
    await signInThroughUi(page, user.email, user.password);
    await page.route('**/rest/v1/support_tickets**', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 503, body: '' }) : route.continue(),
    );
    const support = new SupportScreen(page);
    const shell = new DashboardShell(page);
    await support.goto();
    await support.subject.fill('Keep me');
    await support.message.fill('Typed text must survive.');
    await support.submit.click();
    await expect(shell.toast('error')).toContainText('Failed to submit ticket. Please try again.');
    await expect(support.subject).toHaveValue('Keep me');
    await expect(support.message).toHaveValue('Typed text must survive.');
  });
});
