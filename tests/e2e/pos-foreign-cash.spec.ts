import { expect, test } from '@playwright/test';
import { openShift, posShop, scan, tender } from './support/pos-shop';
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
  await scan(till, '4006381333931');
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
