import { expect, test } from '@playwright/test';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * Issue 26 on the screens (docs/adr/0370): Business > Customers exports the customers as CSV; the same file imported
 * back previews as "nothing changes"; with one phone edited, the preview shows exactly that change, and Import writes it.
 */
test.describe.configure({ timeout: 180_000 });

test('an owner exports the customers CSV, imports it back unchanged, then with one edited row', async ({ page }) => {
  const owner = await createConfirmedUser('customers-csv');
  const admin = await adminClient();
  const { data: business, error } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  const inserted = await admin.from('customers').insert([
    { business_id: business.id, name: 'Nia Roundtrip', email: 'nia@example.com', phone: '+1 555 010 0101' },
    { business_id: business.id, name: 'Omar Roundtrip', email: 'omar@example.com', phone: null },
  ]);
  if (inserted.error) throw new Error(inserted.error.message);

  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();
  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Customers' }).click();
  const panel = page.getByRole('region', { name: 'Import customers' });

  const downloading = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export CSV' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe('customers.csv');
  const csv = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
  expect(csv.split('\r\n')[0]).toBe('name,email,phone');
  expect(csv).toContain(`Nia Roundtrip,nia@example.com,"'+1 555 010 0101"`);

  const upload = (text: string) => panel.getByLabel('Customer CSV file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await upload(csv);
  await panel.getByRole('button', { name: 'Check (2 rows)' }).click();
  await expect(panel.getByRole('status')).toHaveText('Nothing changes: every row matches a customer.');
  await expect(panel.getByRole('button', { name: 'Import' })).toBeDisabled();

  await upload(csv.replace('omar@example.com,', 'omar@example.com,5550100202'));
  await panel.getByRole('button', { name: 'Check (2 rows)' }).click();
  await expect(panel.getByRole('status')).toHaveText('Ready: 0 new customers, 1 to update, 1 unchanged.');
  const lines = panel.getByRole('table', { name: 'Changes' }).getByRole('row');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(1)).toHaveText(/omar@example\.com\s*Phone\s*\(none\)\s*5550100202/);
  await panel.getByRole('button', { name: 'Import' }).click();
  await expect(panel.getByRole('button', { name: 'Check (0 rows)' })).toBeDisabled();
  await expect(page.getByRole('cell', { name: '5550100202' })).toBeVisible();
  await expect.poll(async () => (await admin.from('customers').select('phone').eq('business_id', business.id).eq('email', 'omar@example.com').single()).data?.phone)
    .toBe('5550100202');
  await page.screenshot({ path: 'test-results/customers-csv.png', fullPage: true });
});
