import { expect, test } from '@playwright/test';
import { emailFromInbox } from './pages/public-inbox';
import { signInThroughUi } from './support/sign-in';
import { adminClient, createConfirmedUser } from './support/users';

/*
 * Issue 11: the invitee gets a real email (the local inbox stands in for the auth service's email on hosted,
 * docs/adr/0105), opens its link in their own browser, lands signed in on the invitation and joins.
 * Issue 25 (docs/adr/0210): the email says who invites, to which business and role, with the business in the
 * subject; the new person chooses their name and a password while accepting, lands at the Register, and can sign
 * in again with that password.
 */
test('a cashier with no account opens the invitation from the inbox, chooses a name and password, and starts at the register', async ({ page, browser }) => {
  // Three browsers (owner, invitee, the next day's sign-in) on a shared machine: more than the default minute.
  test.setTimeout(180_000);
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

  const mail = await emailFromInbox(email, /invites you to join/);
  expect(mail.subject).toBe("Ivy Inviter invites you to join Ivy Inviter's business on Storewise");
  expect(mail.text).toContain("Ivy Inviter invites you to join Ivy Inviter's business on Storewise as a cashier.");

  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(mail.link);
  await expect(tab).toHaveURL(/\/dashboard\/business\/invitations\/accept\?token=/);
  await expect(tab.getByRole('heading', { name: "Join Ivy Inviter's business" })).toBeVisible();
  await expect(tab.getByText(`You are invited as a cashier (${email})`)).toBeVisible();
  const join = tab.getByRole('form', { name: 'Join the business' });
  await join.getByRole('textbox', { name: /^Full name/ }).fill('Casey Newhire');
  await join.getByLabel(/^Password/).fill('counter-pass-1');
  await join.getByLabel(/^Confirm password/).fill('counter-pass-2');
  await join.getByRole('button', { name: "Join Ivy Inviter's business" }).click();
  await expect(join.getByText("Passwords don't match")).toBeVisible();
  await join.getByLabel(/^Confirm password/).fill('counter-pass-1');
  await join.getByRole('button', { name: "Join Ivy Inviter's business" }).click();
  await expect(tab).toHaveURL(/\/dashboard\/pos$/);
  await expect(tab.getByRole('heading', { name: 'Register', level: 1 })).toBeVisible();
  await context.close();

  // The owner's team names the person as they chose.
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText(/cashier/i);
  await expect(page.getByRole('row', { name: /Casey Newhire/ })).toHaveCount(1);

  // The password works the next day, in a fresh browser, without a reset.
  const nextDay = await browser.newContext();
  const again = await nextDay.newPage();
  await signInThroughUi(again, email, 'counter-pass-1');
  await nextDay.close();
});
