import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { posShop } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient } from './support/users';

/**
 * Inventory > Lots and recalls (issue 29, ADR 0401) in Chromium, as a manager: the recall form appears only once a
 * lot is ticked; each table shows its column headers once; a recalled lot is released back to sale from its recall
 * with a reason, the report says who released it and why, and the next sale picks it again, earliest expiry first.
 */
test('a manager releases a recalled lot and the next sale takes it again', async ({ page }) => {
  test.setTimeout(150_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  expect((await owner.auth.signInWithPassword({ email: shop.owner.email, password: shop.owner.password })).error).toBeNull();
  const product = (await admin.from('products').insert({ business_id: shop.business, name: 'Saline Drops', has_lots: true,
    requires_expiry: true, tax_rate: 0 }).select('id').single()).data as { id: string };
  const variant = (await admin.from('variants').insert({ business_id: shop.business, product_id: product.id, sku: 'SALINE',
    price: 400 }).select('id').single()).data as { id: string };
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  for (const [lot, days] of [['S-SOON', 10], ['S-LATE', 90]] as const) {
    expect((await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: variant.id, _qty: 4,
      _lot_number: lot, _expires_on: inDays(days) })).error).toBeNull();
  }
  const lots = (await admin.from('lots').select('id, lot_number').eq('variant_id', variant.id)).data ?? [];
  const soon = lots.find((l) => l.lot_number === 'S-SOON')?.id as string;
  expect((await owner.rpc('start_recall', { _business_id: shop.business, _lot_ids: [soon], _reason: 'Supplier notice' })).error).toBeNull();

  await signInThroughUi(page, shop.manager.email, shop.manager.password);
  await page.goto('/dashboard/inventory/lots');
  await page.getByRole('textbox', { name: 'Search lots' }).fill('SALINE');
  await expect(page.getByTestId('lot-row')).toHaveCount(2);
  const table = page.getByRole('table', { name: 'Lots' });
  await expect(table.getByRole('columnheader')).toHaveCount(6);
  await expect(table.getByRole('columnheader', { name: 'Expires' })).toHaveCount(1);
  // No lot ticked: no recall form, no button to quarantine nothing.
  await expect(page.getByTestId('recall-hint')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Quarantine in every store' })).toHaveCount(0);
  const late = page.getByRole('checkbox', { name: 'Recall lot S-LATE of Saline Drops' });
  await late.check({ force: true });
  await expect(page.getByText('Recall 1 lot')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Quarantine in every store' })).toBeEnabled();
  await late.uncheck({ force: true });
  await expect(page.getByRole('button', { name: 'Quarantine in every store' })).toHaveCount(0);

  await page.getByTestId('lot-row').filter({ hasText: 'S-SOON' }).getByRole('link').click();
  const release = page.getByRole('form', { name: 'Release from quarantine' });
  await expect(release.getByRole('button', { name: /Release 0 lots/ })).toBeDisabled();
  await release.getByText('Release lot S-SOON of Saline Drops').click();
  await release.getByRole('button', { name: 'Release 1 lot to sale' }).click();
  await expect(release.getByText(/Say why the lots can be sold again/)).toBeVisible();
  await release.getByRole('textbox', { name: /Why they can be sold again/ }).fill('The supplier withdrew the notice');
  await release.getByRole('button', { name: 'Release 1 lot to sale' }).click();
  await expect(page.getByTestId('recall-release')).toContainText('by Test Manager: The supplier withdrew the notice');
  await expect(page.getByRole('table', { name: 'Recalled lots', exact: true })).toContainText('released');
  await expect(page.getByRole('form', { name: 'Release from quarantine' })).toHaveCount(0);
  expect((await admin.from('lots').select('quarantined_at').eq('id', soon).single()).data).toEqual({ quarantined_at: null });

  // Sellable again, and the earliest to expire: the next sale without a lot takes it.
  const shift = await owner.rpc('open_shift', { _register_id: shop.register, _opening_float: 0 });
  expect(shift.error).toBeNull();
  const sale = await owner.rpc('post_sale', { _payload: { id: randomUUID(), register_id: shop.register,
    shift_id: (shift.data as { id: string }).id, lines: [{ variant_id: variant.id, qty: 1 }], tenders: [{ kind: 'card', amount: 400 }] } });
  expect(sale.error).toBeNull();
  expect((sale.data as { lines: { lots: { lot_number: string }[] }[] }).lines[0]?.lots.map((l) => l.lot_number)).toEqual(['S-SOON']);

  await page.goto('/dashboard/inventory/expiring');
  const expiring = page.getByRole('table', { name: 'Expiring lots' });
  await expect(expiring.getByTestId('expiring-row')).not.toHaveCount(0);
  await page.screenshot({ path: 'test-results/expiring.png', fullPage: true });
  await expect(expiring.getByRole('columnheader')).toHaveCount(5);
});
