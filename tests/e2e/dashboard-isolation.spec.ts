import { expect, test } from '@playwright/test';
import { demo } from './support/users';

import { BillingScreen } from './pages/dashboard-billing';
import { OverviewScreen } from './pages/dashboard-overview';
import { SecurityScreen } from './pages/dashboard-security';
import { SupportScreen } from './pages/dashboard-support';
import { userClient } from './pages/dashboard-data';
import { signInThroughUi } from './support/sign-in';

const OWNER1_ID = '22222222-2222-4222-8222-222222222222';

test('a second owner never sees the first owner’s data', async ({ page }) => {
  await signInThroughUi(page, demo.owner2.email, demo.owner2.password);

  const overview = new OverviewScreen(page);
  await overview.goto();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Marco Tailor!');
  await expect(overview.planCard).toContainText('Starter');
  await expect(overview.recentBilling).not.toContainText('$359.88');

  const billing = new BillingScreen(page);
  await billing.goto();
  await expect(billing.planName).toHaveText('Starter');
  await expect(billing.autoRenew).not.toBeChecked();
  await expect(billing.methods.getByRole('listitem')).toHaveCount(1);
  await expect(billing.methods).toContainText('Mobile payment •••• 0199');
  await expect(billing.history.getByRole('listitem')).toHaveCount(3);
  await expect(billing.history).not.toContainText('Growth plan');

  const security = new SecurityScreen(page);
  await security.goto();
  await expect(security.sessions).not.toContainText('Storewise Desktop');
  await expect(security.activity).not.toContainText('192.168.1.23');

  const support = new SupportScreen(page);
  await support.goto();
  await expect(support.ticketRows()).toHaveCount(1);
  await expect(support.tickets).toContainText('Trial question');
  await expect(support.tickets).not.toContainText('Barcode scanner');

  // Asking the API directly for owner1's rows with owner2's session returns nothing.
  const client = await userClient(demo.owner2.email, demo.owner2.password);
  for (const table of ['billing_history', 'payment_methods', 'support_tickets', 'active_sessions', 'login_activity'] as const) {
    const { data, error } = await client.from(table).select('id').eq('user_id', OWNER1_ID);
    expect(error, table).toBeNull();
    expect(data, table).toEqual([]);
  }
  const { data: updated } = await client.from('user_plans').update({ auto_renew: false }).eq('user_id', OWNER1_ID).select('id');
  expect(updated).toEqual([]);
  await client.auth.signOut({ scope: 'local' });
});
