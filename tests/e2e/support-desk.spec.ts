import { expect, test, type Page } from '@playwright/test';
import { z } from 'zod';
import { e2e } from '../helpers/e2e-env';
import { SupportScreen } from './pages/dashboard-support';
import { signInThroughUi } from './support/sign-in';
import { createConfirmedUser, demo } from './support/users';

const listSchema = z.object({
  messages: z.array(z.object({ ID: z.string(), To: z.array(z.object({ Address: z.string() })), Subject: z.string() })),
});
const messageSchema = z.object({ Text: z.string() });

/** The text of the newest email to an address whose subject matches (the local inbox, Mailpit-style API). */
async function emailText(to: string, subject: RegExp): Promise<string> {
  let id: string | undefined;
  await expect.poll(async () => {
    const { messages } = listSchema.parse(await (await fetch(`${e2e.inboxUrl}/api/v1/messages`)).json());
    id = messages.find((m) => m.To.some((r) => r.Address.toLowerCase() === to.toLowerCase()) && subject.test(m.Subject))?.ID;
    return id;
  }, { message: `email ${String(subject)} to ${to}`, timeout: 15_000 }).toBeTruthy();
  return messageSchema.parse(await (await fetch(`${e2e.inboxUrl}/api/v1/message/${id}`)).json()).Text;
}

async function fileTicket(page: Page, subject: string, message: string): Promise<string> {
  const support = new SupportScreen(page);
  await support.goto();
  await support.subject.fill(subject);
  await support.message.fill(message);
  await support.submit.click();
  await expect(support.ticketRows().first()).toContainText(subject);
  await support.ticketRows().first().getByRole('link', { name: /View Details/ }).click();
  await page.waitForURL(/\/dashboard\/support\/tickets\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

test.describe('support desk', () => {
  test('owner files, admin answers from the queue, owner replies by email link and thread, admin resolves; others cannot read it', async ({ browser }) => {
    // Three people in three browser contexts, two emails: longer than one screen's test.
    test.setTimeout(180_000);
    const owner = await createConfirmedUser('desk', 'Dana Desk');
    const ownerPage = await (await browser.newContext()).newPage();
    await signInThroughUi(ownerPage, owner.email, owner.password);
    const ticketId = await fileTicket(ownerPage, 'Scanner beeps twice', 'Every scan beeps twice and adds two items.');
    const thread = ownerPage.getByTestId('thread');
    await expect(thread.getByTestId('thread-message')).toHaveCount(1);
    await expect(thread).toContainText('Every scan beeps twice and adds two items.');

    // The admin finds it in the queue by the owner's email and answers.
    const adminPage = await (await browser.newContext()).newPage();
    await signInThroughUi(adminPage, demo.admin.email, demo.admin.password);
    await adminPage.goto('/admin/support');
    await expect(adminPage.getByRole('heading', { name: 'Support Tickets' })).toBeVisible();
    await adminPage.getByLabel('Search subject, owner or business').fill(owner.email);
    const row = adminPage.getByTestId('queue-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Scanner beeps twice');
    await expect(row).toContainText('On us');
    await expect(row).toContainText('No replies');
    await row.getByRole('link', { name: 'Scanner beeps twice' }).click();
    await adminPage.waitForURL(`**/admin/support/${ticketId}`);
    await adminPage.getByRole('textbox', { name: /Reply to the customer/ }).fill('Turn off "double beep" in the scanner settings.');
    await adminPage.getByRole('button', { name: 'Send Reply' }).click();
    await expect(adminPage.getByTestId('thread-message')).toHaveCount(2);
    await expect(adminPage.getByTestId('waiting-on')).toContainText('Waiting on the customer');

    // The owner gets an email with a link to the thread, and sees the answer there.
    const text = await emailText(owner.email, /Storewise Support replied: Scanner beeps twice/);
    expect(text).toContain('Turn off "double beep" in the scanner settings.');
    const link = text.match(/https?:\/\/\S+\/dashboard\/support\/tickets\/[0-9a-f-]{36}/)?.[0] ?? '';
    expect(link).toContain(ticketId);
    // The dashboard bell has a dot until the answered ticket is opened.
    await ownerPage.goto('/dashboard');
    await expect(ownerPage.getByTestId('notification-dot')).toBeVisible();
    await ownerPage.goto(new URL(link).pathname);
    await expect(ownerPage.getByTestId('notification-dot')).toHaveCount(0);
    const messages = ownerPage.getByTestId('thread-message');
    await expect(messages).toHaveCount(2);
    await expect(messages.nth(1)).toContainText('Storewise Support');
    await expect(messages.nth(1)).toContainText('Turn off "double beep"');
    await ownerPage.getByRole('textbox', { name: /Your reply/ }).fill('That fixed it, thank you!');
    await ownerPage.getByRole('button', { name: 'Send Reply' }).click();
    await expect(messages).toHaveCount(3);
    await expect(messages.nth(2)).toContainText('Dana Desk');

    // The admin resolves it; the owner is told by email, and the list shows the green badge.
    await adminPage.reload();
    await expect(adminPage.getByTestId('thread-message')).toHaveCount(3);
    await adminPage.getByLabel('Status', { exact: true }).selectOption('resolved');
    await expect(adminPage.locator('[data-status="resolved"]')).toBeVisible();
    await emailText(owner.email, /Your ticket was resolved: Scanner beeps twice/);
    const support = new SupportScreen(ownerPage);
    await support.goto();
    await expect(support.ticketRows().first().locator('[data-status="resolved"]')).toHaveText('Resolved');
    await expect(support.ticketRows().first()).toContainText('Less than an hour ago');

    // A second owner opening the thread by id reads nothing of it.
    const other = await createConfirmedUser('desk-other');
    const otherPage = await (await browser.newContext()).newPage();
    await signInThroughUi(otherPage, other.email, other.password);
    await otherPage.goto(`/dashboard/support/tickets/${ticketId}`);
    await expect(otherPage.getByRole('alert')).toContainText("We couldn't find this ticket.");
    await expect(otherPage.getByText('Scanner beeps twice')).toHaveCount(0);
    await expect(otherPage.getByText('That fixed it')).toHaveCount(0);
    // Nor through the data API with their own session (what a curious owner would try next), and their bell is empty.
    const attempts = await otherPage.evaluate(async (id) => {
      const { url, anonKey } = (await (await fetch('/config.json')).json()) as { url: string; anonKey: string };
      const key = Object.keys(localStorage).find((k) => k.startsWith('sb-') && k.endsWith('-auth-token')) ?? '';
      const token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token ?? '';
      const headers = { apikey: anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const call = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(`${url}/rest/v1/${path}`, { ...init, headers });
        return { status: response.status, body: await response.text() };
      };
      return {
        signedIn: token.length > 0,
        thread: await call('rpc/ticket_thread', { method: 'POST', body: JSON.stringify({ _ticket_id: id }) }),
        reply: await call('rpc/customer_reply', { method: 'POST', body: JSON.stringify({ _ticket_id: id, _body: 'Hijack' }) }),
        replies: await call(`ticket_replies?select=body&ticket_id=eq.${id}`),
        ticket: await call(`support_tickets?select=subject&id=eq.${id}`),
        bell: await call('notifications?select=link'),
      };
    }, ticketId);
    expect(attempts.signedIn).toBe(true);
    expect(attempts.thread.status).toBe(403);
    expect(attempts.thread.body).not.toContain('Scanner');
    expect(attempts.reply.status).toBe(403);
    expect(attempts.replies).toEqual({ status: 200, body: '[]' });
    expect(attempts.ticket).toEqual({ status: 200, body: '[]' });
    expect(attempts.bell.body).not.toContain(ticketId);
  });
});
