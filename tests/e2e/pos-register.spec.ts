import { expect, test, type Page } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/** A fresh owner with one store (no tax), one register and one item with a barcode, so no demo data is disturbed. */
async function shop() {
  const owner = await createConfirmedUser('pos');
  const admin = await adminClient();
  const one = async (query: PromiseLike<{ data: unknown; error: { message: string } | null }>) => {
    const { data, error } = await query;
    if (error) throw new Error(error.message);
    return (data as { id: string }).id;
  };
  const business = await one(admin.from('businesses').select('id').eq('owner_id', owner.id).single());
  const store = await one(admin.from('stores').insert({ business_id: business, name: 'Till Test', default_tax_rate: 0 }).select('id').single());
  const register = await one(admin.from('registers').insert({ business_id: business, store_id: store, name: 'Front',
    receipt_prefix: 'E2E' }).select('id').single());
  const product = await one(admin.from('products').insert({ business_id: business, name: 'Scan Soap' }).select('id').single());
  const variant = await one(admin.from('variants').insert({ business_id: business, product_id: product, sku: 'SOAP', price: 1250 })
    .select('id').single());
  // The barcode's check-digit rule runs a private function the API roles may call: insert it as the owner.
  const asOwner = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const signedIn = await asOwner.auth.signInWithPassword({ email: owner.email, password: owner.password });
  if (signedIn.error) throw new Error(signedIn.error.message);
  await one(asOwner.from('barcodes').insert({ business_id: business, variant_id: variant, code: '4006381333931', kind: 'ean13' })
    .select('id').single());
  const sales = async () => {
    const { data } = await admin.from('sales').select('id, total, receipt_number').eq('register_id', register);
    return data ?? [];
  };
  return { owner, sales };
}

/**
 * Types like a keyboard-wedge scanner: the digits and Enter as key events within a few milliseconds, with no field
 * focused. Dispatched in the page in one go (a real scanner is hardware; on two loaded CPU cores Playwright's own
 * typing can space keys further apart than any scanner would).
 */
async function scan(page: Page, code: string) {
  await page.getByRole('heading', { name: 'Register' }).click();
  // A string so this file needs no DOM typings (the e2e project compiles for Node).
  await page.evaluate(`for (const key of [...${JSON.stringify(code)}, 'Enter'])
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));`);
}

test('a cashier sells by scanning, pays cash with change, and offline sales sync exactly once after a reload', async ({ page }) => {
  const { owner, sales } = await shop();
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard/pos');
  await page.getByRole('combobox', { name: 'Register' }).selectOption({ label: 'Till Test: Front' });
  await page.getByRole('textbox', { name: 'Starting float' }).fill('100');
  await page.getByRole('button', { name: 'Open shift' }).click();
  await expect(page.getByRole('textbox', { name: 'Scan or search' })).toBeVisible();

  await scan(page, '4006381333931');
  await scan(page, '4006381333931');
  await expect(page.getByTestId('cart-qty')).toHaveText('2');
  await expect(page.getByTestId('cart-total')).toHaveText('$25.00');
  await page.getByRole('textbox', { name: 'Cash given' }).fill('30');
  await page.getByRole('button', { name: 'Pay cash' }).click();
  await expect(page.getByTestId('receipt-change')).toHaveText('$5.00');
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  await expect.poll(async () => (await sales()).length).toBe(1);

  // The server becomes unreachable: three sales wait in the outbox, and survive a reload.
  await page.route('**/rest/v1/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
  await expect(page.getByTestId('pos-status')).toHaveText('Offline');
  for (let i = 0; i < 3; i += 1) {
    await page.getByRole('button', { name: 'New sale' }).click();
    await scan(page, '4006381333931');
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await expect(page.getByTestId('receipt-total')).toHaveText('$12.50');
  }
  await expect(page.getByTestId('pos-waiting')).toHaveText('3 waiting');
  await page.context().setOffline(false);
  await page.reload();
  await expect(page.getByTestId('pos-waiting')).toHaveText('3 waiting');
  expect((await sales()).length).toBe(1);

  await page.unroute('**/rest/v1/**');
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  const all = await sales();
  expect(all).toHaveLength(4);
  expect(new Set(all.map((s) => s.receipt_number)).size).toBe(4);
});
