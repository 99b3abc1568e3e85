import { expect, test } from '@playwright/test';
import { openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';

test('a manager takes cash out with a reason, reads the X report and closes the shift with a counted difference', async ({ page }) => {
  const shop = await posShop();
  await signInThroughUi(page, shop.manager.email, shop.manager.password);
  await openShift(page, '100');

  // One soap for 20.00 cash: 7.50 change, so the drawer holds 112.50.
  await scan(page, '4006381333931');
  await tender(page, 'Cash', '20');
  await expect(page.getByTestId('receipt-change')).toHaveText('$7.50');
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');

  await page.keyboard.press('Alt+KeyS');
  const shift = page.getByRole('group', { name: 'Shift' });
  await shift.getByRole('combobox', { name: 'Cash in or out' }).selectOption('out');
  await shift.getByRole('textbox', { name: 'Cash amount' }).fill('10');
  await shift.getByRole('textbox', { name: 'Cash reason' }).fill('Bank drop');
  await shift.getByRole('button', { name: 'Record cash' }).click();
  await expect(shift.getByText('Cash out $10.00 recorded')).toBeVisible();
  await shift.getByRole('button', { name: 'X report' }).click();
  await expect(page.getByTestId('x-report')).toContainText('Cash expected$102.50');
  await expect(shift.getByRole('table', { name: 'Shift history' })).toBeVisible();

  // Counted: one 100 and two 1s = 102.00, fifty cents short.
  await shift.getByRole('button', { name: 'Close shift…' }).click();
  await shift.getByRole('textbox', { name: 'Count of $100.00' }).fill('1');
  await shift.getByRole('textbox', { name: 'Count of $1.00' }).fill('2');
  await expect(shift.getByTestId('counted-total')).toHaveText('$102.00');
  await shift.getByRole('button', { name: 'Close shift with this count' }).click();
  await expect(page.getByTestId('z-report')).toBeVisible();
  await expect(page.getByTestId('shift-difference')).toHaveText('-$0.50');
  await expect(page.getByRole('button', { name: 'Open shift' })).toBeVisible();
  const [closed] = await shop.shifts();
  expect(closed).toMatchObject({ expected_cash: 10250, counted_total: 10200, difference: -50 });
  expect(closed?.closed_at).toBeTruthy();
});

test('the register fits a 1024 x 768 touch screen and a 375 px phone: nothing sideways, actions and payment reachable', async ({ page }) => {
  test.setTimeout(180_000);
  const shop = await posShop();
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');
  await scan(page, '4006381333931');
  await expect(page.getByTestId('cart-total')).toHaveText('$12.50');
  for (const [width, height] of [[1024, 768], [375, 740]] as const) {
    await page.setViewportSize({ width, height });
    // The register itself never scrolls sideways (the cart table has its own scroll area). A string: no DOM typings here.
    expect(await page.evaluate(`(() => { const el = document.querySelector('[data-testid="pos-till"]');
      return el.scrollWidth - el.clientWidth; })()`)).toBeLessThanOrEqual(0);
    for (const name of [/^Discount/, /^Customer/, /^Park Alt/, /^Parked/, /^Refund/, /^Shift/]) {
      const button = page.getByRole('toolbar', { name: 'Register actions' }).getByRole('button', { name });
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport();
    }
    const amount = page.getByRole('textbox', { name: 'Amount tendered' });
    await amount.scrollIntoViewIfNeeded();
    await expect(amount).toBeInViewport();
  }
  await tender(page, 'Cash');
  await expect(page.getByTestId('receipt-total')).toHaveText('$12.50');
});
