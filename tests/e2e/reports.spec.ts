import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { demo } from './support/users';
import { signInThroughUi } from './support/sign-in';

/** Reports and the admin Billing Overview (issue 14), on the seed's demo sales and plans. */

test('an owner filters the sales report to one store and a range, exports CSV, and the CSV totals equal the screen', async ({ page }) => {
  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard/reports');
  await expect(page.getByRole('heading', { name: 'Sales report' })).toBeVisible();
  const store = page.getByTestId('reports-store');
  const firstStore = await store.locator('option').nth(1).getAttribute('value');
  await store.selectOption(firstStore ?? '');
  const today = new Date();
  const from = new Date(today.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('reports-from').fill(from);
  await expect(page.getByTestId('reports-row').first()).toBeVisible();
  const screenGross = (await page.getByTestId('reports-total-gross').textContent())?.trim() ?? '';
  expect(Number(screenGross)).toBeGreaterThan(0);

  const download = page.waitForEvent('download');
  await page.getByTestId('reports-export').click();
  const csv = readFileSync((await (await download).path())!, 'utf8').trim().split('\r\n');
  const header = csv[0]!.split(',');
  const grossColumn = header.indexOf('Gross');
  const storeColumn = header.indexOf('Store');
  const rows = csv.slice(1).map((line) => line.split(','));
  expect(rows.length).toBe(await page.getByTestId('reports-row').count());
  expect(new Set(rows.map((r) => r[storeColumn])).size).toBe(1);
  const csvGross = rows.reduce((sum, r) => sum + Math.round(Number(r[grossColumn]) * 100), 0);
  expect(csvGross).toBe(Math.round(Number(screenGross) * 100));
});

test('the admin Billing Overview shows MRR and the trial ending this week', async ({ page }) => {
  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  await page.goto('/admin/billing');
  await expect(page.getByRole('heading', { name: 'Billing Overview' })).toBeVisible();
  await expect(page.getByTestId('stat-mrr-value')).toHaveText(/^\$[\d,]+\.\d{2}$/);
  await expect(page.getByTestId('billing-plan-row').first()).toBeVisible();
  await expect(page.getByTestId('billing-trial-row').first()).toBeVisible();
});
