import { expect, test } from '@playwright/test';
import { createConfirmedUser } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { SupportScreen } from './pages/dashboard-support';
import { signInThroughUi } from './support/sign-in';

/** 1x1 PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test.describe('support attachments', () => {
  test('a ticket is sent with a PNG, which its thread lists and downloads; a page renamed .png is refused', async ({ page }) => {
    const user = await createConfirmedUser('support-attach');
    await signInThroughUi(page, user.email, user.password);
    const support = new SupportScreen(page);
    const shell = new DashboardShell(page);
    await support.goto();
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

    // Checked by content on the server: an HTML page named .png gets through the form and is refused there.
    await support.goto();
    await picker.setInputFiles({ name: 'evil.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') });
    await support.subject.fill('Second');
    await support.message.fill('With a bad file.');
    await support.submit.click();
    await expect(shell.toast('error')).toContainText('Attachment not sent');
  });
});
