import { expect, test } from '@playwright/test';
import { linkFromEmail } from './pages/public-inbox';
import { signInThroughUi } from './support/sign-in';
import { adminClient, createConfirmedUser } from './support/users';

/*
 * Issue 11: the invitee gets a real email (the local inbox stands in for the auth service's email on hosted,
 * docs/adr/0105), opens its link in their own browser, lands signed in on the invitation and joins.
 */
test('a cashier with no account opens the invitation from the inbox, is signed in by the link and joins', async ({ page, browser }) => {
  const owner = await createConfirmedUser('inviter', 'Ivy Inviter');
  // A paid plan: the Free plan is the owner alone.
  const plan = await (await adminClient()).from('user_plans').insert({ user_id: owner.id, plan_name: 'Growth', price: 29.99, status: 'active' });
  if (plan.error) throw new Error(plan.error.message);
  await signInThroughUi(page, owner.email, owner.password);
  await page.goto('/dashboard/business/team');
  const invite = page.getByRole('form', { name: 'Invite a member' });
  const email = `new-cashier-${Date.now()}@example.com`;
  await invite.getByRole('textbox', { name: /^Email/ }).fill(email);
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation emailed to ${email}` })).toBeVisible();

  const link = await linkFromEmail(email, /Confirm your Storewise account/);
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(link);
  await expect(tab).toHaveURL(/\/dashboard\/business\/invitations\/accept\?token=/);
  await expect(tab.getByRole('heading', { name: "Join Ivy Inviter's business" })).toBeVisible();
  await expect(tab.getByText(`You are invited as a cashier (${email})`)).toBeVisible();
  await tab.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(tab).toHaveURL(/\/dashboard\/business\/stores/);
  await expect(tab.getByRole('combobox', { name: 'Workspace' }).getByRole('option', { name: /Ivy Inviter's business/ }))
    .toHaveCount(1);

  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText(/cashier/i);
  await context.close();
});
