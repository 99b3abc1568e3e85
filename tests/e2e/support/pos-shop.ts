import { expect, type Page } from '@playwright/test';
import { deriveApiKeys } from '../../../supabase/local/keys/api-keys';
import { e2e } from '../../helpers/e2e-env';
import { createNodeSupabaseClient } from '../../helpers/node-supabase-client';
import { adminClient, createConfirmedUser, type TestUser } from './users';

type Query = PromiseLike<{ data: unknown; error: { message: string } | null }>;

async function one(query: Query): Promise<string> {
  const { data, error } = await query;
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}

/**
 * A fresh shop for the register's specs, so no demo data is disturbed: an owner with one store (no tax), one
 * register (prefix E2E), a scannable soap (12.50, EAN 4006381333931) and a towel (20.00, SKU TOWEL), plus a
 * cashier and a manager of the business, each with a till PIN (`pins`) the owner set (ADR 0300).
 */
export async function posShop() {
  const owner = await createConfirmedUser('pos');
  const cashier = await createConfirmedUser('cashier', 'Test Cashier');
  const manager = await createConfirmedUser('manager', 'Test Manager');
  const admin = await adminClient();
  const business = await one(admin.from('businesses').select('id').eq('owner_id', owner.id).single());
  for (const [user, role] of [[cashier, 'cashier'], [manager, 'manager']] as [TestUser, string][]) {
    const { error } = await admin.from('business_members').insert({ business_id: business, user_id: user.id, role, all_stores: true });
    if (error) throw new Error(error.message);
  }
  const store = await one(admin.from('stores').insert({ business_id: business, name: 'Till Test', default_tax_rate: 0 }).select('id').single());
  const register = await one(admin.from('registers').insert({ business_id: business, store_id: store, name: 'Front',
    receipt_prefix: 'E2E' }).select('id').single());
  const soapProduct = await one(admin.from('products').insert({ business_id: business, name: 'Scan Soap' }).select('id').single());
  const soap = await one(admin.from('variants').insert({ business_id: business, product_id: soapProduct, sku: 'SOAP', price: 1250 })
    .select('id').single());
  const towelProduct = await one(admin.from('products').insert({ business_id: business, name: 'Bath Towel' }).select('id').single());
  await one(admin.from('variants').insert({ business_id: business, product_id: towelProduct, sku: 'TOWEL', price: 2000 }).select('id').single());
  // The barcode's check-digit rule runs a private function the API roles may call: insert it as the owner.
  const asOwner = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const signedIn = await asOwner.auth.signInWithPassword({ email: owner.email, password: owner.password });
  if (signedIn.error) throw new Error(signedIn.error.message);
  await one(asOwner.from('barcodes').insert({ business_id: business, variant_id: soap, code: '4006381333931', kind: 'ean13' })
    .select('id').single());
  const setPin = async (userId: string, pin: string) => {
    const { error } = await asOwner.rpc('set_staff_pin', { _business_id: business, _user_id: userId, _pin: pin });
    if (error) throw new Error(error.message);
  };
  // Foreign cash (ADR 0395): a rate into the store's USD, set by the owner through the one function that writes rates.
  const setExchangeRate = async (currency: string, rate: string) => {
    const { data, error } = await asOwner.rpc('set_exchange_rate', { _business_id: business, _currency: currency,
      _base_currency: 'USD', _rate: Number(rate) });
    if (error) throw new Error(error.message);
    return (data as { id: string }).id;
  };
  const pins = { cashier: '4826', manager: '7391' };
  await setPin(cashier.id, pins.cashier);
  await setPin(manager.id, pins.manager);
  const rows = async <T>(query: PromiseLike<{ data: T[] | null }>) => (await query).data ?? [];
  return {
    owner, cashier, manager, business, store, register, pins, setPin, setExchangeRate,
    sales: () => rows(admin.from('sales').select('id, total, discount_total, receipt_number, approval_id, tendered_total, change_total, cashier_id, till_switch_id, review_reasons')
      .eq('register_id', register).order('receipt_number')),
    tenders: (saleId: string) => rows(admin.from('sale_tenders').select('kind, amount, tendered, change').eq('sale_id', saleId).order('kind')),
    refunds: () => rows(admin.from('refunds').select('id, total, tender_kind, review_reasons, approval_id').eq('register_id', register)),
    shifts: () => rows(admin.from('shifts').select('id, closed_at, expected_cash, counted_total, difference').eq('register_id', register)),
    stock: async () => Number((await admin.from('stock_balances').select('qty').eq('store_id', store).eq('variant_id', soap).maybeSingle())
      .data?.qty ?? 0),
  };
}

/**
 * Types like a keyboard-wedge scanner: the characters and Enter as key events within a few milliseconds, with no
 * field focused. Dispatched in the page in one go (a real scanner is hardware; on two loaded CPU cores Playwright's
 * own typing can space keys further apart than any scanner would).
 */
export async function scan(page: Page, code: string) {
  await page.getByRole('heading', { name: 'Register' }).click();
  // A string so this file needs no DOM typings (the e2e project compiles for Node).
  await page.evaluate(`for (const key of [...${JSON.stringify(code)}, 'Enter'])
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));`);
}

/**
 * The first scan after the register opened: a scan before the register's copy of the catalog has arrived finds
 * nothing (and adds nothing), so it scans again until the cart holds the item.
 */
export async function scanFirst(page: Page, code: string) {
  await expect(async () => {
    await scan(page, code);
    await expect(page.getByTestId('cart-qty')).toHaveText('1', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Chooses the shop's register and opens a shift with a starting float. */
export async function openShift(page: Page, float: string) {
  await page.goto('/dashboard/pos');
  await page.getByRole('combobox', { name: 'Register' }).selectOption({ label: 'Till Test: Front' });
  await page.getByRole('textbox', { name: 'Starting float' }).fill(float);
  await page.getByRole('button', { name: 'Open shift' }).click();
  await page.getByRole('textbox', { name: 'Scan or search' }).waitFor();
  // The catalog on the device and up to date (the packed catalog's pos-catalog-ready mark, ADR 0445): a scan
  // before it reads the copy as it was, which on a first visit is empty. Under Playwright's clock (page.clock)
  // performance keeps no marks at all: a probe mark tells, and there the spec waits in its own way.
  await page.waitForFunction(() => {
    performance.mark('storewise-e2e-probe');
    if (performance.getEntriesByName('storewise-e2e-probe').length === 0) return true;
    return performance.getEntriesByName('pos-catalog-ready').length > 0;
  });
}

/** A manager approves by choosing their name and typing their PIN in the approval form. */
export async function approveByPin(page: Page, managerName: string, pin: string) {
  const approval = page.getByRole('form', { name: 'Manager approval' });
  await approval.getByRole('combobox', { name: 'Who' }).selectOption({ label: `${managerName} (manager)` });
  await approval.getByLabel('PIN').fill(pin);
  await approval.getByRole('button', { name: 'Approve' }).click();
}

/** Pays what remains: an amount (or empty for the rest) as cash, card or other. */
export async function tender(page: Page, kind: 'Cash' | 'Card' | 'Other', amount = '') {
  await page.getByRole('textbox', { name: 'Amount tendered' }).fill(amount);
  await page.getByRole('group', { name: 'Payment' }).getByRole('button', { name: new RegExp(`^${kind}`) }).click();
}
