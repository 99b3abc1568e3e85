import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { openShift, posShop, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient } from './support/users';

/**
 * Pharmacy (ADR 0390): a pharmacist (a manager of the shop) sells a prescription-only, controlled item; the register
 * asks for the prescription before the sale can be paid and sends it with the sale; Inventory > Controlled register
 * then shows the sale with its prescription number and the running balance the ledger gives.
 */
test('a pharmacist sells a prescription-only item with its prescription; the controlled register shows the balance', async ({ page }) => {
  test.setTimeout(150_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  expect((await owner.auth.signInWithPassword({ email: shop.owner.email, password: shop.owner.password })).error).toBeNull();
  expect((await owner.rpc('set_business_pack', { _business_id: shop.business, _pack: 'prescriptions', _enabled: true })).error).toBeNull();
  const product = (await admin.from('products').insert({ business_id: shop.business, name: 'Oxycodone 5 mg' }).select('id').single()).data;
  expect((await owner.from('products').update({ prescription_only: true, controlled: true }).eq('id', product?.id ?? '')).error).toBeNull();
  const variant = (await admin.from('variants').insert({ business_id: shop.business, product_id: product?.id ?? '', sku: 'OXY-5',
    price: 2400 }).select('id').single()).data;
  expect((await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: variant?.id ?? '', _qty: 10 })).error).toBeNull();

  await signInThroughUi(page, shop.manager.email, shop.manager.password);
  await openShift(page, '0');
  const search = page.getByRole('textbox', { name: 'Scan or search' });
  await search.fill('Oxycodone');
  await search.press('Enter');
  const form = page.getByRole('form', { name: 'Prescription' });
  await expect(form).toContainText('Prescription for Oxycodone 5 mg');
  await expect(form).toContainText('does not verify prescriptions');
  // Not paid until the prescription is recorded.
  await expect(page.getByRole('group', { name: 'Payment' }).getByRole('button', { name: /^Card/ })).toBeDisabled();
  await form.getByLabel('Prescriber').fill('Dr. Ana Ruiz');
  await form.getByLabel('Prescription number').fill('RX-55120');
  await form.getByLabel('Refills authorised').fill('2');
  await form.getByLabel('Refills remaining').fill('1');
  await form.getByRole('button', { name: 'Record prescription' }).click();
  await expect(form).toBeHidden();
  await tender(page, 'Card');
  await expect(page.getByTestId('receipt-total')).toHaveText('$24.00');
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  const recorded = (await admin.from('sale_line_prescriptions').select('prescriber, prescription_number, refills_authorised, refills_remaining')
    .eq('business_id', shop.business)).data;
  expect(recorded).toEqual([{ prescriber: 'Dr. Ana Ruiz', prescription_number: 'RX-55120', refills_authorised: 2, refills_remaining: 1 }]);

  await page.goto('/dashboard/inventory/controlled');
  await expect(page.getByTestId('controlled-register-note')).toContainText('not a verification');
  await expect(page.getByTestId('controlled-balance')).toHaveText('9');
  const rows = page.getByTestId('controlled-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('sold');
  await expect(rows.nth(0)).toContainText('RX-55120');
  await expect(page.getByTestId('controlled-row-balance')).toHaveText(['9', '10']);
});
