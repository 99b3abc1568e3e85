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

  // Every sale the page sends from here on, and what became of it: CI twice found one "offline" sale on the server
  // after the reload; if it happens again the failure says which request carried it.
  const sent: string[] = [];
  const started = Date.now();
  const isSale = (url: string) => /\/rest\/v1\/rpc\/post_sales?\b/.test(url);
  page.on('request', (r) => { if (isSale(r.url())) sent.push(`${Date.now() - started} ms ${r.method()} ${r.url()}`); });
  page.on('requestfailed', (r) => { if (isSale(r.url())) sent.push(`${Date.now() - started} ms failed: ${r.failure()?.errorText}`); });
  page.on('requestfinished', (r) => { if (isSale(r.url())) sent.push(`${Date.now() - started} ms answered`); });

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
  // The tab is closed while offline and opened again once the network is back but the server is still unreachable.
  // (Going online with the register open makes it send at once; in CI a reload racing that request let it through
  // the route, most likely because Playwright continues a request it cannot match to a frame without its routes.)
  sent.push(`${Date.now() - started} ms tab closed`);
  await page.goto('about:blank');
  await page.context().setOffline(false);
  await page.goto('/dashboard/pos');
  await expect(page.getByTestId('pos-waiting')).toHaveText('3 waiting');
  const afterReload = await shop.sales();
  expect(afterReload.length, `sales on the server after the reload: ${afterReload.map((x) => x.receipt_number).join(', ')};\n${sent.join('\n')}`)
    .toBe(1);

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
