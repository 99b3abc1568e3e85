import { expect, test } from '@playwright/test';
import { z } from 'zod';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { AdminPanel } from './pages/admin-panel';
import { openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { demo } from './support/users';

/*
 * Issue 30 (docs/adr/0280, 0281). Read-only maintenance: the dashboard says why changes wait; the register keeps
 * selling, its sale waits (online, "why" shown) and posts once when the admin turns it off. And the test email
 * button: it arrives in the local inbox with the sender name and reply-to. Read-only holds every write on this
 * server, so this file runs alone, after the other specs (its own project in playwright.config.ts).
 */
test.describe.configure({ mode: 'serial' });
test.slow();

async function signedInAdmin() {
  const client = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const { error } = await client.auth.signInWithPassword(demo.admin);
  if (error) throw new Error(error.message);
  return client;
}

test('read-only maintenance: the banner says why, the register keeps selling and sends the sale once it ends', async ({ page }) => {
  const shop = await posShop();
  const admin = await signedInAdmin();
  const setReadOnly = async (on: boolean) => {
    const { error } = await admin.rpc('admin_update_platform_settings', { _changes: { read_only: on, read_only_message: on ? 'Database upgrade' : '' } });
    if (error) throw new Error(error.message);
  };
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '30');
  try {
    await setReadOnly(true);
    // A screen opened now shows it above the register.
    await page.reload();
    // (A reload on a loaded machine can take a while: the register first.)
    await page.getByRole('textbox', { name: 'Scan or search' }).waitFor({ timeout: 60_000 });
    const notices = page.getByTestId('platform-notices');
    await expect(notices).toContainText('Storewise is in read-only maintenance: Database upgrade', { timeout: 30_000 });
    await expect(notices).toContainText('Registers keep selling offline');

    await scan(page, '4006381333931');
    await tender(page, 'Cash', '20');
    await expect(page.getByTestId('receipt-change')).toHaveText('$7.50');
    // The sale waits, with the reason; the register is online (the server answered), nothing was refused.
    await expect(page.getByTestId('pos-waiting')).toHaveText('1 waiting');
    const paused = page.getByTestId('pos-paused');
    await expect(paused).toContainText('Storewise is in read-only maintenance: changes wait until it ends. Database upgrade');
    await expect(page.getByTestId('pos-status')).toHaveText('Online');
    await expect(page.getByTestId('pos-refused')).toHaveCount(0);
    expect(await shop.sales()).toHaveLength(0);
  } finally {
    await setReadOnly(false);
  }
  // Over: the next sync sends it, once.
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting', { timeout: 20_000 });
  await expect(page.getByTestId('pos-paused')).toHaveCount(0);
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  expect(await shop.sales()).toMatchObject([{ total: 1250 }]);
});

const messageSchema = z.object({
  From: z.object({ Name: z.string(), Address: z.string() }),
  ReplyTo: z.array(z.object({ Address: z.string() })),
  Text: z.string(),
});

test('the test email button sends the admin a test email with the sender name and reply-to', async ({ page }) => {
  const started = new Date().toISOString();
  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  const admin = new AdminPanel(page);
  await page.goto('/admin/settings');
  // (The admin panel's first load can be slow on a loaded machine.)
  await expect(admin.heading).toHaveText('System Settings', { timeout: 60_000 });
  const senderName = await page.getByLabel('Email sender name').inputValue();
  const replyTo = await page.getByLabel('Reply-to address').inputValue();
  await page.getByRole('button', { name: 'Send a test email' }).click();
  await expect(page.getByText('Test email sent')).toBeVisible();
  // In the history too.
  await expect(page.getByRole('region', { name: 'Change history' }).getByRole('row').filter({ hasText: 'test_email' }).first()).toBeVisible();

  let id = '';
  await expect.poll(async () => {
    const { messages } = z.object({ messages: z.array(z.object({ ID: z.string(), Subject: z.string(), Created: z.string(),
      To: z.array(z.object({ Address: z.string() })) })) }).parse(await (await fetch(`${e2e.inboxUrl}/api/v1/messages`)).json());
    id = messages.find((m) => m.Subject === 'Storewise test email' && m.Created >= started
      && m.To.some((to) => to.Address === demo.admin.email))?.ID ?? '';
    return id;
  }, { message: 'the test email in the inbox', timeout: 20_000 }).not.toBe('');
  const message = messageSchema.parse(await (await fetch(`${e2e.inboxUrl}/api/v1/message/${id}`)).json());
  expect(message.From.Name).toBe(senderName);
  expect(message.ReplyTo).toEqual([expect.objectContaining({ Address: replyTo })]);
  expect(message.Text).toContain(`Sender name: ${senderName}`);
});
