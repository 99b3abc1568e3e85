import { expect, test } from '@playwright/test';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * An owner deletes the business from Business settings by typing its name (docs/adr/0220): 30 days pending, a banner
 * on the Overview and in the Business area, and Cancel deletion puts everything back. The database's trail has both.
 */
test('an owner schedules the deletion of the business, sees the banner, and cancels it', async ({ page }) => {
  // Three screens and two Edge Function calls: more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  const owner = await createConfirmedUser('deleting');
  const admin = await adminClient();
  const { data, error } = await admin.from('businesses').select('id, name').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  const business = data as { id: string; name: string };

  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();
  const card = page.getByRole('region', { name: 'Delete business' });
  const submit = card.getByRole('button', { name: 'Delete business' });
  await expect(submit).toBeDisabled();
  await card.getByRole('textbox', { name: /^Type/ }).fill(`${business.name} nope`);
  await expect(submit).toBeDisabled();
  await card.getByRole('textbox', { name: /^Type/ }).fill(business.name);
  await submit.click();

  const banner = page.getByRole('alert', { name: 'Business deletion' });
  await expect(banner).toContainText(`${business.name} will be deleted on`);
  await expect(card).toContainText('The deletion is scheduled');

  // The Overview shows it too, and the owner cancels from there.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }).click();
  const overviewBanner = page.getByRole('alert', { name: 'Business deletion' });
  await expect(overviewBanner).toContainText('will be deleted on');
  await overviewBanner.getByRole('button', { name: 'Cancel deletion' }).click();
  await expect(page.getByRole('alert', { name: 'Business deletion' })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();
  await expect(page.getByRole('region', { name: 'Delete business' }).getByRole('button', { name: 'Delete business' })).toBeDisabled();
  await expect(page.getByRole('alert', { name: 'Business deletion' })).toHaveCount(0);
  const { data: trail } = await admin.from('activity').select('kind').eq('business_id', business.id).like('kind', 'business.deletion%');
  expect((trail ?? []).map((row) => (row as { kind: string }).kind).sort()).toEqual(['business.deletion_canceled', 'business.deletion_requested']);
});
