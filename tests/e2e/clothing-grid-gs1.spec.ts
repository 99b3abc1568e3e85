import { expect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { approveByPin, openShift, posShop, scan, tender } from './support/pos-shop';
import { signInThroughUi } from './support/sign-in';
import { adminClient, type TestUser } from './support/users';

async function signedIn(user: TestUser) {
  const client = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw new Error(error.message);
  return client;
}

test('a 3 x 2 size and colour grid makes six variants, and a count is entered through the same grid', async ({ page }) => {
  test.setTimeout(150_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = await signedIn(shop.owner);
  expect((await owner.rpc('set_business_pack', { _business_id: shop.business, _pack: 'size_grid', _enabled: true })).error).toBeNull();

  await signInThroughUi(page, shop.owner.email, shop.owner.password);
  await page.goto('/dashboard/catalog');
  await page.getByRole('button', { name: 'New product' }).click();
  const form = page.getByRole('form', { name: 'New product' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Linen Shirt');
  await form.getByRole('textbox', { name: 'Price' }).fill('30');
  await form.getByRole('textbox', { name: 'Sizes' }).fill('S, M, L');
  await form.getByRole('textbox', { name: 'Colours' }).fill('Navy, White');
  await expect(form.getByTestId('grid-count')).toHaveText('6 variants');
  await expect(form.getByRole('textbox', { name: 'SKU of M / White' })).toHaveValue('LINENS-WHI-M');
  await form.getByRole('button', { name: 'Create product' }).click();
  await expect(form).toBeHidden();

  const variants = (await admin.from('variants').select('sku, option1, option2, price').eq('business_id', shop.business)
    .like('sku', 'LINENS-%').order('sku')).data ?? [];
  expect(variants).toEqual([
    { sku: 'LINENS-NAV-L', option1: 'L', option2: 'Navy', price: 3000 },
    { sku: 'LINENS-NAV-M', option1: 'M', option2: 'Navy', price: 3000 },
    { sku: 'LINENS-NAV-S', option1: 'S', option2: 'Navy', price: 3000 },
    { sku: 'LINENS-WHI-L', option1: 'L', option2: 'White', price: 3000 },
    { sku: 'LINENS-WHI-M', option1: 'M', option2: 'White', price: 3000 },
    { sku: 'LINENS-WHI-S', option1: 'S', option2: 'White', price: 3000 },
  ]);

  // Count through the grid: 3 of S / Navy and 2 of L / White.
  await page.goto('/dashboard/inventory/counts');
  const grid = page.getByRole('group', { name: 'Size grid' });
  await grid.getByRole('searchbox', { name: 'Find a style for the grid' }).fill('LINENS-NAV-S');
  await grid.getByRole('button', { name: 'Add LINENS-NAV-S' }).click();
  await grid.getByRole('textbox', { name: 'S / Navy' }).fill('3');
  await grid.getByRole('textbox', { name: 'L / White' }).fill('2');
  await grid.getByRole('button', { name: 'Count these (2)' }).click();
  await expect(page.getByRole('textbox', { name: 'Counted LINENS-NAV-S' })).toHaveValue('3');
  await expect(page.getByRole('textbox', { name: 'Counted LINENS-WHI-L' })).toHaveValue('2');
  await page.getByRole('button', { name: 'Review variance' }).click();
  await expect(page.getByTestId('count-summary')).toHaveText('2 of 2 counted lines differ from the stock on record.');
  await page.getByRole('button', { name: 'Post count' }).click();
  await expect(page.getByTestId('count-posted')).toContainText('Net change +5');
  const ids = new Map(((await admin.from('variants').select('id, sku').eq('business_id', shop.business)).data ?? []).map((v) => [v.id, v.sku]));
  const stock = ((await admin.from('stock_balances').select('variant_id, qty').eq('store_id', shop.store)).data ?? [])
    .filter((b) => ids.get(b.variant_id)?.startsWith('LINENS-')).map((b) => [ids.get(b.variant_id), Number(b.qty)]).sort();
  expect(stock).toEqual([['LINENS-NAV-S', 3], ['LINENS-WHI-L', 2]]);
});

test('the clothing pack brings its report: sell-through by collection, beside Products', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = await signedIn(shop.owner);
  const collection = (await owner.from('collections').insert({ business_id: shop.business, name: 'Summer Linen' }).select('id').single()).data;
  const shirt = (await admin.from('products').insert({ business_id: shop.business, name: 'Linen Shirt', collection_id: collection?.id ?? '' })
    .select('id').single()).data;
  for (const sku of ['LINEN-S', 'LINEN-M']) {
    const variant = (await admin.from('variants').insert({ business_id: shop.business, product_id: shirt?.id ?? '', sku, price: 3000 })
      .select('id').single()).data;
    expect((await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: variant?.id ?? '', _qty: 5 })).error).toBeNull();
  }

  // Without the pack the report is not offered (report-list.test.ts); with it, it is a tab of its own.
  expect((await owner.rpc('set_business_pack', { _business_id: shop.business, _pack: 'size_grid', _enabled: true })).error).toBeNull();
  await signInThroughUi(page, shop.owner.email, shop.owner.password);
  await page.goto('/dashboard/reports');
  // The first visit loads the reports' code on a busy machine: more than the default 10 s at times.
  await page.getByTestId('reports-tab-collections').click({ timeout: 30_000 });
  const row = page.getByTestId('report-collections-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Summer Linen');
  // One product, ten on hand at the end of the range and none sold: 0 % sell-through.
  await expect(row.locator('td').nth(2)).toHaveText('1');
  await expect(row.locator('td').nth(4)).toHaveText('10');
  await expect(row.locator('td').nth(5)).toHaveText('0.0 %');
});

test('a GS1 DataMatrix scanned at the register finds the item by GTIN and sells the lot it names', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = await signedIn(shop.owner);
  const product = (await admin.from('products').insert({ business_id: shop.business, name: 'Eye Drops', has_lots: true })
    .select('id').single()).data;
  const drops = (await admin.from('variants').insert({ business_id: shop.business, product_id: product?.id ?? '', sku: 'DROPS',
    price: 900 }).select('id').single()).data;
  expect((await owner.from('barcodes').insert({ business_id: shop.business, variant_id: drops?.id ?? '', code: '9506000134352',
    kind: 'ean13' })).error).toBeNull();
  // Two lots in stock: FEFO alone would pick L-EARLY; the scan names L-LATE.
  for (const [lot, expires] of [['L-EARLY', '2027-01-31'], ['L-LATE', '2027-06-30']]) {
    expect((await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: drops?.id ?? '', _qty: 5, _lot_number: lot,
      _expires_on: expires })).error).toBeNull();
  }
  const late = (await admin.from('lots').select('id').eq('variant_id', drops?.id ?? '').eq('lot_number', 'L-LATE').single()).data;

  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');
  // The register has the store's lots on the device (shop-packs.ts) before the scan.
  await expect.poll(() => page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('storewise-pos');
    open.onsuccess = () => {
      const get = open.result.transaction('meta').objectStore('meta').get('packs:' + ${JSON.stringify(shop.store)});
      get.onsuccess = () => { resolve(get.result ? Object.keys(get.result.value.lots || {}).length : 0); open.result.close(); };
    };
  })`)).toBe(2);
  // ]d2, GTIN 09506000134352, lot L-LATE ended by FNC1 (GS), expiry 2027-06-00 (the month's last day).
  await scan(page, ']d20109506000134352' + '10L-LATE\u001d17270600');
  await expect(page.getByTestId('line-detail')).toHaveText('Lot L-LATE exp. 2027-06-30');
  await expect(page.getByTestId('cart-total')).toHaveText('$9.00');
  await tender(page, 'Card');
  // "0 waiting" also shows before the sale is queued: wait for the sale itself.
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  const sales = await shop.sales();
  const lines = (await admin.from('sale_lines').select('variant_id, lot_id, qty').eq('sale_id', sales[0]?.id ?? '')).data ?? [];
  expect(lines).toEqual([{ variant_id: drops?.id, lot_id: late?.id, qty: 1 }]);
});

test('an expired lot scanned by a cashier waits for a manager\'s PIN, and the sale records who approved it', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await posShop();
  const admin = await adminClient();
  const owner = await signedIn(shop.owner);
  const product = (await admin.from('products').insert({ business_id: shop.business, name: 'Old Drops', has_lots: true })
    .select('id').single()).data;
  const drops = (await admin.from('variants').insert({ business_id: shop.business, product_id: product?.id ?? '', sku: 'OLDDROPS',
    price: 900 }).select('id').single()).data;
  expect((await owner.from('barcodes').insert({ business_id: shop.business, variant_id: drops?.id ?? '', code: '9506000134352',
    kind: 'ean13' })).error).toBeNull();
  expect((await owner.rpc('receive_stock', { _store_id: shop.store, _variant_id: drops?.id ?? '', _qty: 3, _lot_number: 'L-OLD',
    _expires_on: '2025-03-31' })).error).toBeNull();

  await signInThroughUi(page, shop.cashier.email, shop.cashier.password);
  await openShift(page, '0');
  await expect.poll(() => page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('storewise-pos');
    open.onsuccess = () => {
      const get = open.result.transaction('meta').objectStore('meta').get('packs:' + ${JSON.stringify(shop.store)});
      get.onsuccess = () => { resolve(get.result ? Object.keys(get.result.value.lots || {}).length : 0); open.result.close(); };
    };
  })`)).toBe(1);
  // Lot L-OLD, expiry 2025-03-31 (AI 17 250331).
  await scan(page, ']d20109506000134352' + '10L-OLD\u001d17250331');
  await expect(page.getByTestId('pos-expired-lot')).toContainText('Lot L-OLD expired on 2025-03-31: a manager approves selling it.');
  await expect(page.getByRole('textbox', { name: 'Amount tendered' })).toBeDisabled();
  await page.getByTestId('pos-expired-lot').getByRole('button', { name: 'Manager approval' }).click();
  await approveByPin(page, 'Test Manager', shop.pins.manager);
  await expect(page.getByText('Expired lot approved')).toBeVisible();
  await tender(page, 'Card');
  await expect.poll(async () => (await shop.sales()).length).toBe(1);
  const [sale] = await shop.sales();
  expect(sale?.review_reasons).toEqual([]);
  const approvals = (await admin.from('pos_approvals').select('purpose, approved_by, used_for').eq('used_for', sale?.id ?? '')).data;
  expect(approvals).toEqual([{ purpose: 'expired_lot', approved_by: shop.manager.id, used_for: sale?.id }]);
  const trail = (await admin.from('activity').select('after').eq('kind', 'sale.expired_lot_sold').eq('entity_id', sale?.id ?? '')).data;
  expect(trail?.[0]?.after).toMatchObject({ approved_by: shop.manager.id });
});
