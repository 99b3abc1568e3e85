import { expect, test } from '@playwright/test';
import { approveByPin, openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';

test('a cashier gives a discount above the limit a manager approves, splits card and cash, parks and resumes, refunds part', async ({ page }) => {
  // A long walk through the register on two shared, loaded cores.
  test.setTimeout(180_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '100');

  // Two soaps by scanning, a towel by search: 25.00 + 20.00.
  await scan(page, '4006381333931');
  await scan(page, '4006381333931');
  await page.getByRole('textbox', { name: 'Scan or search' }).fill('towel');
  await page.getByRole('textbox', { name: 'Scan or search' }).press('Enter');
  await expect(page.getByTestId('cart-total')).toHaveText('$45.00');

  // 20 % off the cart, from the keyboard: above a cashier's 10 %, so paying waits for a manager.
  await page.keyboard.press('Alt+KeyD');
  await page.getByRole('combobox', { name: 'Discount on' }).selectOption('cart');
  await page.getByRole('textbox', { name: 'Discount value' }).fill('20');
  await page.getByRole('button', { name: 'Apply discount' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('$36.00');
  await expect(page.getByRole('textbox', { name: 'Amount tendered' })).toBeDisabled();
  await page.getByRole('button', { name: 'Manager approval' }).click();
  // The manager approves with their PIN at the counter (ADR 0300); a wrong one is refused first.
  await approveByPin(page, 'Test Manager', '1357');
  await expect(page.getByRole('form', { name: 'Manager approval' }).getByRole('alert')).toHaveText(/Wrong PIN: 4 tries left/);
  await approveByPin(page, 'Test Manager', shop.pins.manager);
  await expect(page.getByText('Discount approved')).toBeVisible();

  // Split: 20.00 by card, then 20.00 cash for the 16.00 left: 4.00 change.
  await tender(page, 'Card', '20');
  await expect(page.getByTestId('tender-remaining')).toHaveText('$16.00');
  await tender(page, 'Cash', '20');
  await expect(page.getByTestId('receipt-change')).toHaveText('$4.00');
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  const [sale] = await shop.sales();
  expect(sale).toMatchObject({ total: 3600, discount_total: 900, change_total: 400 });
  expect(sale?.approval_id).toBeTruthy();
  expect(await shop.tenders(String(sale?.id))).toEqual([
    { kind: 'card', amount: 2000, tendered: 2000, change: 0 },
    { kind: 'cash', amount: 1600, tendered: 2000, change: 400 },
  ]);

  // Park a cart, reload, resume it.
  await page.getByRole('button', { name: 'New sale' }).click();
  await scan(page, '4006381333931');
  await page.keyboard.press('Alt+KeyP');
  await expect(page.getByText('Scan an item to start a sale.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: /^Parked \(1\)/ }).click();
  await page.getByRole('button', { name: /^Resume Scan Soap/ }).click();
  await expect(page.getByTestId('cart-qty')).toHaveText('1');
  await expect(page.getByRole('button', { name: /^Parked \(0\)/ })).toBeVisible();

  // Refund one of the two soaps of the first sale: its line was 25.00 less its 5.00 share of the discount.
  const stockBefore = await shop.stock();
  await page.keyboard.press('Alt+KeyF');
  await page.getByRole('textbox', { name: 'Receipt number' }).fill(String(sale?.receipt_number));
  await page.getByRole('button', { name: 'Find receipt' }).click();
  await page.getByRole('textbox', { name: 'Refund quantity of Scan Soap' }).fill('1');
  await expect(page.getByTestId('refund-total')).toHaveText('$10.00');
  await expect(page.getByRole('combobox', { name: 'Refund to' })).toHaveValue('card');
  await page.getByRole('button', { name: 'Refund (manager approves)' }).click();
  await approveByPin(page, 'Test Manager', shop.pins.manager);
  await expect(page.getByText('Refund $10.00 to card')).toBeVisible();
  // The refund receipt (ADR 0150): the line back, the total paid out to the card, printed alone through the browser.
  const slip = page.getByTestId('refund-slip');
  await expect(slip).toContainText('Original receipt');
  await expect(slip).toContainText('1 x Scan Soap');
  await expect(slip).toContainText('Paid back by Card$10.00');
  await page.evaluate('window.__printed = []; window.print = () => { window.__printed.push(document.body.className); }');
  await slip.getByRole('button', { name: 'Print refund receipt' }).click();
  expect(await page.evaluate('window.__printed')).toEqual([expect.stringContaining('pos-printing-report')]);
  await expect.poll(async () => (await shop.refunds()).length).toBe(1);
  const [refund] = await shop.refunds();
  expect(refund).toMatchObject({ total: 1000, tender_kind: 'card', review_reasons: [] });
  expect(refund?.approval_id).toBeTruthy();
  expect(await shop.stock()).toBe(stockBefore + 1);
});
