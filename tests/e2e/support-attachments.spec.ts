import { expect, test } from '@playwright/test';
import { createConfirmedUser } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { SupportScreen } from './pages/dashboard-support';
import { signInThroughUi } from './support/sign-in';

/** 1x1 PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test.describe('support attachments', () => {
  test('a ticket is sent with a PNG, which its thread lists and downloads; wrong types and sizes are refused in the form', async ({ page }) => {
    test.slow();
    const user = await createConfirmedUser('support-attach');
    await signInThroughUi(page, user.email, user.password);
    const support = new SupportScreen(page);
    const shell = new DashboardShell(page);
    await page.goto('/dashboard/support');
    await expect(support.subject).toBeVisible({ timeout: 60_000 });
    const picker = page.getByTestId('ticket-attachment-input');

    // A file over 10 MB or of another type is refused in the form, before anything is sent.
    await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByText('Only PDF, PNG or JPG files can be attached')).toBeVisible();
    await picker.setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
    await expect(page.getByText('The file is larger than 10 MB')).toBeVisible();

    await picker.setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: png });
    await support.subject.fill('Scanner error');
    await support.message.fill('The screenshot shows the message.');
    await support.submit.click();
    await expect(shell.toast('success')).toContainText('Ticket Submitted');

    await support.ticketRows().first().getByRole('link').first().click();
    const attachment = page.getByTestId('ticket-attachment');
    await expect(attachment).toHaveText(/screenshot\.png/);
    const download = page.waitForEvent('download');
    await attachment.click();
    expect((await download).suggestedFilename()).toBe('screenshot.png');
    // A page renamed .png passes the form and is refused by content on the server: tests/local-stack/storage-bad-input.test.ts.
  });
});

test.describe('business logo', () => {
  test('the owner uploads a logo in Business settings and the header shows it', async ({ page }) => {
    test.slow();
    const user = await createConfirmedUser('logo-owner');
    await signInThroughUi(page, user.email, user.password);
    await page.goto('/dashboard/business');
    const logoCard = page.getByRole('region', { name: 'Logo' });
    await expect(logoCard).toContainText('No logo yet.', { timeout: 60_000 });
    await logoCard.getByTestId('logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await expect(new DashboardShell(page).toast('success')).toContainText('Logo saved');
    await expect(logoCard.getByTestId('logo-preview')).toBeVisible();
    const header = page.getByTestId('header-logo');
    await expect(header).toBeVisible();
    // The image really loaded from Storage's public URL (a broken image has no natural width).
    await expect.poll(() => header.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  });
});
