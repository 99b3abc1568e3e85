import { readFileSync } from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { deriveApiKeys } from '../../supabase/local/keys/api-keys';
import { e2e } from '../helpers/e2e-env';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';
import { demo } from './support/users';
import { signInThroughUi } from './support/sign-in';

/** owner1 signed in through supabase-js in Node: what the database answers, to compare with the screen. */
async function owner1Api() {
  const client = createNodeSupabaseClient(e2e.apiUrl, (await deriveApiKeys(e2e.jwtSecret)).anonKey);
  const { error } = await client.auth.signInWithPassword({ email: demo.owner1.email, password: demo.owner1.password });
  if (error) throw new Error(error.message);
  const { data } = await client.rpc('my_workspaces');
  return { client, businessId: (data as { id: string; role: string }[]).find((w) => w.role === 'owner')!.id };
}

// The e2e stack shares two cores with other test runs: allow slow loads rather than fail on them.
test.describe.configure({ timeout: 300_000 });
const expect = baseExpect.configure({ timeout: 60_000 });

const csvOf = (path: string) => readFileSync(path, 'utf8').trim().split('\r\n').map((line) => line.split(','));

/** Reports and the admin Billing Overview (issue 14), on the seed's demo sales and plans. */

test('an owner filters the sales report to one store and a range, exports CSV, and the CSV totals equal the screen', async ({ page }) => {
  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard/reports');
  await expect(page.getByRole('heading', { name: 'Sales report' })).toBeVisible();
  const store = page.getByTestId('reports-store');
  const firstStore = await store.locator('option').nth(1).getAttribute('value');
  await store.selectOption(firstStore ?? '');
  const today = new Date();
  const from = new Date(today.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('reports-from').fill(from);
  await expect(page.getByTestId('reports-row').first()).toBeVisible();
  const screenGross = (await page.getByTestId('reports-total-gross').textContent())?.trim() ?? '';
  expect(Number(screenGross)).toBeGreaterThan(0);

  const download = page.waitForEvent('download');
  await page.getByTestId('reports-export').click();
  const csv = readFileSync((await (await download).path())!, 'utf8').trim().split('\r\n');
  const header = csv[0]!.split(',');
  const grossColumn = header.indexOf('Gross');
  const storeColumn = header.indexOf('Store');
  const rows = csv.slice(1).map((line) => line.split(','));
  expect(rows.length).toBe(await page.getByTestId('reports-row').count());
  expect(new Set(rows.map((r) => r[storeColumn])).size).toBe(1);
  const csvGross = rows.reduce((sum, r) => sum + Math.round(Number(r[grossColumn]) * 100), 0);
  expect(csvGross).toBe(Math.round(Number(screenGross) * 100));
});

test('the admin Billing Overview shows MRR and the trial ending this week', async ({ page }) => {
  await signInThroughUi(page, demo.admin.email, demo.admin.password);
  await page.goto('/admin/billing');
  await expect(page.getByRole('heading', { name: 'Billing Overview' })).toBeVisible();
  await expect(page.getByTestId('stat-mrr-value')).toHaveText(/^\$[\d,]+\.\d{2}$/);
  await expect(page.getByTestId('billing-plan-row').first()).toBeVisible();
  await expect(page.getByTestId('billing-trial-row').first()).toBeVisible();
});

test('the Overview shows the business: figures equal the database, the 30-day chart draws', async ({ page }) => {
  const { client, businessId } = await owner1Api();
  const { data, error } = await client.rpc('business_overview', { _business_id: businessId });
  expect(error).toBeNull();
  const o = data as { today: { transactions: number }; daily: { sales: number }[]; low_stock_count: number; top_products: { description: string }[] };
  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard');
  const overview = page.getByTestId('business-overview');
  await expect(overview.getByRole('heading', { name: 'Your business today' })).toBeVisible();
  await expect(page.getByTestId('overview-transactions-value')).toHaveText(String(o.today.transactions));
  const total30 = o.daily.reduce((a, d) => a + Number(d.sales), 0) / 100;
  expect(total30).toBeGreaterThan(0);
  await expect(page.getByTestId('overview-30-total')).toContainText(total30.toLocaleString('en-US', { style: 'currency', currency: 'USD' }));
  await expect(page.getByTestId('overview-sales-chart').locator('svg .recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByRole('region', { name: `Low stock (${o.low_stock_count})` })).toBeVisible();
  await expect(page.getByTestId('overview-top')).toContainText(o.top_products[0]!.description);
  await expect(page.getByTestId('overview-waiting-count')).toHaveText('0');
});

test('reports: the sales chart draws, a breakdown by category exports the totals on screen, Z reports and insights load', async ({ page }) => {
  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard/reports');
  await expect(page.getByTestId('reports-row').first()).toBeVisible();
  await expect(page.getByTestId('reports-sales-chart').locator('svg .recharts-bar-rectangle').first()).toBeVisible();

  await page.getByTestId('reports-tab-breakdown').click();
  await page.getByTestId('reports-dimension').selectOption('category');
  await expect(page.getByRole('heading', { name: 'Sales by category' })).toBeVisible();
  const rows = page.getByTestId('report-breakdown-row');
  await expect(rows.first()).toBeVisible();
  const totals = page.getByTestId('report-breakdown-totals').locator('td');
  const screenNet = Number((await totals.nth(4).textContent())?.trim());
  expect(screenNet).toBeGreaterThan(0);
  const download = page.waitForEvent('download');
  await page.getByTestId('report-breakdown-export').click();
  const csv = csvOf((await (await download).path())!);
  const net = csv[0]!.indexOf('Net sales');
  expect(csv.length - 1).toBe(await rows.count());
  expect(csv.slice(1).reduce((a, r) => a + Math.round(Number(r[net]) * 100), 0)).toBe(Math.round(screenNet * 100));

  await page.getByTestId('reports-tab-shifts').click();
  await expect(page.getByTestId('report-shifts-row').first()).toBeVisible();
  await expect(page.getByTestId('report-over-short-cashier-row')).toHaveCount(1);

  await page.getByTestId('reports-tab-inventory').click();
  await expect(page.getByTestId('report-valuation-row').first()).toBeVisible();
  await expect(page.getByTestId('report-movements-row').first()).toBeVisible();

  await page.getByTestId('reports-tab-insights').click();
  await expect(page.getByTestId('insights-choose-store')).toBeVisible();
  const store = page.getByTestId('reports-store');
  await store.selectOption((await store.locator('option').nth(1).getAttribute('value')) ?? '');
  await expect(page.getByTestId('report-reorder-row').first()).toBeVisible();
  // Three weeks of demo history: too short to measure a forecast, so none is shown and the plan says so.
  await expect(page.getByTestId('report-reorder-row').first()).toContainText('not shown');
  await expect(page.getByTestId('report-slow').getByRole('heading', { name: 'Slow movers' })).toBeVisible();
});

test('an owner reviews a sale an offline register kept at a stale price, and the review stays on record', async ({ page }) => {
  const { client } = await owner1Api();
  const { data: registers } = await client.from('registers').select('id, receipt_prefix').eq('receipt_prefix', 'DT2');
  // 45 days back: outside the 30-day ranges the other report tests compare.
  const occurredAt = new Date(Date.now() - 45 * 86_400_000).toISOString();
  // An item the demo shop sells (the seeded sales hold items without lots).
  const { data: sold } = await client.from('sale_lines').select('variant_id').limit(1);
  const { data: variants } = await client.from('variants').select('id, price')
    .eq('id', (sold as { variant_id: string }[])[0]!.variant_id);
  const variant = variants?.[0] as { id: string; price: number } | undefined;
  const { data: sale, error } = await client.rpc('post_sale', { _payload: {
    id: crypto.randomUUID(), register_id: (registers as { id: string }[])[0]!.id, offline: true, occurred_at: occurredAt,
    lines: [{ variant_id: variant!.id, qty: 1, unit_price: variant!.price + 1 }],
    tenders: [{ kind: 'card', amount: 1 }],
  } });
  expect(error).toBeNull();
  const receipt = (sale as { receipt_number: string }).receipt_number;

  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard/reports');
  await page.getByTestId('reports-tab-flagged').click();
  const card = page.getByTestId('flagged-sale').filter({ hasText: receipt });
  await expect(card).toContainText('line 1: sold at a price the catalog no longer had');
  await expect(card).toContainText('no open shift on the register');
  await card.getByRole('button', { name: 'Mark reviewed' }).click();
  await expect(card.getByText('Write what you found.')).toBeVisible();
  await card.getByLabel('What you found').fill('Shelf label was out of date; price confirmed.');
  await card.getByRole('button', { name: 'Mark reviewed' }).click();
  await expect(page.getByTestId('flagged-sale').filter({ hasText: receipt })).toHaveCount(0);
  await page.getByText('Show reviewed').click();
  await expect(page.getByTestId('flagged-sale').filter({ hasText: receipt }))
    .toContainText('Olivia Grocer on');
});

test('an owner sees the refunds taken on offline terms beside the flagged sales, each with the sale it refunds (ADR 0171)', async ({ page }) => {
  const { client, businessId } = await owner1Api();
  const { data } = await client.rpc('flagged_refunds', { _business_id: businessId });
  const flagged = data as { sale_receipt_number: string; review_reasons: string[] }[];
  // The demo's two refunds arrived from the register's outbox after their shifts closed.
  expect(flagged.length).toBeGreaterThanOrEqual(1);
  const first = flagged[0]!;

  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard/reports');
  await page.getByTestId('reports-tab-flagged').click();
  const section = page.getByTestId('report-flagged-refunds');
  await expect(section.getByRole('heading', { name: 'Refunds to review' })).toBeVisible();
  const card = section.getByTestId('flagged-refund').filter({ hasText: first.sale_receipt_number });
  await expect(card.getByTestId('flagged-refund-sale')).toContainText(`Of sale ${first.sale_receipt_number}`);
  await expect(card).toContainText('arrived after its shift was closed');
  await card.getByLabel('What you found').fill('Customer returned it the next morning; receipt checked.');
  await card.getByRole('button', { name: 'Mark reviewed' }).click();
  await expect(section.getByTestId('flagged-refund').filter({ hasText: first.sale_receipt_number })).toHaveCount(0);
  await section.getByText('Include reviewed refunds').click();
  await expect(section.getByTestId('flagged-refund').filter({ hasText: first.sale_receipt_number }))
    .toContainText('Customer returned it the next morning');
});

test('one profit: the Overview, the Sales report and the Breakdown show the same gross profit for today (ADR 0172)', async ({ page }) => {
  const amount = (text: string | null) => Number((text ?? '').replace(/[^0-9.-]/g, ''));
  // The demo shop's day is New York's; today has sales and a refund that came back to the shelf.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
  await signInThroughUi(page, demo.owner1.email, demo.owner1.password);
  await page.goto('/dashboard');
  const overview = amount(await page.getByTestId('overview-profit-value').textContent());
  expect(overview).not.toBe(0);

  await page.goto('/dashboard/reports');
  await page.getByTestId('reports-from').fill(today);
  await page.getByTestId('reports-to').fill(today);
  await expect(page.getByTestId('reports-row').first()).toBeVisible();
  await expect(page.getByTestId('reports-total-profit')).toHaveText(overview.toFixed(2));

  await page.getByTestId('reports-tab-breakdown').click();
  await expect(page.getByRole('heading', { name: 'Sales by store' })).toBeVisible();
  const headers = await page.getByTestId('report-breakdown-totals').locator('xpath=ancestor::table//th').allTextContents();
  const cells = page.getByTestId('report-breakdown-totals').locator('td');
  await expect(cells.nth(headers.indexOf('Gross profit'))).toHaveText(overview.toFixed(2));
});
