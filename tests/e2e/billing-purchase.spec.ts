import { expect, test, type Page } from '@playwright/test';
import Stripe from 'stripe';
import { paymentKeys } from '../../supabase/local/functions/function-env';
import { e2e } from '../helpers/e2e-env';
import { adminClient, createConfirmedUser } from './support/users';
import { payOnCheckout } from './support/checkout';
import { signInThroughUi } from './support/sign-in';

/*
 * Issue 24 as an owner sees it in Chromium: the first purchase from the plan chooser through the local
 * provider's TEST MODE checkout page and back to an active trial; and a card that fails on renewal, after the
 * test clock passes the trial's end, showing the past-due banner. Fresh owners only.
 */
const stripe = new Stripe(paymentKeys(e2e.jwtSecret).secretKey, { host: '127.0.0.1', port: e2e.paymentsPort, protocol: 'http' });

async function buyStarter(page: Page, card: string): Promise<void> {
  await page.goto('/dashboard/billing?choose=plan');
  const dialog = page.getByRole('dialog', { name: 'Choose a plan' });
  await dialog.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Choose Starter' }).click({ timeout: 30_000 });
  const confirmation = dialog.getByRole('group', { name: 'Confirm the plan change' });
  await expect(confirmation).toContainText('Starts your 7-day free trial of Starter');
  await expect(confirmation.getByTestId('amount-due')).toHaveText(
    "Nothing is due today. You add a card on the payment provider's page; $119.88 a year is charged when the trial ends.");
  await confirmation.getByRole('button', { name: 'Confirm Starter' }).click();

  await payOnCheckout(page, card, 'Start trial');
}

test.describe('billing', () => {
  test.beforeEach(() => test.slow());

  test('first purchase: chooser, the provider checkout with a test card, back with the trial active', async ({ page }) => {
    const owner = await createConfirmedUser('buyer');
    await signInThroughUi(page, owner.email, owner.password);
    await buyStarter(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/dashboard\/billing$/, { timeout: 30_000 });
    await expect(page.getByTestId('plan-name')).toHaveText('Starter');
    await expect(page.getByText('Trial started')).toBeVisible();
    await expect(page.getByTestId('payment-methods')).toContainText('•••• 4242');
    await expect(page.getByTestId('billing-history')).toContainText('Trial period for Storewise Starter');
    await expect(page.getByRole('checkbox', { name: 'Auto-renew' })).toBeChecked();
  });

  test('a card that fails on renewal: after the trial the past-due banner asks for another card', async ({ page }) => {
    const owner = await createConfirmedUser('renewal');
    await signInThroughUi(page, owner.email, owner.password);
    await buyStarter(page, '4000 0000 0000 0341');
    await expect(page.getByTestId('plan-name')).toHaveText('Starter', { timeout: 30_000 });

    const admin = await adminClient();
    const { data: business } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
    const { data: customer } = await admin.from('billing_customers').select('provider_customer_id')
      .eq('business_id', (business as { id: string }).id).single();
    const customerId = (customer as { provider_customer_id: string }).provider_customer_id;
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000) });
    await stripe.customers.update(customerId, { test_clock: clock.id } as Stripe.CustomerUpdateParams);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: clock.frozen_time + 8 * 86_400 });

    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('alert', { name: 'Payment failed' })).toContainText('Your last payment failed', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    const banner = page.getByRole('alert', { name: 'Payment failed' });
    await expect(banner).toContainText('to keep the Starter plan');
    await expect(banner).toContainText('Nothing is deleted and your registers keep selling.');
    await expect(page.getByTestId('billing-history')).toContainText('$119.88Failed');
  });
});
