import { expect, test } from '@playwright/test';
import { z } from 'zod';
import { e2e } from '../helpers/e2e-env';
import { openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';

const listSchema = z.object({
  messages: z.array(z.object({ ID: z.string(), To: z.array(z.object({ Address: z.string() })), Subject: z.string() })),
});

test('the receipt shows its number as a barcode, prints alone at 80 mm through the browser, and is emailed on request', async ({ page }) => {
  test.setTimeout(180_000);
  const shop = await posShop();
  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '50');
  await scan(page, '4006381333931');
  await tender(page, 'Cash', '20');
  await expect(page.getByTestId('receipt-change')).toHaveText('$7.50');
  const number = ((await page.getByTestId('receipt-number').textContent()) ?? '').replace('Receipt ', '');
  expect(number).toMatch(/^E2E-\d{6}$/);
  await expect(page.getByRole('img', { name: `Receipt number barcode ${number}` })).toBeVisible();

  // The web register prints through the browser.
  await page.evaluate('window.__printed = 0; window.print = () => { window.__printed += 1; }');
  await page.getByRole('button', { name: 'Print receipt' }).click();
  expect(await page.evaluate('window.__printed')).toBe(1);

  // In print media only the receipt shows, 80 mm wide.
  await page.emulateMedia({ media: 'print' });
  const paper = page.locator('.pos-receipt');
  await expect(paper).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Register' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print receipt' })).toBeHidden();
  const width = (await paper.boundingBox())?.width ?? 0;
  expect(Math.abs(width - (80 / 25.4) * 96)).toBeLessThan(2);
  await page.emulateMedia({ media: 'screen' });

  // Once the sale has synced, the customer gets it by email.
  await expect(page.getByTestId('pos-waiting')).toHaveText('0 waiting');
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  const to = `receipt-${Date.now()}@e2e.storewise.test`;
  await page.getByRole('textbox', { name: 'Email the receipt to' }).fill(to);
  await page.getByRole('button', { name: 'Email receipt' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Receipt sent to ${to}` })).toBeVisible();
  await expect.poll(async () => {
    const { messages } = listSchema.parse(await (await fetch(`${e2e.inboxUrl}/api/v1/messages`)).json());
    return messages.find((m) => m.To.some((r) => r.Address === to))?.Subject ?? '';
  }, { timeout: 15_000 }).toContain(number);
});
