import { expect, test } from '@playwright/test';
import { openShift, posShop, scanFirst, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient } from './support/users';

test('a manager sets a EUR rate; a cashier takes euros, gives change in dollars; the Z report counts the drawer per currency', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const shop = await posShop();
  const admin = await adminClient();

  // The manager sets the rate on Business settings.
  await signInThroughUi(page, shop.manager.email, shop.manager.password);
  await page.goto('/dashboard/business');
  await page.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: "Test Owner's business (Manager)" });
  const form = page.getByRole('form', { name: 'New exchange rate' });
  await form.getByRole('textbox', { name: 'Currency', exact: true }).fill('eur');
  await form.getByRole('textbox', { name: /^Rate/ }).fill('1.0825');
  await form.getByRole('button', { name: 'Set rate' }).click();
  await expect(page.getByTestId('exchange-rate-row')).toHaveCount(1);
  await expect(page.getByTestId('exchange-rate-row')).toContainText('1 EUR = 1.0825 USD');
  await expect(page.getByTestId('exchange-rate-row')).toContainText('In effect');
  // A rate of more than 10 decimals never reaches the database.
  await form.getByRole('textbox', { name: 'Currency', exact: true }).fill('GBP');
  await form.getByRole('textbox', { name: /^Rate/ }).fill('1.00000000001');
  await form.getByRole('button', { name: 'Set rate' }).click();
  await expect(form.getByText('Enter a rate above 0 such as 1.0825 (at most 10 decimals)')).toBeVisible();
  await expect(page.getByTestId('exchange-rate-row')).toHaveCount(1);

  // The cashier, on another browser, sells a soap (12.50) for a 20 euro note.
  const till = await (await browser.newContext()).newPage();
  await signInThroughUi(till, shop.cashier.email, shop.cashier.password);
  await openShift(till, '100');
  await scanFirst(till, '4006381333931');
  const payment = till.getByRole('group', { name: 'Payment' });
  await payment.getByRole('combobox', { name: 'Cash currency' }).selectOption('EUR');
  // 12.50 / 1.0825 = 11.547: the customer is asked 11.55 euros.
  await expect(payment.getByTestId('tender-foreign-due')).toHaveText('€11.55');
  await payment.getByRole('textbox', { name: 'Amount tendered' }).fill('20');
  // 20 euros are worth 21.65 dollars: 9.15 dollars change.
  await expect(payment.getByTestId('change-due')).toHaveText('$9.15');
  await tender(till, 'Cash', '20');
  await expect(till.getByTestId('receipt-change')).toHaveText('$9.15');
  await expect(till.getByTestId('receipt-foreign')).toHaveText('€20.00 at 1.0825 USD per EUR');
  await expect(till.getByTestId('pos-waiting')).toHaveText('0 waiting');

  const [sale] = await shop.sales();
  const tenders = (await admin.from('sale_tenders').select('kind, amount, tendered, change, currency, rate, foreign_tendered, rate_id')
    .eq('sale_id', sale?.id ?? '')).data ?? [];
  expect(tenders).toEqual([{ kind: 'cash', amount: 1250, tendered: 2165, change: 915, currency: 'EUR', rate: 1.0825,
    foreign_tendered: 2000, rate_id: expect.any(String) }]);

  // The close: 90 dollars and 20 euros counted; 100 - 9.15 = 90.85 dollars expected.
  await till.keyboard.press('Alt+KeyS');
  const shift = till.getByRole('group', { name: 'Shift' });
  await shift.getByRole('button', { name: 'Close shift…' }).click();
  await expect(shift.getByTestId('foreign-expected-EUR')).toHaveText('expected €20.00');
  await shift.getByRole('textbox', { name: 'Count of $50.00' }).fill('1');
  await shift.getByRole('textbox', { name: 'Count of $20.00' }).fill('2');
  await shift.getByRole('textbox', { name: 'Counted EUR' }).fill('20');
  await expect(shift.getByTestId('foreign-expected-EUR')).toHaveText('expected €20.00 · difference €0.00');
  await shift.getByRole('button', { name: 'Close shift with this count' }).click();
  const z = till.getByTestId('z-report');
  await expect(z).toBeVisible();
  await expect(till.getByTestId('shift-difference')).toHaveText('-$0.85');
  await expect(z.getByTestId('shift-EUR-expected')).toHaveText('1 · €20.00');
  await expect(z.getByTestId('shift-EUR-counted')).toHaveText('€20.00');
  await expect(z.getByTestId('shift-EUR-difference')).toHaveText('€0.00');
  const [closed] = await shop.shifts();
  expect(closed).toMatchObject({ expected_cash: 9085, counted_total: 9000, difference: -85 });
});

test.describe('offline', () => {
  // The server's failures are faked with page.route, which does not see every request of a page the service worker
  // controls (pos-register.spec.ts): this test runs without the worker and never reloads offline.
  test.use({ serviceWorkers: 'block' });

  test('offline, a cashier takes euros at the cached rate; the sale posts once with its rate, and the X report expects the euros', async ({ page }) => {
    test.setTimeout(150_000);
    const shop = await posShop();
    const admin = await adminClient();
    // The store rounds cash to 0.05, so the change for foreign cash is rounded down to it too.
    const { error } = await admin.from('stores').update({ cash_rounding_step: 5 }).eq('id', shop.store);
    expect(error).toBeNull();
    const rateId = await shop.setExchangeRate('EUR', '1.0837');

    // The register loads online and keeps the rate on the device (the payment panel offers euros once a soap is in
    // the cart); then the server becomes unreachable.
    await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
    await openShift(page, '100');
    await scanFirst(page, '4006381333931');
    const payment = page.getByRole('group', { name: 'Payment' });
    await expect(payment.getByRole('combobox', { name: 'Cash currency' })).toBeVisible();
    await page.route('**/rest/v1/**', (route) => route.abort('internetdisconnected'));
    await page.context().setOffline(true);
    await expect(page.getByTestId('pos-status')).toHaveText('Offline');

    // The soap (12.50) for a 20 euro note: 12.50 / 1.0837 = 11.535, so 11.54 euros are asked; 20 euros are worth
    // 21.674 -> 21.67 dollars, and the 9.17 over is given as 9.15 (rounded down to the store's 0.05).
    await payment.getByRole('combobox', { name: 'Cash currency' }).selectOption('EUR');
    await expect(payment.getByTestId('tender-foreign-due')).toHaveText('€11.54');
    await payment.getByRole('textbox', { name: 'Amount tendered' }).fill('20');
    await expect(payment.getByTestId('change-due')).toHaveText('$9.15');
    await tender(page, 'Cash', '20');
    await expect(page.getByTestId('receipt-total')).toHaveText('$12.50');
    await expect(page.getByTestId('receipt-foreign')).toHaveText('€20.00 at 1.0837 USD per EUR');
    await expect(page.getByTestId('receipt-change')).toHaveText('$9.15');
    await expect(page.getByTestId('pos-waiting')).toHaveText('1 waiting');
    expect(await shop.sales()).toEqual([]);

    // Back online: the outbox posts the sale once, with the currency, the rate it named and the euros handed over.
    await page.context().setOffline(false);
    await page.unroute('**/rest/v1/**');
    await page.evaluate(`window.dispatchEvent(new Event('online'))`);
    await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
    const [sale, ...others] = await shop.sales();
    expect(others).toEqual([]);
    expect(sale).toMatchObject({ total: 1250, tendered_total: 2165, change_total: 915 });
    // The rate and the conversion passed the server's checks (no foreign_cash_mismatch); the test shop holds no soap
    // in stock, so the only flag an offline sale of one gets is its negative stock.
    expect(((sale?.review_reasons ?? []) as string[]).map((r) => r.split(':')[0])).toEqual(['negative_stock']);
    const tenders = (await admin.from('sale_tenders').select('kind, amount, tendered, change, currency, rate, rate_id, foreign_tendered')
      .eq('sale_id', sale?.id ?? '')).data;
    expect(tenders).toEqual([{ kind: 'cash', amount: 1250, tendered: 2165, change: 915, currency: 'EUR', rate: 1.0837,
      rate_id: rateId, foreign_tendered: 2000 }]);
    const { data: posted } = await admin.from('sales').select('offline').eq('id', sale?.id ?? '').single();
    expect(posted).toEqual({ offline: true });
    // Another pass of the outbox posts nothing twice.
    await page.evaluate(`window.dispatchEvent(new Event('online'))`);
    await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
    expect(await shop.sales()).toHaveLength(1);

    // The X report: the 20 euros are expected in the drawer, and the dollars less the change given for them.
    await page.keyboard.press('Alt+KeyS');
    const shift = page.getByRole('group', { name: 'Shift' });
    await shift.getByRole('button', { name: 'X report' }).click();
    const x = page.getByTestId('x-report');
    await expect(x.getByTestId('shift-EUR-expected')).toHaveText('1 · €20.00');
    await expect(x.getByText('Cash expected', { exact: true }).locator('..')).toContainText('$90.85');
  });
});
