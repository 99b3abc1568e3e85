import { expect, type Page } from '@playwright/test';
import { e2e } from '../../helpers/e2e-env';

/**
 * Pays on the local provider's TEST MODE checkout page (the stack's stand-in for Stripe Checkout) with one of
 * Stripe's test cards; `button` is the page's submit: "Start trial" with a trial, else "Subscribe".
 */
export async function payOnCheckout(page: Page, card: string, button: 'Start trial' | 'Subscribe'): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${e2e.paymentsPort}/checkout/cs_`), { timeout: 30_000 });
  await expect(page.getByRole('note')).toContainText('TEST MODE');
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: button }).click();
}
