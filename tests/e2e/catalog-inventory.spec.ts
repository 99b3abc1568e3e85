import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { e2e } from '../helpers/e2e-env';
import { adminClient, createConfirmedUser } from './support/users';
import { signInThroughUi } from './support/sign-in';

/**
 * Catalog and inventory (issue 12) through the screens, for a fresh Growth owner with two stores (no demo data
 * disturbed): a product with variants and a barcode, a purchase order ordered, emailed, received in two parts and
 * closed, a transfer received with damaged and missing, a count with a variance, and the stock history showing
 * each movement with the running balance; then a cashier of the business sees stock but no cost.
 */
async function growthShop() {
  const owner = await createConfirmedUser('stock');
  const admin = await adminClient();
  const plan = await admin.from('user_plans').insert({ user_id: owner.id, plan_name: 'Growth', price: 29.99, status: 'active' });
  if (plan.error) throw new Error(plan.error.message);
  const { data, error } = await admin.from('businesses').select('id').eq('owner_id', owner.id).single();
  if (error) throw new Error(error.message);
  const businessId = (data as { id: string }).id;
  for (const name of ['North', 'South']) {
    const store = await admin.from('stores').insert({ business_id: businessId, name });
    if (store.error) throw new Error(store.error.message);
  }
  return { owner, businessId };
}

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Inventory' }).getByRole('link', { name, exact: true });
const chooseStore = (page: Page, name: string) => page.getByRole('combobox', { name: 'Store' }).selectOption({ label: name });

/** At this width the page does not scroll sideways (wide tables scroll inside their own area). */
async function fitsWidth(page: Page, width: number) {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width, height: 800 });
  // Measured once the layout has settled after the resize (responsive values re-render a frame later).
  await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'))
    .toBeLessThanOrEqual(0);
  await page.setViewportSize(before);
}

test('an owner creates a product, orders and receives it, transfers, counts, and the history shows each movement; a cashier sees no cost', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const { owner, businessId } = await growthShop();
  await signInThroughUi(page, owner.email, owner.password);

  // A product with two variants (Size: S, M).
  await page.goto('/dashboard/catalog');
  await page.getByRole('button', { name: 'New product' }).click();
  const productForm = page.getByRole('form', { name: 'New product' });
  await productForm.getByRole('textbox', { name: /^Name/ }).fill('E2E Tee');
  await productForm.getByRole('textbox', { name: /^Price/ }).fill('12.50');
  await productForm.getByRole('textbox', { name: 'Option 1 name' }).fill('Size');
  await productForm.getByRole('textbox', { name: 'Option 1 values' }).fill('S, M');
  await expect(productForm.getByText('2 variants')).toBeVisible();
  await productForm.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('table', { name: 'Products' })).toContainText('E2ETEE-S');

  // Its edit page: a barcode with a wrong check digit is named, a right one is added.
  await page.getByRole('link', { name: 'E2E Tee' }).first().click();
  await expect(page.getByRole('heading', { name: 'E2E Tee' })).toBeVisible();
  await page.getByRole('textbox', { name: 'New barcode for S' }).fill('4006381333932');
  await page.getByRole('button', { name: 'Add barcode to S' }).click();
  await expect(page.getByText('The check digit is wrong: this code would end in 1')).toBeVisible();
  await page.getByRole('textbox', { name: 'New barcode for S' }).fill('4006381333931');
  await page.getByRole('button', { name: 'Add barcode to S' }).click();
  await expect(page.getByTestId('barcode').filter({ hasText: '4006381333931' })).toBeVisible();

  // A supplier with an email.
  await page.goto('/dashboard/inventory');
  await chooseStore(page, 'North');
  await tab(page, 'Suppliers').click();
  await page.getByRole('button', { name: 'New supplier' }).click();
  const supplierForm = page.getByRole('form', { name: 'Supplier' });
  await supplierForm.getByRole('textbox', { name: /^Name/ }).fill('E2E Supply');
  const supplierEmail = `orders-${businessId.slice(0, 8)}@supply.example`;
  await supplierForm.getByRole('textbox', { name: /^Email/ }).fill(supplierEmail);
  await supplierForm.getByRole('button', { name: 'Add supplier' }).click();
  await expect(page.getByRole('table', { name: 'Suppliers' })).toContainText('E2E Supply');

  // A purchase order: draft, ordered, emailed, received 6 then 4, closed.
  await tab(page, 'Purchase orders').click();
  await page.getByRole('button', { name: 'New purchase order' }).click();
  const poForm = page.getByRole('form', { name: 'New purchase order' });
  await poForm.getByRole('combobox', { name: /^Supplier/ }).selectOption({ label: 'E2E Supply' });
  await poForm.getByRole('searchbox', { name: 'Add an item to the order' }).fill('E2ETEE-S');
  await poForm.getByRole('button', { name: 'Add E2ETEE-S' }).click();
  await poForm.getByRole('textbox', { name: 'Quantity of E2E Tee / S (E2ETEE-S)' }).fill('10');
  await poForm.getByRole('textbox', { name: 'Unit cost of E2E Tee / S (E2ETEE-S)' }).fill('4.00');
  await poForm.getByRole('button', { name: 'Save draft' }).click();
  await page.waitForURL(/\/dashboard\/inventory\/purchase-orders\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('po-status')).toHaveText('Draft');
  await page.getByRole('button', { name: 'Mark ordered' }).click();
  await expect(page.getByTestId('po-status')).toHaveText('Ordered');
  await page.getByRole('button', { name: 'Email to supplier' }).click();
  await expect.poll(async () => {
    const inbox = (await (await fetch(`${e2e.inboxUrl}/api/v1/messages`)).json()) as { messages: { To: { Address: string }[]; Subject: string }[] };
    return inbox.messages.find((m) => m.To[0]?.Address === supplierEmail)?.Subject ?? '';
  }).toMatch(/^Purchase order [0-9A-F]{8} from /);

  await fitsWidth(page, 375);
  await page.getByRole('button', { name: 'Receive goods' }).click();
  const receiveForm = page.getByRole('form', { name: 'Receive goods' });
  await receiveForm.getByRole('textbox', { name: 'Received of E2E Tee / S' }).fill('6');
  await receiveForm.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByTestId('po-status')).toHaveText('Partly received');
  await expect(page.getByTestId('po-line-received')).toHaveText('6');
  await page.getByRole('button', { name: 'Receive goods' }).click();
  await expect(receiveForm.getByRole('textbox', { name: 'Received of E2E Tee / S' })).toHaveValue('4');
  await receiveForm.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByTestId('po-status')).toHaveText('Received');
  await page.getByRole('button', { name: 'Close order' }).click();
  await expect(page.getByTestId('po-status')).toHaveText('Closed');

  // A transfer of 3 to South, received there as 1 good, 1 damaged, 1 missing.
  await tab(page, 'Transfers').click();
  await page.getByRole('button', { name: 'Send stock' }).click();
  const sendForm = page.getByRole('form', { name: 'Send stock' });
  await sendForm.getByRole('combobox', { name: /^Send to/ }).selectOption({ label: 'South' });
  await sendForm.getByRole('searchbox', { name: 'Add an item to send' }).fill('E2ETEE-S');
  await sendForm.getByRole('button', { name: 'Add E2ETEE-S' }).click();
  await sendForm.getByRole('textbox', { name: 'Send of E2E Tee / S (E2ETEE-S)' }).fill('3');
  await sendForm.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('transfer-status')).toHaveText('On the way');
  await chooseStore(page, 'South');
  await page.getByTestId('transfer').getByRole('button', { name: 'Receive' }).click();
  const transferForm = page.getByRole('form', { name: 'Receive transfer' });
  await transferForm.getByRole('textbox', { name: 'Received of E2E Tee / S' }).fill('1');
  await transferForm.getByRole('textbox', { name: 'Damaged of E2E Tee / S' }).fill('1');
  await expect(transferForm.getByTestId('transfer-missing')).toHaveText('1');
  await transferForm.getByRole('button', { name: 'Receive transfer' }).click();
  await expect(page.getByTestId('transfer-status')).toHaveText('Received');
  await expect(page.getByTestId('transfer')).toContainText('received 1, damaged 1, missing 1');

  // A count in North: 5 on the shelf where the ledger says 7.
  await chooseStore(page, 'North');
  await tab(page, 'Counts').click();
  await page.getByRole('searchbox', { name: 'Add an item to count' }).fill('E2ETEE-S');
  await page.getByRole('button', { name: 'Add E2ETEE-S' }).click();
  await page.getByRole('textbox', { name: 'Counted E2ETEE-S' }).fill('5');
  await page.getByRole('button', { name: 'Review variance' }).click();
  await expect(page.getByTestId('count-summary')).toHaveText('1 of 1 counted line differ from the stock on record.');
  await expect(page.getByTestId('variance')).toHaveText('-2');
  await page.getByRole('button', { name: 'Post count' }).click();
  await expect(page.getByTestId('count-posted')).toContainText('Net change -2');

  // The stock history: every movement, newest first, with the running balance.
  await tab(page, 'Stock').click();
  await page.getByRole('searchbox', { name: 'Search stock' }).fill('E2ETEE-S');
  await expect(page.getByTestId('stock-row')).toHaveCount(1);
  await expect(page.getByTestId('stock-on-hand')).toHaveText('5');
  await page.getByRole('button', { name: 'History of E2ETEE-S' }).click();
  await expect(page.getByTestId('history-balance')).toHaveText(['5', '7', '10', '6']);
  await expect(page.getByTestId('history-change')).toHaveText(['-2', '-3', '+4', '+6']);
  await expect(page.getByTestId('history-what')).toHaveText([/^count/, /^transfer out/, /^received/, /^received/]);
  await fitsWidth(page, 375);

  // A cashier of the business: stock of the stores, no cost anywhere, no order screens.
  const cashier = await createConfirmedUser('cashier', 'Casey Cashier');
  const admin = await adminClient();
  const joined = await admin.from('business_members').insert({ business_id: businessId, user_id: cashier.id, role: 'cashier' });
  if (joined.error) throw new Error(joined.error.message);
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const till = await context.newPage();
  await signInThroughUi(till, cashier.email, cashier.password);
  // The business this member works in (the switcher's remembered choice); a string so no DOM typings are needed.
  await till.evaluate(`window.localStorage.setItem(${JSON.stringify(`storewise.workspace.${cashier.id}`)}, ${JSON.stringify(businessId)})`);
  await till.goto('/dashboard/inventory');
  await chooseStore(till, 'North');
  await till.getByRole('searchbox', { name: 'Search stock' }).fill('E2ETEE-S');
  await expect(till.getByTestId('stock-row')).toHaveCount(1);
  await expect(till.getByTestId('stock-on-hand')).toHaveText('5');
  await expect(tab(till, 'Purchase orders')).toHaveCount(0);
  await expect(till.getByRole('button', { name: 'History of E2ETEE-S' })).toHaveCount(0);
  await till.goto('/dashboard/inventory/purchase-orders');
  await expect(till.getByText('your role does not include it')).toBeVisible();
  await till.goto('/dashboard/catalog');
  await expect(till.getByRole('table', { name: 'Products' })).toContainText('E2ETEE-S');
  await expect(till.getByRole('link', { name: 'E2E Tee' })).toHaveCount(0);
  const download = till.waitForEvent('download');
  await till.getByRole('button', { name: 'Export CSV' }).click();
  const header = readFileSync((await (await download).path())!, 'utf8').split('\r\n')[0];
  expect(header).toBe('product_name,unit,category,brand,option_name,option_value,sku,price,barcode,image_url');
  await context.close();
});

test('an owner edits a draft purchase order\'s lines, and counts a lot found on the shelf that the store did not hold', async ({ page }) => {
  test.setTimeout(180_000);
  const { owner, businessId } = await growthShop();
  const admin = await adminClient();
  const insert = async (table: string, row: Record<string, unknown>) => {
    const { data, error } = await admin.from(table).insert(row).select('id').single();
    if (error) throw new Error(error.message);
    return (data as { id: string }).id;
  };
  const soap = await insert('products', { business_id: businessId, name: 'E2E Soap' });
  const soapVariant = await insert('variants', { business_id: businessId, product_id: soap, sku: 'E2ESOAP', price: 300 });
  const drops = await insert('products', { business_id: businessId, name: 'E2E Drops', has_lots: true, requires_expiry: true });
  await insert('variants', { business_id: businessId, product_id: drops, sku: 'E2EDROPS', price: 900 });
  const supplier = await insert('suppliers', { business_id: businessId, name: 'E2E Drops Supply' });
  const north = await admin.from('stores').select('id').eq('business_id', businessId).eq('name', 'North').single();
  if (north.error) throw new Error(north.error.message);
  const po = await insert('purchase_orders', { business_id: businessId, store_id: (north.data as { id: string }).id, supplier_id: supplier });
  await insert('purchase_order_lines', { business_id: businessId, purchase_order_id: po, variant_id: soapVariant, qty_ordered: 5, unit_cost: 200 });
  await signInThroughUi(page, owner.email, owner.password);

  // The draft: 5 soap at 2.00 becomes 8 at 2.50, plus 3 drops at 1.20; then the soap is removed.
  await page.goto(`/dashboard/inventory/purchase-orders/${po}`);
  await expect(page.getByTestId('po-status')).toHaveText('Draft');
  await page.getByRole('button', { name: 'Edit lines' }).click();
  const form = page.getByRole('form', { name: 'Edit draft lines' });
  await form.getByRole('textbox', { name: 'Quantity of E2E Soap (E2ESOAP)' }).fill('8');
  await form.getByRole('textbox', { name: 'Unit cost of E2E Soap (E2ESOAP)' }).fill('2.50');
  await form.getByRole('searchbox', { name: 'Add an item to the draft' }).fill('E2EDROPS');
  await form.getByRole('button', { name: 'Add E2EDROPS' }).click();
  await form.getByRole('textbox', { name: 'Quantity of E2E Drops (E2EDROPS)' }).fill('1.5');
  await form.getByRole('button', { name: 'Save lines' }).click();
  await expect(form.getByText('Enter a whole number of pieces')).toBeVisible();
  await form.getByRole('textbox', { name: 'Quantity of E2E Drops (E2EDROPS)' }).fill('3');
  await form.getByRole('textbox', { name: 'Unit cost of E2E Drops (E2EDROPS)' }).fill('1.20');
  await form.getByRole('button', { name: 'Save lines' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('po-line')).toHaveCount(2);
  await expect(page.getByTestId('po-sheet')).toContainText('Total 23.60');
  await page.getByRole('button', { name: 'Edit lines' }).click();
  await form.getByRole('button', { name: 'Remove E2E Soap (E2ESOAP)' }).click();
  await form.getByRole('button', { name: 'Save lines' }).click();
  await expect(page.getByTestId('po-line')).toHaveCount(1);
  await expect(page.getByTestId('po-sheet')).toContainText('Total 3.60');
  const trail = await admin.from('activity').select('kind').eq('business_id', businessId).eq('kind', 'purchase_order.lines_edited');
  expect(trail.data).toHaveLength(2);

  // A count in North: the drops are not on record there, so the sheet has no line; a found lot gets one.
  await page.goto('/dashboard/inventory');
  await chooseStore(page, 'North');
  await tab(page, 'Counts').click();
  await page.getByRole('searchbox', { name: 'Add an item to count' }).fill('E2EDROPS');
  await page.getByRole('button', { name: 'Add E2EDROPS' }).click();
  await expect(page.getByText('0 lines on the sheet; 0 counted.')).toBeVisible();
  const found = page.getByRole('group', { name: 'Found a lot' });
  await found.getByRole('searchbox', { name: 'Item of the found lot' }).fill('E2EDROPS');
  await found.getByRole('button', { name: 'Add E2EDROPS' }).click();
  await found.getByRole('textbox', { name: /^Lot number/ }).fill('FOUND-7');
  await found.getByLabel('Expiry date').fill('2031-01-31');
  await found.getByRole('button', { name: 'Add lot to the count' }).click();
  await page.getByRole('textbox', { name: 'Counted E2EDROPS lot FOUND-7' }).fill('4');
  await page.getByRole('button', { name: 'Review variance' }).click();
  await expect(page.getByTestId('variance')).toHaveText('+4');
  await page.getByRole('button', { name: 'Post count' }).click();
  await expect(page.getByTestId('count-posted')).toContainText('Net change +4');

  // The next count sheet holds the lot, with its expiry on record.
  await page.getByRole('searchbox', { name: 'Add an item to count' }).fill('E2EDROPS');
  await page.getByRole('button', { name: 'Add E2EDROPS' }).click();
  await expect(page.getByRole('textbox', { name: 'Counted E2EDROPS lot FOUND-7' })).toBeVisible();
  const lot = await admin.from('lots').select('lot_number, expires_on').eq('business_id', businessId);
  expect(lot.data).toEqual([{ lot_number: 'FOUND-7', expires_on: '2031-01-31' }]);
});
