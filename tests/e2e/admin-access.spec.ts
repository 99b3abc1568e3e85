import { expect, test } from '@playwright/test';
import { AdminPanel } from './pages/admin-panel';
import { anonClient, createUsers, signedInClient, uniqueWord } from './pages/admin-data';
import { signInThroughUi } from './support/sign-in';

test('an owner who opens /admin lands on /dashboard', async ({ page }) => {
  const [owner] = await createUsers([`Curious Owner ${uniqueWord()}`]);
  if (!owner) throw new Error('no user');
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/admin/users');
  await expect(page).toHaveURL('/dashboard');
  await expect(new AdminPanel(page).menu()).toHaveCount(0);
});

test('a visitor who opens /admin is not shown the admin panel', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).not.toHaveURL(/\/admin/);
  await expect(page.getByRole('navigation', { name: 'Admin menu' })).toHaveCount(0);
});

test('the admin functions answer an owner with 403 and a visitor with 401', async () => {
  const [owner] = await createUsers([`Api Owner ${uniqueWord()}`]);
  if (!owner) throw new Error('no user');
  const ownerClient = await signedInClient(owner.email, owner.password);
  const visitor = await anonClient();
  for (const client of [ownerClient, visitor]) {
    const expectedStatus = client === visitor ? 401 : 403;
    const results = [
      await client.rpc('admin_overview'),
      await client.rpc('admin_list_users', { _search: 'a' }),
      await client.rpc('admin_list_plans', {}),
    ];
    for (const result of results) {
      expect(result.status).toBe(expectedStatus);
      expect(result.error?.code).toBe('42501');
      expect(result.data).toBeNull();
    }
  }
});
