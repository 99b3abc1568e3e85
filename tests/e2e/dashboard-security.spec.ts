import { expect, test } from '@playwright/test';
import { format, subDays } from 'date-fns';
import { createConfirmedUser, demo } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { SecurityScreen } from './pages/dashboard-security';
import { signInThroughUi } from './support/sign-in';

test.describe('dashboard security', () => {
  test('owner1 sees sessions with the Current badge and relative times, and login activity', async ({ page }) => {
    await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
    const security = new SecurityScreen(page);
    await security.goto();

    const rows = security.sessionRows();
    // This browser's session is the current one, whatever is_current says about the seeded desktop.
    const current = rows.filter({ has: page.getByText('Current', { exact: true }) });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText('Chrome');
    await expect(current).toContainText('Active now');
    // Seeded 3 minutes before the stack started: "Active now", or minutes once the stack has run a while.
    await expect(rows.filter({ hasText: 'Storewise Desktop on macOS' }).first()).toContainText(
      /Active now|\d+ minutes ago/,
    );
    // The seeded shop PC on the local network (Playwright's own Chrome also reports Windows).
    await expect(rows.filter({ hasText: 'Chrome on Windows' }).filter({ hasText: 'Local network' })).toContainText(
      '1 day ago',
    );

    const activity = security.activity.getByRole('listitem');
    await expect(activity.first()).toContainText('Chrome');
    expect(await activity.count()).toBeGreaterThanOrEqual(5);
    expect(await activity.count()).toBeLessThanOrEqual(10);
    // Newest first: this sign-in, from this computer. (Older seeded rows drop out as other tests sign in.)
    await expect(activity.first()).toContainText('This computer');
    await expect(activity.first()).toContainText('127.0.0.1');

    // owner1 has no authenticator: two-factor is off and can be set up (tests/e2e/security-mfa.spec.ts does).
    await expect(security.twoFactor.getByTestId('two-factor-status')).toHaveText('Off');
    await expect(security.twoFactor.getByRole('button', { name: 'Set up authenticator app' })).toBeVisible();
  });

  test('each session names its browser and system and says when it signed in', async ({ page, browser }) => {
    const user = await createConfirmedUser('security-devices');
    // A second sign-in from Firefox on Windows, as the auth service sees it (its user agent).
    const firefox = await browser.newContext({
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    });
    await signInThroughUi(await firefox.newPage(), user.email, user.password);
    await firefox.close();
    await signInThroughUi(page, user.email, user.password);
    const security = new SecurityScreen(page);
    await security.goto();

    const rows = security.sessionRows();
    await expect(rows).toHaveCount(2);
    const signedIn = /Signed in [A-Z][a-z]{2} \d{2}, \d{4}, \d{2}:\d{2}/;
    // Playwright's Chrome reports Windows too; the two differ by browser and by sign-in time.
    await expect(rows.filter({ hasText: 'Current' })).toContainText('Chrome on Windows');
    await expect(rows.filter({ hasText: 'Current' })).toContainText(signedIn);
    await expect(rows.filter({ hasText: 'Firefox on Windows' })).toContainText(signedIn);
  });

  test('a session\'s sign-in time is when it started, not when its row was written', async ({ page }) => {
    await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
    const security = new SecurityScreen(page);
    await security.goto();
    // The seeded shop PC signed in 3 days before the stack started (its row was written at start).
    const shopPc = security.sessionRows().filter({ hasText: 'Chrome on Windows' }).filter({ hasText: 'Local network' });
    await expect(shopPc.getByTestId('session-signed-in')).toContainText(`Signed in ${format(subDays(new Date(), 3), 'MMM dd, yyyy')}`);
  });

  test('checks the current password, then really changes it', async ({ page, browser }) => {
    const user = await createConfirmedUser('security-pw');
    await signInThroughUi(page, user.email, user.password);
    const security = new SecurityScreen(page);
    const shell = new DashboardShell(page);
    await security.goto();

    await expect(security.update).toBeDisabled();
    await security.changePassword('not-my-password', 'brand-new-pass');
    await expect(shell.toast('error')).toContainText('Your current password is incorrect.');
    await expect(security.newPassword).toHaveValue('brand-new-pass');

    await security.changePassword(user.password, 'brand-new-pass', 'brand-new-pasX');
    await expect(page.getByText('Passwords do not match.')).toBeVisible();

    const next = `${user.password}-changed`;
    await security.changePassword(user.password, next);
    await expect(shell.toast('success')).toContainText('Password Updated');
    await expect(shell.toast('success')).toContainText('Your password has been changed successfully.');
    await expect(security.currentPassword).toHaveValue('');
    // The check's own session was ended at once: only this browser's session is listed.
    await page.reload();
    await expect(security.sessionRows()).toHaveCount(1);

    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInThroughUi(otherPage, user.email, next);
    await new DashboardShell(otherPage).open();
    await other.close();
  });

  test('Logout Other Devices ends the other browser’s session', async ({ page, browser }) => {
    const user = await createConfirmedUser('security-sessions');
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInThroughUi(otherPage, user.email, user.password);
    await new DashboardShell(otherPage).open();

    await signInThroughUi(page, user.email, user.password);
    const security = new SecurityScreen(page);
    const shell = new DashboardShell(page);
    await security.goto();
    await expect(security.sessionRows()).toHaveCount(2);

    await security.logoutOthers.click();
    await expect(shell.toast('success')).toContainText('Sessions Ended');
    await expect(shell.toast('success')).toContainText("You've been logged out from all other devices.");
    await expect(security.sessionRows()).toHaveCount(1);
    await expect(security.sessionRows()).toContainText('Current');

    await otherPage.goto('/dashboard/security');
    await otherPage.waitForURL((url) => url.pathname === '/auth');
    await other.close();

    await page.reload();
    await expect(security.sessionRows()).toHaveCount(1);
  });
});
