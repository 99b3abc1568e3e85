import { expect, test } from '@playwright/test';
import { createConfirmedUser } from './support/users';
import { DashboardShell } from './pages/dashboard-shell';
import { ProfileScreen } from './pages/dashboard-profile';
import { signInThroughUi } from './support/sign-in';

// page.route does not see every request of a page the service worker controls: Playwright lets some through
// unrouted (a paused request without a network id, or one it already saw), and CI once found an "offline" sale on
// the server. This spec fakes the server's failures with routes and never reloads offline, so it runs without the
// worker, as Playwright advises; pos-pwa-offline.spec.ts tests the worker.
test.use({ serviceWorkers: 'block' });

test.describe('dashboard profile', () => {
  test('saves name and phone to the profile and the account, kept after reload', async ({ page }) => {
    const user = await createConfirmedUser('profile', 'Pat Before');
    await signInThroughUi(page, user.email, user.password);
    const profile = new ProfileScreen(page);
    const shell = new DashboardShell(page);
    await profile.goto();

    await expect(profile.email).toHaveValue(user.email);
    await expect(profile.email).toHaveAttribute('readonly', '');
    await expect(page.getByText('Email cannot be changed from this interface')).toBeVisible();
    await expect(profile.fullName).toHaveValue('Pat Before');
    await expect(page.getByText('Email Confirmed')).toBeVisible();

    await profile.saveWith('Pat After', '+44 20 7946 0958');
    await expect(shell.toast('success')).toContainText('Profile updated');
    await expect(shell.toast('success')).toContainText('Your profile has been successfully updated.');
    // The auth user's name changed too: the avatar follows at once.
    await expect(shell.avatar).toHaveText('PA');

    await page.reload();
    await expect(profile.fullName).toHaveValue('Pat After');
    await expect(profile.phone).toHaveValue('+44 20 7946 0958');
    await expect(shell.avatar).toHaveText('PA');
  });

  test('shows the sign-up rules and keeps typed values when the save fails', async ({ page }) => {
    const user = await createConfirmedUser('profile-fail', 'Kim Keep');
    await signInThroughUi(page, user.email, user.password);
    const profile = new ProfileScreen(page);
    const shell = new DashboardShell(page);
    await profile.goto();

    await profile.saveWith('K', '123');
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Phone number must be at least 10 digits')).toBeVisible();

    await page.route('**/rest/v1/profiles**', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, json: { message: 'Database unavailable', code: 'XX000' } })
        : route.continue(),
    );
    await profile.saveWith('Kim Typed', '0123456789');
    await expect(shell.toast('error')).toContainText('Database unavailable');
    await expect(profile.fullName).toHaveValue('Kim Typed');
    await expect(profile.phone).toHaveValue('0123456789');
    await expect(profile.save).toBeEnabled();

    // The row saves but the auth service fails (a 5xx): the row is put back, so both still agree, and the
    // toast says the service is not answering rather than supabase-js's "{}".
    await page.unroute('**/rest/v1/profiles**');
    await page.route('**/auth/v1/user', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, json: { code: 'unexpected_failure', msg: 'Auth service unavailable' } })
        : route.continue(),
    );
    await profile.saveWith('Kim Half', '0123456789');
    await expect(page.getByTestId('toast-error').filter({ hasText: 'The Storewise service is not answering right now.' })).toBeVisible();
    await page.unroute('**/auth/v1/user');
    await page.reload();
    await expect(profile.fullName).toHaveValue('Kim Keep');
    await expect(profile.phone).toHaveValue('');
    await expect(shell.avatar).toHaveText('KK');
  });
});
