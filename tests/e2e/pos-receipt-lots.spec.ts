import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { openShift, posShop, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient } from './support/users';

/**
 * The receipt names the lots the server picked (issue 29, ADR 0403) in Chromium: a sale of 3 of a lot-tracked item
 * with no lot named is split earliest expiry first (2 of the soon lot, 1 of the later one); once it has posted, the
 * register's receipt lists both lots with their expiry, and so does the receipt page (a reprint).
 */
test('the receipt lists the lots the server picked, on screen and on the reprint', async ({ page }) => {
  test.setTimeout(150_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  expect((await owner.auth.signInWithPassword({ email: shop.owner.email, password: shop.owner.password })).error).toBeNull();
  const product = (await admin.from('products').insert({ business_id: shop.business, name: 'Lot Yogurt', has_lots: true,
    requires_expiry: true, tax_rate: 0 }).select('id').single()).data as { id: string };
  const variant = (await admin.from('variants').insert({ business_id: shop.business, product_id: product.id, sku: 'YOGURT',
    price: 300 }).select('id').single()).data as { id: string };
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  for (const [lot, qty, days] of [['Y-SOON', 2, 10], ['Y-LATE', 5, 60]] as const) {
    expect((await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: variant.id, _qty: qty,
      _lot_number: lot, _expires_on: inDays(days) })).error).toBeNull();
  }
  const expected = [`Lot Y-SOON exp. ${inDays(10)} x 2`, `Lot Y-LATE exp. ${inDays(60)} x 1`];

  await signInThroughUi(page, shop.owner.email, shop.owner.password);
  await openShift(page, '0');
  for (let i = 0; i < 3; i += 1) {
    await page.getByRole('textbox', { name: 'Scan or search' }).fill('Lot Yogurt');
    await page.getByRole('option', { name: /Lot Yogurt/ }).click();
  }
  await expect(page.getByTestId('cart-total')).toHaveText('$9.00');
  await tender(page, 'Card');
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByTestId('receipt-line-lot')).toHaveText(expected);

  const sale = (await admin.from('sales').select('id').eq('register_id', shop.register).single()).data as { id: string };
  await page.goto(`/dashboard/inventory/receipts/${sale.id}`);
  await expect(page.getByTestId('sale-receipt').getByTestId('receipt-line-lot')).toHaveText(expected);
});
