import { expect, test, type Page } from '@playwright/test';
import { adminClient } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * Issue 29 through the screens on the demo data, reading only (nothing is posted, so the demo stays as seeded):
 * the Electronics demo's owner finds a phone by IMEI with its warranty and opens its receipt, and a returned phone
 * with its return; the grocer's count sheet takes a GS1 DataMatrix scan (item and lot, ADR 0341's parser) as one
 * unit on that lot's line, and a lot the store does not hold as a found lot.
 */
const owner4 = { email: 'owner4@storewise.local', password: 'storewise-owner' };
const owner1 = { email: 'owner1@storewise.local', password: 'storewise-owner' };

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Inventory' }).getByRole('link', { name, exact: true });

test('the Electronics demo finds a phone by IMEI with its warranty and receipt, and a returned one with its return', async ({ page }) => {
  await signInThroughUi(page, owner4.email, owner4.password);
  await page.goto('/dashboard/inventory');
  await tab(page, 'Serial lookup').click();
  const field = page.getByRole('textbox', { name: 'Serial number or IMEI' });

  await field.fill('354672110200019');
  await field.press('Enter');
  const unit = page.getByTestId('serial-unit');
  await expect(unit).toContainText('Nova X 128 GB');
  await expect(page.getByTestId('serial-status')).toHaveText('Sold');
  await expect(page.getByTestId('serial-warranty')).toHaveText(/^In warranty until \d{1,2} \w{3} \d{4}$/);
  await expect(page.getByTestId('serial-received')).toContainText('from Pacific Devices');
  await expect(unit.getByText('Customer: Sam Rivera')).toBeVisible();

  await unit.getByRole('link', { name: 'Open receipt' }).click();
  await expect(page).toHaveURL(/\/dashboard\/inventory\/receipts\/[0-9a-f-]{36}$/);
  const receipt = page.getByTestId('sale-receipt');
  await expect(receipt.getByTestId('receipt-number')).toHaveText(/^Receipt VW1-/);
  await expect(receipt.getByTestId('receipt-line-detail')).toHaveText('S/N 354672110200019');
  await expect(receipt.getByTestId('receipt-customer')).toHaveText('Customer: Sam Rivera');
  await expect(receipt).toContainText('USB-C Cable 1 m');

  await page.getByRole('link', { name: 'Back to the serial lookup' }).click();
  await page.getByRole('textbox', { name: 'Serial number or IMEI' }).fill('354672110200027');
  await page.getByRole('textbox', { name: 'Serial number or IMEI' }).press('Enter');
  await expect(page.getByTestId('serial-status')).toHaveText('In stock');
  await expect(page.getByTestId('serial-warranty')).toHaveText('Not sold: no warranty running');
  await expect(page.getByTestId('serial-return')).toContainText('back in stock');

  await page.getByRole('textbox', { name: 'Serial number or IMEI' }).fill('354672110200099');
  await page.getByRole('textbox', { name: 'Serial number or IMEI' }).press('Enter');
  await expect(page.getByTestId('serial-not-found')).toHaveText('No unit with the serial 354672110200099 in this business.');
});

test('a DataMatrix scanned into the count sheet counts one unit on its lot, and an unknown lot becomes a found lot', async ({ page }) => {
  // A lot the grocer's Downtown store holds, and its item's EAN-13 (printed on the pack as GTIN-14 with a leading 0).
  const admin = await adminClient();
  const held = await admin.from('stock_balances').select('variant_id, lot_id')
    .eq('store_id', '5a000000-0000-4000-8000-000000000001').not('lot_id', 'is', null).gt('qty', 0).order('lot_id').limit(1).single();
  if (held.error) throw new Error(held.error.message);
  const { variant_id: variantId, lot_id: lotId } = held.data as { variant_id: string; lot_id: string };
  const [lotRow, variantRow, code] = await Promise.all([
    admin.from('lots').select('lot_number').eq('id', lotId).single(),
    admin.from('variants').select('sku').eq('id', variantId).single(),
    admin.from('barcodes').select('code').eq('variant_id', variantId).eq('kind', 'ean13').limit(1).single(),
  ]);
  if (lotRow.error || variantRow.error || code.error) throw new Error('demo lot not found');
  const gtin14 = `0${(code.data as { code: string }).code}`;
  const row = { lots: lotRow.data as { lot_number: string }, variants: variantRow.data as { sku: string } };
  const lot = row.lots.lot_number;
  const sku = row.variants.sku;

  await signInThroughUi(page, owner1.email, owner1.password);
  await page.goto('/dashboard/inventory');
  await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: 'Fresh Corner Downtown' });
  await tab(page, 'Counts').click();
  const scan = page.getByRole('textbox', { name: 'Scan to count' });
  await scan.fill(`(01)${gtin14}(10)${lot}`);
  await scan.press('Enter');
  await expect(page.getByTestId('count-scan-note')).toContainText(`lot ${lot}: 1 counted`);
  await expect(page.getByRole('textbox', { name: `Counted ${sku} lot ${lot}` })).toHaveValue('1');
  await page.getByRole('textbox', { name: 'Scan to count' }).fill(`(01)${gtin14}(10)${lot}`);
  await page.getByRole('textbox', { name: 'Scan to count' }).press('Enter');
  await expect(page.getByRole('textbox', { name: `Counted ${sku} lot ${lot}` })).toHaveValue('2');

  await page.getByRole('textbox', { name: 'Scan to count' }).fill(`(01)${gtin14}(17)301231(10)E2E-NEW-LOT`);
  await page.getByRole('textbox', { name: 'Scan to count' }).press('Enter');
  await expect(page.getByTestId('count-scan-note')).toContainText('lot E2E-NEW-LOT: 1 counted');
  await expect(page.getByRole('table', { name: 'Count sheet' })).toContainText('lot E2E-NEW-LOT (found, expires 2030-12-31)');
  await expect(page.getByRole('textbox', { name: `Counted ${sku} lot E2E-NEW-LOT` })).toHaveValue('1');
  // Nothing posted: the demo stays as seeded.
  await page.getByRole('button', { name: 'Discard' }).click();
});
