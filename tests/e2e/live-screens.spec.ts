/**
 * Live screens over the embedded stack's Realtime (issue 28): the stock page follows a count and a sale
 * made elsewhere without a reload, and a support thread shows the other side's reply in the customer's
 * and the admin's open page. The pages are never reloaded: what changes on screen came over the websocket.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { posShop } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { createConfirmedUser, demo } from './support/users';

// Screens on a machine shared by many runs can take seconds to hydrate and load; the live path's own speed is
// measured by bench/realtime.bench.ts, not here.
const see = expect.configure({ timeout: 30_000 });

test('the stock page follows a count and a sale made elsewhere, without a reload', async ({ page }) => {
  // A fresh shop, a sign-in and two changes: more than one screen's time on a loaded machine.
  test.setTimeout(180_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.owner.email, shop.owner.password);
  await page.goto('/dashboard/inventory');
  await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: 'Till Test' });
  let navigations = 0;
  page.on('framenavigated', () => (navigations += 1));

  // Elsewhere: the owner's other device counts 10 soaps, then a register sells 3.
  const api = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const signedIn = await api.auth.signInWithPassword({ email: shop.owner.email, password: shop.owner.password });
  expect(signedIn.error).toBeNull();
  const { data: soap } = await api.from('variants').select('id').eq('sku', 'SOAP').single();
  const variantId = (soap as { id: string }).id;
  const counted = await api.rpc('adjust_stock', { _store_id: shop.store, _variant_id: variantId, _qty: 10, _reason: 'found' });
  expect(counted.error).toBeNull();
  const row = page.getByTestId('stock-row').filter({ hasText: 'SOAP' });
  await see(row.getByTestId('stock-on-hand')).toHaveText('10');

  const sold = await api.rpc('post_sale', { _payload: {
    id: randomUUID(), register_id: shop.register, offline: true, occurred_at: new Date().toISOString(),
    lines: [{ variant_id: variantId, qty: 3, unit_price: 1250 }],
    tenders: [{ kind: 'card', amount: 3750 }],
  } });
  expect(sold.error).toBeNull();
  await see(row.getByTestId('stock-on-hand')).toHaveText('7');
  expect(navigations).toBe(0);
  await api.removeAllChannels();
});

test('a support reply appears in the customer\'s and the admin\'s open thread', async ({ browser }) => {
  test.setTimeout(240_000);
  const owner = await createConfirmedUser('live', 'Lee Live');
  const ownerPage = await (await browser.newContext()).newPage();
  await signInThroughUi(ownerPage, owner.email, owner.password);
  const api = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  expect((await api.auth.signInWithPassword({ email: owner.email, password: owner.password })).error).toBeNull();
  const subject = `Live thread ${randomUUID().slice(0, 6)}`;
  const { data: ticket, error } = await api.from('support_tickets').insert({ user_id: owner.id, subject, message: 'The drawer sticks.' }).select('id').single();
  expect(error).toBeNull();
  const ticketId = (ticket as { id: string }).id;

  await ownerPage.goto(`/dashboard/support/tickets/${ticketId}`);
  const ownerMessages = ownerPage.getByTestId('thread-message');
  await see(ownerMessages).toHaveCount(1);
  const adminPage = await (await browser.newContext()).newPage();
  await signInThroughUi(adminPage, demo.admin.email, demo.admin.password);
  await adminPage.goto(`/admin/support/${ticketId}`);
  const adminMessages = adminPage.getByTestId('thread-message');
  await see(adminMessages).toHaveCount(1);

  // A draft being typed by the customer stays while the admin's reply arrives.
  await ownerPage.getByRole('textbox', { name: /Your reply/ }).fill('Half-typed');
  await adminPage.getByRole('textbox', { name: /Reply to the customer/ }).fill('Try the release lever under the drawer.');
  await adminPage.getByRole('button', { name: 'Send Reply' }).click();
  await see(ownerMessages).toHaveCount(2);
  await see(ownerMessages.nth(1)).toContainText('Try the release lever');
  await see(ownerPage.getByRole('textbox', { name: /Your reply/ })).toHaveValue('Half-typed');

  await ownerPage.getByRole('textbox', { name: /Your reply/ }).fill('That worked.');
  await ownerPage.getByRole('button', { name: 'Send Reply' }).click();
  await see(adminMessages).toHaveCount(3);
  await see(adminMessages.nth(2)).toContainText('That worked.');
  await api.removeAllChannels();
});
