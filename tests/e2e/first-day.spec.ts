import { expect, test } from '@playwright/test';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * A new owner's first day (issue 25): welcomed (not "welcome back"), a setup guide on the Overview that ticks each
 * step off from the database, a sample catalog in one click, and empty screens that say what to do next.
 */
test.describe.configure({ timeout: 120_000 });

test('a new owner is welcomed, follows the setup guide, and every empty screen says what to do next', async ({ page }) => {
  const owner = await createConfirmedUser('first-day', 'Nadia Newshop');
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Storewise, Nadia Newshop!');

  const guide = page.getByTestId('setup-guide');
  await expect(guide).toBeVisible();
  await expect(page.getByTestId('setup-step-products')).toHaveAttribute('data-done', 'false');
  await guide.getByRole('button', { name: 'Start from sample products' }).click();
  await expect(page.getByTestId('setup-step-products')).toHaveAttribute('data-done', 'true');
  await expect(page.getByText(/steps done/)).toContainText('of 6 steps done');

  // The register and inventory without a store or a register say what to do, with the link to do it.
  await page.goto('/dashboard/pos');
  const noRegister = page.getByTestId('pos-no-register');
  await expect(noRegister).toContainText('No register yet');
  await noRegister.getByRole('link', { name: 'Add a register' }).click();
  await expect(page).toHaveURL(/\/dashboard\/business\/stores$/);
  await page.goto('/dashboard/inventory');
  await expect(page.getByTestId('inventory-no-store').getByRole('link', { name: 'Add a store' })).toBeVisible();

  // Hidden, the guide stays hidden.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Hide this guide' }).click();
  await expect(guide).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('setup-guide')).toHaveCount(0);
});

test('catalog prices and labels carry the store currency; one click chooses every item on the page for labels', async ({ page }) => {
  const owner = await createConfirmedUser('labels', 'Lena Labels');
  const admin = await adminClient();
  const { data: business } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
  await admin.from('stores').insert({ business_id: (business as { id: string }).id, name: 'Label Lane', currency: 'USD' });
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard');
  await page.getByTestId('setup-guide').getByRole('button', { name: 'Start from sample products' }).click();
  await expect(page.getByTestId('setup-step-products')).toHaveAttribute('data-done', 'true');

  await page.goto('/dashboard/catalog');
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table.getByRole('row', { name: /Gift card/ })).toContainText('$25.00');
  // Chakra's checkbox input is visually hidden behind its control: checked as a person's click on the control would.
  await page.getByRole('checkbox', { name: 'Labels for every item on this page' }).check({ force: true });
  await page.getByRole('button', { name: 'Labels (8)' }).click();
  await expect(page.getByTestId('label')).toHaveCount(8);
  await expect(page.getByTestId('label').filter({ hasText: 'Gift card' })).toContainText('$25.00');
});
