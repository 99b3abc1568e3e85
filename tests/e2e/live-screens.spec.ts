/**
 * Live screens over the embedded stack's Realtime (issue 28): the stock page follows a count and a sale
 * made elsewhere without a reload; a register's on-hand figures follow another register's sale (and the copy
 * kept on the device follows too); the Overview's tiles follow a sale and show which registers hold unsent
 * sales; a support thread shows the other side's reply in the customer's and the admin's open page. The pages
 * are never reloaded: what changes on screen came over the websocket.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { openShift, posShop } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient, createConfirmedUser, demo } from './support/users';

// Screens on a machine shared by many runs can take seconds to hydrate and load; the live path's own speed is
// measured by bench/realtime.bench.ts, not here.
const see = expect.configure({ timeout: 30_000 });
// The Overview's first load reads 30 days of figures: on a loaded machine it can take longer than a live change.
const slow = expect.configure({ timeout: 90_000 });

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

/** The owner's data API client and the soap's variant id in a posShop. */
async function ownerApi(shop: Awaited<ReturnType<typeof posShop>>) {
  const api = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const signedIn = await api.auth.signInWithPassword({ email: shop.owner.email, password: shop.owner.password });
  expect(signedIn.error).toBeNull();
  const { data: soap } = await api.from('variants').select('id').eq('sku', 'SOAP').single();
  return { api, soap: (soap as { id: string }).id };
}

/** A card sale of `qty` soaps (12.50 each, no tax) at `register`, as another register would post it. */
async function sellSoap(api: SupabaseClient, register: string, soap: string, qty: number) {
  const sold = await api.rpc('post_sale', { _payload: {
    id: randomUUID(), register_id: register, offline: true, occurred_at: new Date().toISOString(),
    lines: [{ variant_id: soap, qty, unit_price: 1250 }], tenders: [{ kind: 'card', amount: 1250 * qty }],
  } });
  expect(sold.error).toBeNull();
}

test('a register\'s on-hand figures follow another register\'s sale, on screen and in the copy kept on the device', async ({ page }) => {
  test.setTimeout(180_000);
  const shop = await posShop();
  const { api, soap } = await ownerApi(shop);
  expect((await api.rpc('adjust_stock', { _store_id: shop.store, _variant_id: soap, _qty: 10, _reason: 'found' })).error).toBeNull();
  const back = (await (await adminClient()).from('registers').insert({ business_id: shop.business, store_id: shop.store, name: 'Back',
    receipt_prefix: 'E2B' }).select('id').single()).data as { id: string };

  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');
  let navigations = 0;
  page.on('framenavigated', () => (navigations += 1));
  await page.getByRole('textbox', { name: 'Scan or search' }).fill('Soap');
  const onHand = page.getByTestId('pos-on-hand').and(page.locator('[data-sku="SOAP"]'));
  await see(onHand).toHaveText('10 on hand');

  // The other register sells 3: this register shows 7 without a reload, and its device copy holds 7.
  await sellSoap(api, back.id, soap, 3);
  await see(onHand).toHaveText('7 on hand');
  expect(navigations).toBe(0);
  // The device's copy (IndexedDB storewise-pos-stock), summed over the soap's rows; written as page source
  // (the spec's own types have no DOM).
  const copied = () => page.evaluate(`(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('storewise-pos-stock');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const rows = await new Promise((resolve, reject) => {
      const request = db.transaction('balances').objectStore('balances').getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return rows.filter((row) => row.variantId === ${JSON.stringify(soap)}).reduce((sum, row) => sum + row.qty, 0);
  })()`);
  await expect.poll(copied, { timeout: 30_000 }).toBe(7);

  // A receipt elsewhere (the owner's count) shows too.
  expect((await api.rpc('adjust_stock', { _store_id: shop.store, _variant_id: soap, _qty: 4, _reason: 'found' })).error).toBeNull();
  await see(onHand).toHaveText('11 on hand');
  await expect.poll(copied, { timeout: 30_000 }).toBe(11);
  await api.removeAllChannels();
});

test('the Overview\'s tiles follow a sale, and the manager sees which registers hold unsent sales', async ({ page }) => {
  test.setTimeout(300_000);
  const shop = await posShop();
  const { api, soap } = await ownerApi(shop);
  await signInThroughUi(page, shop.manager.email, shop.manager.password);
  await page.goto('/dashboard');
  // The manager owns a business of their own too (every sign-up gets one): choose the shop's.
  const pick = page.getByTestId('business-overview').getByRole('combobox', { name: 'Business' });
  await slow(pick).toBeVisible();
  await pick.selectOption(shop.business);
  await slow(page.getByTestId('overview-transactions-value')).toHaveText('0');
  await see(page.getByTestId('overview-registers-waiting')).toContainText('Every register has sent its sales.');
  let navigations = 0;
  page.on('framenavigated', () => (navigations += 1));

  await sellSoap(api, shop.register, soap, 2);
  await see(page.getByTestId('overview-transactions-value')).toHaveText('1');
  await see(page.getByTestId('overview-sales-value')).toHaveText('$25.00');

  // The cashier's register reports 3 entries waiting (as the till does when it holds offline sales).
  const cashier = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  expect((await cashier.auth.signInWithPassword({ email: shop.cashier.email, password: shop.cashier.password })).error).toBeNull();
  expect((await cashier.rpc('report_register_outbox', { _register_id: shop.register, _waiting: 3 })).error).toBeNull();
  const waiting = page.getByTestId('overview-register-waiting');
  await see(waiting).toContainText('Till Test: Front');
  await see(waiting.getByTestId('overview-register-waiting-count')).toHaveText('3 waiting');
  // Sent: the register reports 0 and the line goes.
  expect((await cashier.rpc('report_register_outbox', { _register_id: shop.register, _waiting: 0 })).error).toBeNull();
  await see(waiting).toHaveCount(0);
  expect(navigations).toBe(0);
  await api.removeAllChannels();
});
