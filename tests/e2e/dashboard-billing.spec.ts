import { expect, test } from '@playwright/test';
import { createConfirmedUser, demo } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { BillingScreen } from './pages/dashboard-billing';
import { choosePlan } from './pages/dashboard-data';
import { signInThroughUi } from './support/sign-in';

// page.route does not see every request of a page the service worker controls: Playwright lets some through
// unrouted (a paused request without a network id, or one it already saw), and CI once found an "offline" sale on
// the server. This spec fakes the server's failures with routes and never reloads offline, so it runs without the
// worker, as Playwright advises; pos-pwa-offline.spec.ts tests the worker.
test.use({ serviceWorkers: 'block' });

const OWNER3 = { email: 'owner3@storewise.local', password: 'storewise-owner' };

test.describe('dashboard billing', () => {
  test('shows owner1 plan, payment methods and history', async ({ page }) => {
    await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
    const billing = new BillingScreen(page);
    await billing.goto();

    await expect(billing.planName).toHaveText('Growth');
    await expect(billing.plan).toContainText('Active');
    await expect(billing.plan).toContainText('$29.99 per month, billed annually');
    await expect(billing.plan).toContainText('Start Date');
    await expect(billing.plan).toContainText('Next Billing Date');
    await expect(billing.autoRenew).toBeChecked();

    const methods = billing.methods.getByRole('listitem');
    await expect(methods).toHaveCount(2);
    await expect(methods.nth(0)).toContainText('Visa •••• 4242');
    await expect(methods.nth(0)).toContainText('Default');
    await expect(methods.nth(0)).toHaveAttribute('data-type', 'visa');
    await expect(methods.nth(1)).toContainText('Mastercard •••• 5454');
    await expect(methods.nth(1)).toContainText('Expires 09/27');

    const history = billing.history.getByRole('listitem');
    await expect(history).toHaveCount(6);
    await expect(history.nth(0)).toContainText('Growth plan, annual (12 x 29.99)');
    await expect(history.nth(0)).toContainText('$359.88');
    await expect(history.nth(0).getByRole('link')).toHaveAttribute(
      'href',
      'https://invoices.example.com/storewise/SW-1006.pdf',
    );
    const declined = history.filter({ hasText: 'card declined' });
    await expect(declined).toContainText('Failed');
    await expect(declined.getByRole('link')).toHaveCount(0);
    await expect(billing.history.getByRole('link')).toHaveCount(4);
  });

  test('an owner without plan or history sees the empty texts', async ({ page }) => {
    await signInThroughUi(page, OWNER3.email, OWNER3.password);
    const billing = new BillingScreen(page);
    await billing.goto();
    await expect(billing.planName).toHaveText('Free');
    await expect(billing.plan).toContainText('$0.00 per month');
    await expect(billing.autoRenew).toHaveCount(0);
    await expect(billing.methods).toContainText('No payment methods saved');
    await expect(billing.history).toContainText('No billing history available');
  });

  test('auto-renew turns off and on, saved across reloads', async ({ page }) => {
    const user = await createConfirmedUser('renew');
    await choosePlan(user.email, user.password, 'Starter');
    await signInThroughUi(page, user.email, user.password);
    const billing = new BillingScreen(page);
    const shell = new DashboardShell(page);
    await billing.goto();
    await expect(billing.plan).toContainText('Trialing');
    await expect(billing.autoRenew).toBeChecked();

    await billing.toggleAutoRenew();
    await expect(shell.toast('success')).toContainText('Settings Updated');
    await expect(shell.toast('success')).toContainText('Auto-renew has been disabled.');
    await page.reload();
    await expect(billing.autoRenew).not.toBeChecked();

    await billing.toggleAutoRenew();
    await expect(shell.toast('success').filter({ hasText: 'Auto-renew has been enabled.' })).toBeVisible();
    await page.reload();
    await expect(billing.autoRenew).toBeChecked();
  });

  test('auto-renew reverts with the error toast when the save fails', async ({ page }) => {
    const user = await createConfirmedUser('renew-fail');
    await choosePlan(user.email, user.password, 'Growth');
    await signInThroughUi(page, user.email, user.password);
    await page.route('**/rest/v1/user_plans**', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, json: { message: 'unavailable', code: 'XX000' } })
        : route.continue(),
    );
    const billing = new BillingScreen(page);
    const shell = new DashboardShell(page);
    await billing.goto();
    await expect(billing.autoRenew).toBeChecked();

    await billing.toggleAutoRenew();
    await expect(shell.toast('error')).toContainText('Failed to update auto-renew settings.');
    await expect(billing.autoRenew).toBeChecked();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await expect(billing.autoRenew).toBeChecked();
  });
});
