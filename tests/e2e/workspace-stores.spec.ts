import { expect, test, type Page } from '@playwright/test';
import { adminClient, createConfirmedUser, type TestUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/** A fresh owner on the Growth plan with `stores` stores already open, so no demo account is disturbed. */
async function growthOwner(stores: string[]): Promise<{ owner: TestUser; businessId: string }> {
  const owner = await createConfirmedUser('growth');
  const admin = await adminClient();
  const plan = await admin.from('user_plans').insert({ user_id: owner.id, plan_name: 'Growth', price: 29.99,
    status: 'active' });
  if (plan.error) throw new Error(plan.error.message);
  const { data, error } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  const businessId = (data as { id: string }).id;
  for (const name of stores) {
    const store = await admin.from('stores').insert({ business_id: businessId, name });
    if (store.error) throw new Error(store.error.message);
  }
  return { owner, businessId };
}

const storesSection = (page: Page) => page.getByRole('region', { name: 'Stores' });

test.describe('business workspace', () => {
  test('a Growth owner opens a third store, then is told why not a fourth', async ({ page }) => {
    const { owner } = await growthOwner(['North', 'South']);
    await signInThroughUi(page, owner.email, owner.password);
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Business' }).click();
    await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Stores' }).click();
    await expect(storesSection(page)).toContainText('2 of 3 stores on the Growth plan');

    await storesSection(page).getByRole('button', { name: 'Add store' }).click();
    const form = page.getByRole('form', { name: 'Create store' });
    await form.getByRole('textbox', { name: /^Store name/ }).fill('East');
    await form.getByRole('button', { name: 'Create store' }).click();
    await expect(storesSection(page).getByRole('article', { name: 'East' })).toBeVisible();
    await expect(storesSection(page)).toContainText('3 of 3 stores on the Growth plan');

    await storesSection(page).getByRole('button', { name: 'Add store' }).click();
    const alert = storesSection(page).getByRole('alert');
    await expect(alert).toContainText('Store limit reached');
    await expect(alert).toContainText('Your Growth plan allows 3 stores');
    await expect(alert.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/dashboard/billing');
    await expect(page.getByRole('form', { name: 'Create store' })).toHaveCount(0);
  });

  test('the database refuses a fourth store opened from a stale tab, and the page says why', async ({ page }) => {
    const { owner, businessId } = await growthOwner(['North', 'South']);
    await signInThroughUi(page, owner.email, owner.password);
    await page.goto('/dashboard/business/stores');
    await storesSection(page).getByRole('button', { name: 'Add store' }).click();
    // Another tab takes the last slot meanwhile.
    const admin = await adminClient();
    expect((await admin.from('stores').insert({ business_id: businessId, name: 'Other tab' })).error).toBeNull();
    const form = page.getByRole('form', { name: 'Create store' });
    await form.getByRole('textbox', { name: /^Store name/ }).fill('Fourth');
    await form.getByRole('button', { name: 'Create store' }).click();
    const alert = storesSection(page).getByRole('alert');
    await expect(alert).toContainText('Your Growth plan allows 3 stores.');
    await expect(storesSection(page).getByRole('article', { name: 'Fourth' })).toHaveCount(0);
  });

  test('an invited cashier sees only the assigned store and loses access when removed', async ({ page, browser }) => {
    const { owner } = await growthOwner(['North', 'South']);
    await signInThroughUi(page, owner.email, owner.password);
    await page.goto('/dashboard/business/team');
    const invite = page.getByRole('form', { name: 'Invite a member' });
    const cashier = await createConfirmedUser('cashier', 'Casey Cashier');
    await invite.getByRole('textbox', { name: /^Email/ }).fill(cashier.email);
    await invite.getByText('All stores').click();
    await invite.getByText('South').click();
    await invite.getByRole('button', { name: 'Invite' }).click();
    const link = await page.getByTestId('invitation-link').textContent();
    expect(link).toContain('/dashboard/business/invitations/accept?token=');

    const context = await browser.newContext();
    const tab = await context.newPage();
    await signInThroughUi(tab, cashier.email, cashier.password);
    await tab.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);
    await expect(tab.getByRole('heading', { name: /^Join / })).toBeVisible();
    await tab.getByRole('button', { name: 'Accept invitation' }).click();
    // A cashier starts at the register (issue 25); the stores are one click away.
    await expect(tab).toHaveURL(/\/dashboard\/pos$/);
    await tab.goto('/dashboard/business/stores');
    await tab.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: `Test Owner's business (Cashier)` });
    await expect(storesSection(tab).getByRole('article')).toHaveCount(1);
    await expect(storesSection(tab).getByRole('article', { name: 'South' })).toBeVisible();

    await page.reload();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('row', { name: new RegExp(cashier.email) }).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('row', { name: new RegExp(cashier.email) })).toHaveCount(0);

    await tab.reload();
    await expect(tab.getByRole('combobox', { name: 'Workspace' }).getByRole('option', { name: /Test Owner's business/ }))
      .toHaveCount(0);
    await expect(storesSection(tab).getByRole('article', { name: 'South' })).toHaveCount(0);
    await context.close();
  });
});
