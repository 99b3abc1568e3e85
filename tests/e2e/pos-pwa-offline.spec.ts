import { chromium, expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, testChromiumExecutable } from '../helpers/browser';
import { e2e } from '../helpers/e2e-env';
import { openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient } from './support/users';

/**
 * The web app as a Progressive Web App (docs/adr/0200): its service worker keeps the app shell and the register's
 * code, so the register reopens after a reload with no network at all (the browser's own offline mode, not only
 * the API cut off), and Chromium finds it installable.
 */

/**
 * Waits until this browser holds the offline copy: a service worker is active (it activates only after the whole
 * build is precached) and the runtime configuration is stored for it.
 */
async function offlineCopyReady(page: Page) {
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await expect.poll(() => page.evaluate(`caches.match('/config.json', { ignoreVary: true }).then((r) => Boolean(r))`)).toBe(true);
}

/** The first bytes of a PNG say its size: width and height at 16 and 20. */
const pngSize = (body: Buffer) => ({ width: body.readUInt32BE(16), height: body.readUInt32BE(20) });

test('with no network a reload reopens the register and its shift; two more sales, back online each posts once', async ({ page }) => {
  test.setTimeout(180_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '50');
  await offlineCopyReady(page);

  // The network goes: the browser is offline, every request fails (the page, its files, the API).
  await page.context().setOffline(true);
  await expect(page.getByTestId('pos-status')).toHaveText('Offline');
  await scan(page, '4006381333931');
  await tender(page, 'Cash', '20');
  await expect(page.getByTestId('receipt-change')).toHaveText('$7.50');
  await expect(page.getByTestId('pos-waiting')).toHaveText('1 waiting');

  // A reload with no network: the register, its shift and its outbox are back (no "No internet" page).
  await page.reload();
  await page.getByRole('textbox', { name: 'Scan or search' }).waitFor();
  await expect(page.getByTestId('pos-status')).toHaveText('Offline');
  await expect(page.getByTestId('pos-waiting')).toHaveText('1 waiting');

  // Two more sales from the catalog copy, still offline.
  await scan(page, '4006381333931');
  await tender(page, 'Card');
  await expect(page.getByTestId('receipt-total')).toHaveText('$12.50');
  await page.getByRole('button', { name: 'New sale' }).click();
  await page.getByRole('textbox', { name: 'Scan or search' }).fill('towel');
  await page.getByRole('option', { name: /Bath Towel/ }).click();
  await tender(page, 'Cash', '20');
  await expect(page.getByTestId('receipt-total')).toHaveText('$20.00');
  await expect(page.getByTestId('pos-waiting')).toHaveText('3 waiting');
  expect(await shop.sales()).toHaveLength(0);

  // Back online: each sale posts once, under the cashier's sign-in, however often the outbox syncs.
  await page.context().setOffline(false);
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect(page.getByTestId('pos-status')).toHaveText('Online');
  const sales = await shop.sales();
  expect(sales.map((s) => s.total).sort()).toEqual([1250, 1250, 2000]);
  expect(new Set(sales.map((s) => s.receipt_number)).size).toBe(3);
  const shifts = await shop.shifts();
  expect(shifts).toEqual([expect.objectContaining({ closed_at: null })]);
  await expect.poll(async () => (await shop.sales()).length).toBe(3);
});

test('the cart in progress survives a reload, offline too, and is gone once the sale is made', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');
  await offlineCopyReady(page);

  await scan(page, '4006381333931');
  await scan(page, '4006381333931');
  await page.getByRole('textbox', { name: 'Scan or search' }).fill('towel');
  await page.getByRole('option', { name: /Bath Towel/ }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('$45.00');

  // A reload online, then one offline: the same cart each time.
  await page.reload();
  await expect(page.getByTestId('cart-total')).toHaveText('$45.00');
  await expect(page.getByTestId('cart-qty').first()).toHaveText('2');
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByTestId('cart-total')).toHaveText('$45.00');

  // The sale completes the cart: a reload then starts empty.
  await tender(page, 'Card');
  await expect(page.getByTestId('receipt-total')).toHaveText('$45.00');
  await page.reload();
  await page.getByRole('textbox', { name: 'Scan or search' }).waitFor();
  await expect(page.getByRole('table', { name: 'Cart' })).toContainText('Scan an item to start a sale.');
  await page.context().setOffline(false);
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  expect((await shop.sales()).map((s) => s.total)).toEqual([4500]);
});

test('an access token that expires while offline does not sign the cashier out; back online the sale posts as theirs', async ({ page }) => {
  test.setTimeout(180_000);
  // The page's clock is Playwright's: it runs at the real pace, and the test can jump it forward below where
  // supabase-js would otherwise be waited out in real time.
  await page.clock.install();
  // What the sign-in did, kept to explain a failure: each token answer's status and error code (never a token), and
  // the page's warnings.
  const seen: string[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/auth/v1/token')) return;
    void response.json().then((body: { error_code?: string; code?: string }) => body?.error_code ?? body?.code ?? 'ok', () => 'no JSON')
      .then((what) => seen.push(`token ${response.status()} ${what}`));
  });
  page.on('console', (message) => {
    const line = message.text().split('\n')[0]?.slice(0, 160) ?? '';
    if (message.type() !== 'log' && !/^Failed to load resource|Failed to fetch$/.test(line)) seen.push(`${message.type()}: ${line}`);
  });
  page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) seen.push(`at ${new URL(frame.url()).pathname}`); });
  page.on('crash', () => seen.push('the page crashed'));
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');
  await offlineCopyReady(page);

  // Offline for longer than the access token lives: supabase-js's stored session says it expired ten minutes ago.
  await page.context().setOffline(true);
  await page.evaluate(`for (const key of Object.keys(localStorage).filter((k) => /^sb-.*-auth-token$/.test(k))) {
    const stored = JSON.parse(localStorage.getItem(key));
    localStorage.setItem(key, JSON.stringify({ ...stored, expires_at: Math.floor(Date.now() / 1000) - 600 }));
  }`);
  await page.reload();
  // The refresh cannot reach the server: still the cashier's register, not the sign-in page.
  await page.getByRole('textbox', { name: 'Scan or search' }).waitFor();
  await expect(page).toHaveURL(/\/dashboard\/pos$/);
  await scan(page, '4006381333931');
  await tender(page, 'Card');
  await expect(page.getByTestId('pos-waiting')).toHaveText('1 waiting');

  // Back online, supabase-js refreshes the sign-in (it waits out its own pause after failed refreshes: the failure
  // is reused for a minute, then the next 30-second tick or sync tries again) and the sale is sent under it, once.
  // Rather than wait that pause in real time, the page's clock jumps half a minute at a time, as if the laptop lid
  // were closed for a while: the refresh still happens on supabase-js's own schedule, against the real server.
  await page.context().setOffline(false);
  await page.evaluate(`window.dispatchEvent(new Event('online'))`);
  let leftTheRegister = false;
  const explained = (error: unknown) => { throw new Error(`${error instanceof Error ? error.message : String(error)}\nwhat happened:\n${seen.join('\n')}`); };
  await expect(async () => {
    // Signed out (or anything else that leaves the register) will not mend itself: stop waiting and say what happened.
    if (!/\/dashboard\/pos$/.test(page.url())) { leftTheRegister = true; return; }
    await page.clock.fastForward('00:30');
    await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting', { timeout: 5_000 });
  }).toPass({ timeout: 120_000 }).catch(explained);
  expect(leftTheRegister, `the page left the register for ${page.url()}; what happened:\n${seen.join('\n')}`).toBe(false);
  const admin = await adminClient();
  const sales = (await admin.from('sales').select('cashier_id, total').eq('register_id', shop.register)).data ?? [];
  expect(sales).toEqual([{ cashier_id: shop.cashier.id, total: 1250 }]);
});

test('the web app manifest is served from the app shell only, valid, and Chromium finds the app installable', async ({ page, request }) => {
  test.setTimeout(120_000);
  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/manifest+json');
  const manifest = (await response.json()) as { name: string; start_url: string; display: string; theme_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[] };
  expect(manifest).toMatchObject({ name: 'Storewise', start_url: '/dashboard/pos', display: 'standalone', theme_color: '#2563eb' });
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type']).toBe(icon.type);
    const { width, height } = pngSize(await file.body());
    expect(`${width}x${height}`).toBe(icon.sizes);
  }
  expect(manifest.icons.map((i) => i.purpose).sort()).toEqual(['any', 'any', 'maskable']);

  // The public pages do not link it (nor fetch it); the app shell does.
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);

  // Chromium never offers to install from a private window, which every test context is: a real profile here.
  const profile = mkdtempSync(join(tmpdir(), 'storewise-pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: testChromiumExecutable(() => chromium.executablePath()), args: CHROMIUM_ARGS, baseURL: e2e.webUrl,
  });
  try {
    const installer = context.pages()[0] ?? (await context.newPage());
    const shop = await posShop();
    await signInThroughUi(installer, shop.cashier.email, shop.cashier.password);
    await installer.goto('/dashboard/pos');
    await expect(installer.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    await offlineCopyReady(installer);
    await installer.reload();
    await installer.getByRole('combobox', { name: 'Register' }).waitFor();

    // Chromium's own reading of the manifest: no errors, and nothing keeps it from being installed.
    const cdp = await context.newCDPSession(installer);
    const read = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[]; url: string };
    expect(read.errors).toEqual([]);
    expect(read.url).toMatch(/\/manifest\.webmanifest$/);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors).toEqual([]);
    // The worker controls the shell after the reload (it serves /dashboard/* from the precache).
    expect(await installer.evaluate('Boolean(navigator.serviceWorker.controller)')).toBe(true);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
