import { expect, test } from '@playwright/test';
import { AdminPanel } from './pages/admin-panel';
import { signInThroughUi } from './support/sign-in';
import { adminClient, createConfirmedUser, demo } from './support/users';

/* Issue 11: the admin Activity Logs list platform events from admin_platform_events, newest first, by kind. */
test('the admin sees a new sign-up and its plan change on top of Activity Logs, and filters by kind', async ({ page }) => {
  const shop = await createConfirmedUser('logs', 'Lorna Logs');
  const admin = await adminClient();
  expect((await admin.from('user_plans').insert({ user_id: shop.id, plan_name: 'Starter', price: 9.99, status: 'trialing' })).error).toBeNull();
  expect((await admin.from('user_plans').update({ plan_name: 'Pro', status: 'active' }).eq('user_id', shop.id)).error).toBeNull();

  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  await new AdminPanel(page).open('/admin/logs');
  const events = page.getByRole('table', { name: 'Platform events' });
  // Other tests change plans and sign up in parallel: find this shop's own rows, not the first row.
  const ours = events.getByRole('row').filter({ hasText: 'Lorna Logs' });
  await expect(ours.filter({ hasText: 'Starter (trialing) -> Pro (active)' })).toHaveCount(1);
  await expect(ours.filter({ hasText: 'Sign-up' })).toHaveCount(1);

  await page.getByLabel('Kind').selectOption('signup');
  await expect(ours.filter({ hasText: 'Sign-up' })).toHaveCount(1);
  await expect(events.getByText('Plan change')).toHaveCount(0);
});
