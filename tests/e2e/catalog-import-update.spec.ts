import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * Issue 25: the catalog's export re-imports as "nothing changes"; the same file with a changed price shows the
 * change (old -> new) in the preview, imports, and the catalog shows the new price. A fresh Growth owner with one
 * USD store and one item, so no demo data is disturbed.
 */
async function shopWithMug() {
  const owner = await createConfirmedUser('import');
  const admin = await adminClient();
  const plan = await admin.from('user_plans').insert({ user_id: owner.id, plan_name: 'Growth', price: 29.99, status: 'active' });
  if (plan.error) throw new Error(plan.error.message);
  const { data, error } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  const businessId = (data as { id: string }).id;
  const store = await admin.from('stores').insert({ business_id: businessId, name: 'Main', currency: 'USD' });
  if (store.error) throw new Error(store.error.message);
  const product = await admin.from('products').insert({ business_id: businessId, name: 'Import Mug' }).select('id').single();
  if (product.error) throw new Error(product.error.message);
  const variant = await admin.from('variants').insert({ business_id: businessId, product_id: (product.data as { id: string }).id,
    sku: 'E2E-MUG', price: 250 });
  if (variant.error) throw new Error(variant.error.message);
  return owner;
}

async function exportCatalog(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  return readFileSync(await (await download).path(), 'utf8');
}

async function checkFile(page: Page, csv: string) {
  const panel = page.getByRole('region', { name: 'Import products' });
  await panel.getByLabel('CSV file').setInputFiles({ name: 'catalog.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await panel.getByRole('button', { name: /^Check \(1 rows\)/ }).click();
  return panel;
}

test('an exported catalog imports as "nothing changes"; with a new price it previews $2.50 -> $2.75, imports, and the catalog shows it', async ({ page }) => {
  test.setTimeout(120_000);
  const owner = await shopWithMug();
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard/catalog');
  await expect(page.getByRole('table', { name: 'Products' }).getByRole('row', { name: /Import Mug/ })).toContainText('$2.50');

  const csv = await exportCatalog(page);
  expect(csv).toContain('E2E-MUG,2.50');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const panel = await checkFile(page, csv);
  await expect(panel.getByText('Nothing changes: every row matches the catalog.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  const panelAgain = await checkFile(page, csv.replace('E2E-MUG,2.50', 'E2E-MUG,2.75'));
  await expect(panelAgain.getByText(/Ready: 0 new items, 1 to update/)).toBeVisible();
  const change = panelAgain.getByRole('table', { name: 'Changes' }).getByRole('row', { name: /E2E-MUG/ });
  await expect(change).toContainText('Price');
  await expect(change).toContainText('$2.50');
  await expect(change).toContainText('$2.75');
  await panelAgain.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Catalog imported')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Products' }).getByRole('row', { name: /Import Mug/ })).toContainText('$2.75');
});
