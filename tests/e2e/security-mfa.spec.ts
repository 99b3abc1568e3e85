import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { SecurityScreen } from './pages/dashboard-security';
import { signInThroughUi } from './support/sign-in';
import { createConfirmedUser, demo } from './support/users';

/** The code an authenticator app shows now for the secret the Security page displayed. */
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();

async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: /^Email/ }).fill(email);
  await form.getByLabel(/^Password/).fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test('an owner sets up an authenticator app, signs in with a code, makes new recovery codes and removes it', async ({ page, browser }) => {
  const user = await createConfirmedUser('security-mfa');
  await signInThroughUi(page, user.email, user.password);
  const security = new SecurityScreen(page);
  await security.goto();
  await expect(security.twoFactor.getByTestId('two-factor-status')).toHaveText('Off');

  // Enrol: name, QR code and the key to type, a code to confirm, then the recovery codes shown once.
  await security.twoFactor.getByRole('button', { name: 'Set up authenticator app' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Name/).fill('Work phone');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByLabel(/^Authentication code/).fill('000000' === codeFor(secret) ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('That code is not right')).toBeVisible();
  await dialog.getByLabel(/^Authentication code/).fill(codeFor(secret));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await dialog.getByRole('button', { name: 'Done' }).click();

  await expect(security.twoFactor.getByTestId('two-factor-status')).toHaveText('On');
  await expect(security.twoFactor.getByText('Work phone')).toBeVisible();
  await page.reload();
  await expect(security.sessionRows().filter({ hasText: 'Current' })).toContainText('Two-factor');

  // A new sign-in stops at the code step; a wrong code is refused, the right one opens the dashboard.
  const other = await browser.newContext();
  const second = await other.newPage();
  await passwordStep(second, user.email, user.password);
  await expect(second.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await second.getByLabel(/^Authentication code/).fill(codeFor(secret) === '123456' ? '654321' : '123456');
  await second.getByRole('button', { name: 'Verify' }).click();
  await expect(second.getByText('That code is not right')).toBeVisible();
  await second.getByLabel(/^Authentication code/).fill(codeFor(secret));
  await second.getByRole('button', { name: 'Verify' }).click();
  await expect(second.getByRole('heading', { name: 'Two-factor sign-in' })).toBeHidden();
  const secondSecurity = new SecurityScreen(second);
  await secondSecurity.goto();
  await expect(secondSecurity.sessionRows().filter({ hasText: 'Current' })).toContainText('Two-factor');

  // View Recovery Codes: how many are left, and a new set on request.
  await secondSecurity.twoFactor.getByRole('button', { name: 'View Recovery Codes' }).click();
  const codesDialog = second.getByRole('dialog');
  await expect(codesDialog.getByTestId('recovery-codes-left')).toHaveText('You have 10 unused recovery codes.');
  await codesDialog.getByRole('button', { name: 'Make new recovery codes' }).click();
  await expect(codesDialog.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await codesDialog.getByRole('button', { name: 'Close' }).click();

  // Removing needs a fresh code from the authenticator.
  await secondSecurity.twoFactor.getByRole('button', { name: 'Remove Work phone' }).click();
  const removeDialog = second.getByRole('alertdialog');
  await removeDialog.getByLabel(/^Authentication code/).fill(codeFor(secret));
  await removeDialog.getByRole('button', { name: 'Remove authenticator' }).click();
  await expect(secondSecurity.twoFactor.getByTestId('two-factor-status')).toHaveText('Off');
  await other.close();
});

test('an admin without an authenticator is asked to set one up in the admin panel', async ({ page }) => {
  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  await page.goto('/admin');
  const notice = page.getByTestId('admin-two-factor-notice');
  await expect(notice).toContainText('Protect the admin panel with two-factor sign-in');
  await notice.getByRole('link', { name: 'Set up an authenticator app' }).click();
  await expect(page).toHaveURL(/\/dashboard\/security$/);
});
