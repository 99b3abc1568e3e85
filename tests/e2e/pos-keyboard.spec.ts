import { expect, test } from '@playwright/test';
import { openShift, posShop } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';

/**
 * A whole sale with the keyboard only (issue 25): find an item by name, Enter adds it, Alt+T goes to the amount
 * (Chakra's notifications no longer take Alt+T), the cash tender with Alt+1, the next sale with Alt+K.
 */
test('a cashier rings up and takes cash for a sale without touching the mouse', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');

  await page.keyboard.press('Alt+KeyK');
  await expect(page.getByRole('textbox', { name: 'Scan or search' })).toBeFocused();
  await page.keyboard.type('Bath Towel');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart-total')).toHaveText('$20.00');
  await expect(page.getByText(/No item with the code/)).toHaveCount(0);

  await page.keyboard.press('Alt+KeyT');
  await expect(page.getByRole('textbox', { name: 'Amount tendered' })).toBeFocused();
  await page.keyboard.type('50');
  await page.keyboard.press('Alt+Digit1');
  await expect(page.getByTestId('change-due').or(page.getByTestId('receipt-change')).first()).toContainText('$30.00');
  await expect(page.getByTestId('receipt')).toBeVisible();
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  expect((await shop.sales())[0]).toMatchObject({ total: 2000, tendered_total: 5000, change_total: 3000 });
});
