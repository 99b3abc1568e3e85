import { expect, test } from '@playwright/test';
import { adminClient, createConfirmedUser } from './support/users';
import { PublicSignIn } from './pages/public-auth';
import { PublicLanding, toast } from './pages/public-site';
import { payOnCheckout } from './support/checkout';

test.describe('choosing a plan', () => {
  test('a visitor is sent to /signup with the plan remembered', async ({ page }) => {
    const landing = new PublicLanding(page);
    await landing.goto('#pricing');
    await landing.getStarted('Pro');
    await expect(page).toHaveURL(/\/signup\?plan=Pro$/);
    await expect(page.getByTestId('remembered-plan')).toContainText('Selected plan: Pro');
  });

  test('a signed-in owner starts a 7-day trial on the provider\'s checkout, written by the database', async ({ page }) => {
    const user = await createConfirmedUser('plan');
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await signIn.signIn(user.email, user.password);
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();

    await new PublicLanding(page).getStarted('Growth');
    await payOnCheckout(page, '4242 4242 4242 4242', 'Start trial');
    await expect(toast(page, 'success', 'Trial started')).toContainText('Growth', { timeout: 30_000 });
    await expect(page).toHaveURL(/\/dashboard\/billing$/);

    const admin = await adminClient();
    const { data, error } = await admin.from('user_plans').select('*').eq('user_id', user.id).single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ plan_name: 'Growth', billing_cycle: 'annual', status: 'trialing' });
    const days = (Date.parse(data.next_billing_date) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect(Number(data.price)).toBe(29.99);
  });

  test('after signing in, the remembered plan is offered as a trial on the pricing section', async ({ page }) => {
    const user = await createConfirmedUser('remembered');
    const landing = new PublicLanding(page);
    await landing.goto('#pricing');
    await landing.getStarted('Starter');
    await expect(page).toHaveURL(/\/signup\?plan=Starter$/);
    await expect(page.getByTestId('remembered-plan')).toContainText('Selected plan: Starter');
    const signIn = new PublicSignIn(page);
    await signIn.goto();
    await signIn.signIn(user.email, user.password);
    await expect(toast(page, 'success', 'Welcome back!')).toBeVisible();
    await page.goto('/#pricing');
    await expect(page.getByTestId('trial-offer')).toContainText('Starter');
    await page.getByRole('button', { name: 'Start Starter trial' }).click();
    await payOnCheckout(page, '4242 4242 4242 4242', 'Start trial');
    await expect(page).toHaveURL(/\/dashboard\/billing$/, { timeout: 30_000 });
  });
});
