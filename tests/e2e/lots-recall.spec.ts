import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { posShop } from './support/pos-shop';
import { adminClient } from './support/users';

/**
 * Inventory > Lots and recalls (issue 29, ADR 0360) in Chromium: a sale without a lot took the earliest-expiring
 * lot; the owner ticks that lot and recalls it; the report shows its quarantined stock and the sale with the
 * customer to call; the lot is marked recalled in the list.
 */
test('the owner recalls a lot and the report names the customer who bought it', async ({ page }) => {
  test.setTimeout(150_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  expect((await owner.auth.signInWithPassword({ email: shop.owner.email, password: shop.owner.password })).error).toBeNull();

  const product = (await admin.from('products').insert({ business_id: shop.business, name: 'Infant Formula', has_lots: true,
    requires_expiry: true, tax_rate: 0 }).select('id').single()).data as { id: string };
  const variant = (await admin.from('variants').insert({ business_id: shop.business, product_id: product.id, sku: 'FORMULA',
    price: 900 }).select('id').single()).data as { id: string };
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  for (const [lot, days] of [['F-SOON', 10], ['F-LATE', 90]] as const) {
    const { error } = await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: variant.id, _qty: 5,
      _lot_number: lot, _expires_on: inDays(days) });
    expect(error).toBeNull();
  }
  const customer = randomUUID();
  expect((await owner.rpc('create_customer', { _id: customer, _business_id: shop.business, _name: 'Rita Parent',
    _phone: '+1 555 010 7777', _email: null })).error).toBeNull();
  const shift = await owner.rpc('open_shift', { _register_id: shop.register, _opening_float: 0 });
  expect(shift.error).toBeNull();
  const sale = await owner.rpc('post_sale', { _payload: { id: randomUUID(), register_id: shop.register,
    shift_id: (shift.data as { id: string }).id, customer_id: customer, lines: [{ variant_id: variant.id, qty: 2 }],
    tenders: [{ kind: 'card', amount: 1800 }] } });
  expect(sale.error).toBeNull();

  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: /^Email/ }).fill(shop.owner.email);
  await form.getByLabel(/^Password/).fill(shop.owner.password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto('/dashboard/inventory/lots');
  await page.getByRole('textbox', { name: 'Search lots' }).fill('FORMULA');
  await expect(page.getByTestId('lot-row')).toHaveCount(2);
  await expect(page.getByTestId('lot-row').first()).toContainText('F-SOON');
  await expect(page.getByTestId('lot-row').first()).toContainText('3');
  // The recall form waits for a ticked lot (no "Recall 0 lots" button).
  await expect(page.getByRole('button', { name: 'Quarantine in every store' })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Recall lot F-SOON of Infant Formula' }).check({ force: true });
  await page.getByRole('button', { name: 'Quarantine in every store' }).click();
  await expect(page.getByText(/Say why the lots are recalled/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Reason' }).fill('Supplier notice: possible contamination');
  await page.getByRole('button', { name: 'Quarantine in every store' }).click();

  const report = page.getByTestId('recall-report');
  await expect(report).toContainText('Supplier notice: possible contamination');
  await expect(page.getByRole('table', { name: 'Recalled lots', exact: true })).toContainText('Till Test: 3');
  await expect(page.getByTestId('recall-sale')).toHaveCount(1);
  await expect(page.getByTestId('recall-sale')).toContainText('Rita Parent');
  await expect(page.getByTestId('recall-sale')).toContainText('+1 555 010 7777');

  await page.getByRole('link', { name: 'Back to lots' }).click();
  await page.getByRole('textbox', { name: 'Search lots' }).fill('FORMULA');
  // Recalled lots are listed last, marked, and can no longer be ticked.
  await expect(page.getByTestId('lot-row').last()).toContainText('recalled');
  await expect(page.getByRole('checkbox', { name: 'Recall lot F-SOON of Infant Formula' })).toHaveCount(0);
  const lots = (await admin.from('lots').select('lot_number, quarantined_at').eq('variant_id', variant.id).order('lot_number')).data ?? [];
  expect(lots.map((l) => [l.lot_number, l.quarantined_at !== null])).toEqual([['F-LATE', false], ['F-SOON', true]]);
});
