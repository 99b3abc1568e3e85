import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { AdminPanel } from './pages/admin-panel';
import { signInThroughUi } from './support/sign-in';
import { createConfirmedUser, demo } from './support/users';

/*
 * Issue 30 (docs/adr/0260, 0261): an admin edits System Settings and Content Management in the browser, previews
 * and publishes a legal page; the prerendered public pages and the dashboard show the change without a rebuild.
 * The settings are put back at the end (other specs share this server); the published version stays, as
 * published versions do, and keeps the earlier text whole (it only adds a section).
 */
test.describe.configure({ mode: 'serial' });
// Several pages and sign-ins each: slow on a shared machine.
test.slow();

const word = randomUUID().slice(0, 6);
const bannerText = `Planned maintenance ${word}: Sunday 02:00-03:00 UTC`;

test('the admin sets a maintenance banner in System Settings; the public site and the dashboard show it', async ({ page, browser }) => {
  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  const admin = new AdminPanel(page);
  await admin.open('/admin/settings');
  await expect(admin.heading).toHaveText('System Settings');

  // A bad value is refused under its field, with nothing saved.
  await page.getByLabel('Trial length (days)').fill('500');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('At most 90 days')).toBeVisible();
  await page.getByLabel('Trial length (days)').fill('7');

  await page.getByLabel('Banner text').fill(bannerText);
  await page.getByLabel('Severity').selectOption('warning');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  // The history shows the change with its value before and after.
  const history = page.getByRole('region', { name: 'Change history' });
  const row = history.getByRole('row').filter({ hasText: 'banner_text' }).first();
  await expect(row).toContainText(bannerText);

  try {
    // The prerendered landing (no app for a visitor) shows it after its first paint, without a rebuild.
    const visitor = await browser.newPage();
    await visitor.goto('/');
    await expect(visitor.getByRole('alert').filter({ hasText: bannerText })).toBeVisible();
    await expect(visitor.locator('[data-site-status-text]')).toHaveText('Status: All Systems Operational');
    await visitor.close();

    // And the dashboard, above every screen.
    const owner = await createConfirmedUser('banner', 'Bea Banner');
    const ownerPage = await browser.newPage();
    await signInThroughUi(ownerPage, owner.email, owner.password);
    await ownerPage.goto('/dashboard');
    await expect(ownerPage.getByTestId('platform-notices')).toContainText(bannerText);
    await ownerPage.close();
  } finally {
    await page.getByLabel('Banner text').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved').last()).toBeVisible();
  }
});

test('the admin edits a legal page, previews it and publishes it; the old version stays at its address', async ({ page, browser }) => {
  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  const admin = new AdminPanel(page);
  await admin.open('/admin/content');
  await expect(admin.heading).toHaveText('Content Management');

  await page.getByLabel('Document').selectOption('cookie-policy');
  await expect(page.getByTestId('legal-current')).toContainText(/In force: version \d+/);
  const before = Number(/version (\d+)/.exec((await page.getByTestId('legal-current').textContent()) ?? '')![1]);
  const markdown = page.getByLabel('Markdown');
  await expect(markdown).not.toHaveValue('');
  const heading = `Changes in ${word}`;
  await markdown.fill(`${await markdown.inputValue()}\n## ${heading}\n\nWe now explain **every** cookie we set.\n`);

  await page.getByRole('tab', { name: 'Preview' }).click();
  const preview = page.getByTestId('legal-preview');
  await expect(preview.getByRole('heading', { name: heading })).toBeVisible();
  await expect(preview.locator('strong', { hasText: 'every' })).toBeVisible();

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(`Version ${before + 1} published`)).toBeVisible();
  await expect(page.getByTestId('legal-current')).toContainText(`In force: version ${before + 1}`);

  // The public page shows the new version with its date; the earlier one stays readable at its own address.
  const visitor = await browser.newPage();
  await visitor.goto('/cookie-policy');
  await expect(visitor.getByRole('heading', { name: heading })).toBeVisible();
  const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date());
  await expect(visitor.locator('[data-legal-date]')).toHaveText(today);
  await expect(visitor.getByRole('link', { name: new RegExp(`^Version ${before},`) })).toBeVisible();
  await visitor.goto(`/cookie-policy?version=${before}`);
  await expect(visitor.getByRole('note')).toContainText(`version ${before} of the Cookie Policy`);
  await expect(visitor.getByRole('heading', { name: heading })).toHaveCount(0);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Cookie Policy');
  await visitor.close();
});
