import { expect, test } from '@playwright/test';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * Issue 26 on the screens: one customer's request (Business > Customers: export their data as JSON, erase them,
 * receipts keep an anonymous customer), the business's country (it sets the retention period), and the owner's
 * business export with its progress bar and download link (docs/adr/0290).
 */
test.describe.configure({ timeout: 180_000 });

async function ownerWithBusiness(prefix: string) {
  const owner = await createConfirmedUser(prefix);
  const admin = await adminClient();
  const { data, error } = await admin.from('businesses').select('id, name').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  return { owner, admin, business: data as { id: string; name: string } };
}

test('an owner exports one customer’s data and erases the customer on request', async ({ page }) => {
  const { owner, admin, business } = await ownerWithBusiness('customer-request');
  const { data: created, error } = await admin.from('customers')
    .insert({ business_id: business.id, name: 'Rita Request', email: 'rita@example.com', phone: '5550100222' }).select('id').single();
  if (error) throw new Error(error.message);
  const customerId = (created as { id: string }).id;

  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();
  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('search', { name: 'Search customers' }).getByRole('textbox').fill('rita@');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Rita Request' }).click();
  await expect(page.getByRole('heading', { name: 'Rita Request' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export this customer\'s data' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(`customer-${customerId}.json`);
  const exported = JSON.parse(await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'))) as {
    format: string; customer: { name: string; email: string };
  };
  expect(exported).toMatchObject({ format: 'storewise-customer/1', customer: { name: 'Rita Request', email: 'rita@example.com' } });

  await page.getByRole('button', { name: 'Erase this customer' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Erase this customer' });
  await expect(confirm).toContainText('Their sales and refunds stay');
  // Keep first: nothing happens.
  await confirm.getByRole('button', { name: 'Keep' }).click();
  await expect(page.getByRole('heading', { name: 'Rita Request' })).toBeVisible();
  await page.getByRole('button', { name: 'Erase this customer' }).click();
  await page.getByRole('alertdialog', { name: 'Erase this customer' }).getByRole('button', { name: 'Yes, erase' }).click();
  await expect(page.getByRole('heading', { name: 'Anonymous customer' })).toBeVisible();
  await expect(page.getByText('Erased on request')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Erase this customer' })).toHaveCount(0);

  const { data: row } = await admin.from('customers').select('name, email, phone, erased_at').eq('id', customerId).single();
  expect(row).toMatchObject({ name: 'Anonymous customer', email: null, phone: null });
  expect((row as { erased_at: string | null }).erased_at).not.toBeNull();
});

test('an owner sets the country and exports the business with a progress bar and a download link', async ({ page, request }) => {
  const { owner, admin, business } = await ownerWithBusiness('business-export');
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();

  const details = page.getByRole('form', { name: 'Business details' });
  await details.getByRole('combobox', { name: 'Country' }).selectOption('DE');
  await details.getByRole('button', { name: 'Save business' }).click();
  await expect.poll(async () => (await admin.from('businesses').select('country').eq('id', business.id).single()).data?.country).toBe('DE');

  const card = page.getByRole('region', { name: 'Export business data' });
  await card.getByRole('button', { name: 'Export business data' }).click();
  const link = card.getByRole('link', { name: /^Download storewise-export-.*\.zip$/ });
  await expect(link).toBeVisible({ timeout: 120_000 });
  const response = await request.get((await link.getAttribute('href')) ?? '');
  expect(response.status()).toBe(200);
  const bytes = await response.body();
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const { data: trail } = await admin.from('activity').select('kind').eq('business_id', business.id).eq('kind', 'business.exported');
  expect(trail).toHaveLength(1);
});
