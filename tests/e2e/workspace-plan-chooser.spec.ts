import { expect, test, type Page } from '@playwright/test';
import { adminClient, createConfirmedUser, type TestUser } from './support/users';
import { payOnCheckout } from './support/checkout';
import { signInThroughUi } from './support/sign-in';

/*
 * Issue 11: Billing's plan chooser inside the dashboard. A Free owner is invited from the Overview, reads what
 * changes, confirms and sees the new limits; a downgrade deletes nothing and the next store is refused with
 * what to do. Fresh owners only, so no demo account changes plan. Since issue 24 a new plan is paid on the
 * provider's (local TEST MODE) checkout page.
 */

/** A fresh owner on Growth (active) with these stores open. */
async function growthOwner(stores: string[]): Promise<TestUser> {
  const owner = await createConfirmedUser('chooser');
  const admin = await adminClient();
  const plan = await admin.from('user_plans').insert({ user_id: owner.id, plan_name: 'Growth', price: 29.99,
    status: 'active', next_billing_date: new Date(Date.now() + 20 * 86_400_000).toISOString() });
  if (plan.error) throw new Error(plan.error.message);
  const { data, error } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  for (const name of stores) {
    const store = await admin.from('stores').insert({ business_id: (data as { id: string }).id, name });
    if (store.error) throw new Error(store.error.message);
  }
  return owner;
}

const chooser = (page: Page) => page.getByRole('dialog', { name: 'Choose a plan' });
const storesSection = (page: Page) => page.getByRole('region', { name: 'Stores' });

async function openStoresInApp(page: Page): Promise<void> {
  // In-app navigation, no reload: the limits must follow the plan change without one.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();
  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Stores' }).click();
}

test.describe('plan chooser', () => {
  // Each test signs in, walks three screens and waits on the database several times: on a machine shared by
  // many runs that passes Playwright's default 60 s, so these get the slow-test allowance.
  test.beforeEach(() => test.slow());
  test('a Free owner chooses Growth through the dashboard chooser and sees the new limits', async ({ page }) => {
    const owner = await createConfirmedUser('free');
    await signInThroughUi(page, owner.email, owner.password);
    await page.goto('/dashboard');
    const invitation = page.getByRole('note', { name: 'Choose a plan' });
    // The first dashboard paint loads every chunk; on a machine shared by many runs that outlasts 10 s.
    await expect(invitation).toContainText('You are on the Free plan', { timeout: 30_000 });
    await invitation.getByRole('link', { name: 'Choose a plan' }).click();

    await expect(page).toHaveURL(/\/dashboard\/billing\?choose=plan$/);
    const dialog = chooser(page);
    await expect(dialog).toContainText('Storewise never sees or stores them');
    await dialog.getByRole('article', { name: 'Growth' }).getByRole('button', { name: 'Choose Growth' }).click();

    const confirmation = dialog.getByRole('group', { name: 'Confirm the plan change' });
    await expect(confirmation).toContainText('Change from Free to Growth');
    const limits = confirmation.getByRole('table', { name: 'Limits before and after' });
    await expect(limits.getByRole('row', { name: /Stores/ })).toContainText('1 store3 stores');
    await expect(limits.getByRole('row', { name: /Items/ })).toContainText('25 items300 items');
    await expect(confirmation).toContainText('$0.00 per month now, $29.99 per month on Growth, billed annually.');
    await expect(confirmation).toContainText('Starts your 7-day free trial of Growth');
    await confirmation.getByRole('button', { name: 'Confirm Growth' }).click();
    // Issue 24: a new subscription is paid on the provider's page (the local TEST MODE stand-in here).
    await payOnCheckout(page, '4242 4242 4242 4242', 'Start trial');

    await expect(page.getByTestId('plan-name')).toHaveText('Growth', { timeout: 30_000 });
    await expect(page.getByTestId('payment-note')).toContainText('Storewise never sees or stores them');
    await openStoresInApp(page);
    await expect(storesSection(page)).toContainText('0 of 3 stores on the Growth plan');
  });

  test('a downgrade over the limit deletes nothing and the next store is refused with what to do', async ({ page }) => {
    const owner = await growthOwner(['North', 'South']);
    await signInThroughUi(page, owner.email, owner.password);
    await page.goto('/dashboard/billing');
    await page.getByRole('button', { name: 'Upgrade Plan' }).click();
    const dialog = chooser(page);
    await expect(dialog.getByRole('article', { name: 'Growth' })).toContainText('Current plan');
    await dialog.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Choose Starter' }).click();

    const warning = dialog.getByRole('alert', { name: 'Over the new limits' });
    await expect(warning).toContainText("has 2 open stores; Starter allows 1. Nothing is deleted and every store keeps selling");
    await expect(warning).toContainText('until you archive 1 store.');
    await dialog.getByRole('button', { name: 'Confirm Starter' }).click();
    // A plan chosen before billing has no provider subscription: Starter is bought on the provider's page.
    await payOnCheckout(page, '4242 4242 4242 4242', 'Subscribe');
    await expect(page.getByTestId('plan-name')).toHaveText('Starter', { timeout: 30_000 });

    await openStoresInApp(page);
    await expect(storesSection(page).getByRole('article', { name: 'North' })).toBeVisible();
    await expect(storesSection(page).getByRole('article', { name: 'South' })).toBeVisible();
    await storesSection(page).getByRole('button', { name: 'Add store' }).click();
    const alert = storesSection(page).getByRole('alert');
    await expect(alert).toContainText('Store limit reached');
    await expect(alert).toContainText('Your Starter plan allows 1 store and you have 2: archive 1 or upgrade to add one.');
    await expect(page.getByRole('form', { name: 'Create store' })).toHaveCount(0);
  });
});
