import { expect, test, type Page } from '@playwright/test';
import { openShift, posShop } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient } from './support/users';

// page.route does not see every request of a page the service worker controls: Playwright lets some through
// unrouted (a paused request without a network id, or one it already saw), and CI once found an "offline" sale on
// the server. This spec fakes the server's failures with routes and never reloads offline, so it runs without the
// worker, as Playwright advises; pos-pwa-offline.spec.ts tests the worker.
test.use({ serviceWorkers: 'block' });

/** A real PNG drawn in the page (a colour and a size), as bytes for setInputFiles. */
async function drawnPng(page: Page, colour: string, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(`(() => {
    const canvas = document.createElement('canvas');
    canvas.width = ${width}; canvas.height = ${height};
    const context = canvas.getContext('2d');
    context.fillStyle = ${JSON.stringify(colour)};
    context.fillRect(0, 0, ${width}, ${height});
    return canvas.toDataURL('image/png');
  })()`) as string;
  return Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
}

const naturalWidth = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);

test('an owner adds two pictures (picker and drop), picks the main one; the catalog and the register show its thumbnail, offline too', async ({ page }) => {
  test.setTimeout(300_000);
  const shop = await posShop();
  const admin = await adminClient();
  const { data: soap } = await admin.from('products').select('id').eq('business_id', shop.business).eq('name', 'Scan Soap').single();
  await signInThroughUi(page, shop.owner.email, shop.owner.password);
  await page.goto(`/dashboard/catalog/products/${soap!.id}`);
  const pictures = page.getByRole('region', { name: 'Pictures' });
  await expect(pictures).toContainText('No pictures yet.', { timeout: 60_000 });

  // One by the file picker, one dropped on the drop zone.
  await pictures.getByTestId('product-images-input').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: await drawnPng(page, '#c00', 1200, 900) });
  await expect(pictures.getByTestId('product-image')).toHaveCount(1, { timeout: 60_000 });
  const blue = (await drawnPng(page, '#00c', 600, 800)).toString('base64');
  const drop = await page.evaluateHandle(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(blue)}), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'blue.png', { type: 'image/png' }));
    return transfer;
  })()`);
  await pictures.getByTestId('image-drop').dispatchEvent('drop', { dataTransfer: drop });
  await expect(pictures.getByTestId('product-image')).toHaveCount(2, { timeout: 60_000 });
  await expect(pictures.getByTestId('product-image').first()).toHaveAttribute('data-main', 'true');

  // The second becomes the main picture.
  await pictures.getByRole('button', { name: 'Make picture 2 the main picture' }).click();
  await expect(pictures.getByTestId('product-image').nth(1)).toHaveAttribute('data-main', 'true', { timeout: 30_000 });
  await expect(pictures.getByTestId('product-image').first()).toHaveAttribute('data-main', 'false');
  const { data: main } = await admin.from('product_images').select('path, small_path').eq('product_id', soap!.id).eq('is_main', true).single();
  expect(main!.small_path).toMatch(/\.s\.(webp|jpg)$/);

  // The catalog list shows the main picture's small preview, and never requests a full-size file.
  const fullSize: string[] = [];
  page.on('request', (request) => request.url().includes('/product-images/') && fullSize.push(request.url()));
  await page.goto('/dashboard/catalog');
  const row = page.getByRole('row', { name: /Scan Soap/ });
  const thumb = row.getByTestId('catalog-thumb');
  await expect(thumb).toHaveAttribute('src', new RegExp(`/product-thumbnails/${main!.small_path.replace(/[.]/g, '\\.')}$`), { timeout: 60_000 });
  await expect.poll(() => naturalWidth(thumb)).toBeGreaterThan(0);
  expect(await naturalWidth(thumb)).toBeLessThanOrEqual(96);
  expect(fullSize).toEqual([]);

  // The register: search results and the cart show it, from the device's cache.
  await openShift(page, '30');
  const search = page.getByRole('textbox', { name: 'Scan or search' });
  await search.fill('soap');
  const hit = page.getByRole('option', { name: /Scan Soap/ });
  await expect.poll(() => naturalWidth(hit.getByTestId('pos-thumb')), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(hit.getByTestId('pos-thumb')).toHaveAttribute('src', /^blob:/);
  await hit.click();
  await expect.poll(() => naturalWidth(page.getByRole('table').getByTestId('pos-thumb').first())).toBeGreaterThan(0);

  // Offline (Storage unreachable too): a new search still shows the picture, from IndexedDB.
  await page.route('**/storage/v1/**', (route) => route.abort('internetdisconnected'));
  await page.route('**/rest/v1/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
  await expect(page.getByTestId('pos-status')).toHaveText('Offline');
  await search.fill('');
  await search.fill('scan so');
  await expect.poll(() => naturalWidth(page.getByRole('option', { name: /Scan Soap/ }).getByTestId('pos-thumb')), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(fullSize).toEqual([]);
});
