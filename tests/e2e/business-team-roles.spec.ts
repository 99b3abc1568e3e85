import { expect, test, type Page } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { signInThroughUi } from './support/sign-in';
import { adminClient, createConfirmedUser, type TestUser } from './support/users';

/*
 * Issue 25: a cashier opening Business > Team (a typed or old link) is told what their role sees instead of a
 * 403 and "Retry"; at 390 px Business > Team and Business > Activity do not scroll the page sideways.
 */

async function signedIn(user: TestUser) {
  const client = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw new Error(error.message);
  return client;
}

/** An owner on a paid plan with a cashier who joined through an invitation. */
async function shopWithCashier(): Promise<{ owner: TestUser; cashier: TestUser }> {
  const owner = await createConfirmedUser('team-owner', 'Tess Owner');
  const cashier = await createConfirmedUser('team-cashier', 'Cal Cashier');
  const plan = await (await adminClient()).from('user_plans').insert({ user_id: owner.id, plan_name: 'Growth', price: 29.99, status: 'active' });
  if (plan.error) throw new Error(plan.error.message);
  const ownerClient = await signedIn(owner);
  const { data: business } = await ownerClient.from('businesses').select('id').single();
  const invited = await ownerClient.rpc('create_invitation', {
    _business_id: (business as { id: string }).id, _email: cashier.email, _role: 'cashier', _all_stores: true, _store_ids: [],
  });
  if (invited.error) throw new Error(invited.error.message);
  const token = (invited.data as { token: string }[])[0]?.token ?? '';
  const accepted = await (await signedIn(cashier)).rpc('accept_invitation', { _token: token });
  if (accepted.error) throw new Error(accepted.error.message);
  return { owner, cashier };
}

const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

test('a cashier sees the Business tabs of their role and a sentence, not a 403, on Team and Activity', async ({ page }) => {
  test.setTimeout(120_000);
  const { cashier } = await shopWithCashier();
  await signInThroughUi(page, cashier.email, cashier.password);
  await page.goto('/dashboard/business');
  await page.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: "Tess Owner's business (Cashier)" });
  const tabs = page.getByRole('navigation', { name: 'Business' });
  await expect(tabs.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Team' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Business details' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  for (const [path, sentence] of [['team', 'The team is for the owner and managers'], ['activity', 'The activity trail is for the owner and managers']] as const) {
    await page.goto(`/dashboard/business/${path}`);
    await expect(page.getByRole('status').filter({ hasText: sentence })).toContainText('as a cashier you do not see it');
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await expect(page.getByText(/permission denied/i)).toHaveCount(0);
  }
});

test('a cashier working in the shop sees its plan on the Overview and Billing, with no upgrade action', async ({ page }) => {
  test.setTimeout(120_000);
  const { cashier } = await shopWithCashier();
  await signInThroughUi(page, cashier.email, cashier.password);
  await page.goto('/dashboard/business');
  await page.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: "Tess Owner's business (Cashier)" });
  await page.goto('/dashboard');
  const planCard = page.getByRole('region', { name: 'Current Plan' });
  await expect(planCard).toContainText('Growth');
  await expect(planCard).toContainText("The plan of Tess Owner's business; its owner manages it.");
  await expect(page.getByRole('link', { name: 'Manage Billing' })).toHaveCount(0);
  await page.goto('/dashboard/billing');
  await expect(page.getByRole('region', { name: "Your shop's plan" })).toContainText('Growth');
  await expect(page.getByRole('button', { name: 'Upgrade Plan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Choose a plan/ })).toHaveCount(0);
});

test('at 390 px Business > Team and Business > Activity do not scroll sideways', async ({ page }) => {
  test.setTimeout(120_000);
  const { owner } = await shopWithCashier();
  await signInThroughUi(page, owner.email, owner.password);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/business/team');
  await expect(page.getByRole('table', { name: 'Team members' })).toContainText('Cal Cashier');
  await expect.poll(() => sidewaysOverflow(page), { message: 'Team scrolls sideways' }).toBeLessThanOrEqual(0);
  await page.goto('/dashboard/business/activity');
  await expect(page.getByRole('heading', { name: 'Business', level: 1 })).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await expect.poll(() => sidewaysOverflow(page), { message: 'Activity scrolls sideways' }).toBeLessThanOrEqual(0);
});
