import { expect, test } from '@playwright/test';
import { openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';

// page.route does not see every request of a page the service worker controls: Playwright lets some through
// unrouted (a paused request without a network id, or one it already saw), and CI once found an "offline" sale on
// the server. This spec fakes the server's failures with routes and never reloads offline, so it runs without the
// worker, as Playwright advises; pos-pwa-offline.spec.ts tests the worker.
test.use({ serviceWorkers: 'block' });

test('a cashier sells by scanning, pays cash with change, and offline sales sync exactly once after a reload', async ({ page }) => {
  test.setTimeout(180_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '100');

  await scan(page, '4006381333931');
  await scan(page, '4006381333931');
  await expect(page.getByTestId('cart-qty')).toHaveText('2');
  await expect(page.getByTestId('cart-total')).toHaveText('$25.00');
  await page.getByRole('textbox', { name: 'Amount tendered' }).fill('30');
  await expect(page.getByTestId('change-due')).toHaveText('$5.00');
  await tender(page, 'Cash', '30');
  await expect(page.getByTestId('receipt-change')).toHaveText('$5.00');
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  const stockAfterOne = await shop.stock();

  // The server becomes unreachable: three sales wait in the outbox, and survive a reload.
  await page.route('**/rest/v1/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
  await expect(page.getByTestId('pos-status')).toHaveText('Offline');
  for (let i = 0; i < 3; i += 1) {
    await page.getByRole('button', { name: 'New sale' }).click();
    await scan(page, '4006381333931');
    await tender(page, 'Card');
    await expect(page.getByTestId('receipt-total')).toHaveText('$12.50');
  }
  await expect(page.getByTestId('pos-waiting')).toHaveText('3 waiting');
  await page.context().setOffline(false);
  await page.reload();
  await expect(page.getByTestId('pos-waiting')).toHaveText('3 waiting');
  expect((await shop.sales()).length).toBe(1);

  await page.unroute('**/rest/v1/**');
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  const all = await shop.sales();
  expect(all).toHaveLength(4);
  expect(new Set(all.map((s) => s.receipt_number)).size).toBe(4);
  // Another pass of the outbox posts nothing twice; the stock moved once per sale.
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect.poll(async () => (await shop.sales()).length).toBe(4);
  expect(await shop.stock()).toBe(stockAfterOne - 3);
});
