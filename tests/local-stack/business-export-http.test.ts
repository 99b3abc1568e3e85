/**
 * The owner's business export over HTTP with supabase-js (docs/adr/0290): the business-export function builds the
 * ZIP on the local Edge Runtime, streams it to the exports bucket and hands out a signed URL. The ZIP holds a
 * manifest, one JSON Lines file per business table (counts equal the database's) and the CSV files; its
 * products.csv, read by the catalog import's own parser and written by its own functions into a fresh business,
 * rebuilds the catalog and the stock with equal counts and totals. Refused: a manager, another business's owner,
 * a stale password-only token of an owner with an authenticator.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, configure } from '@zip.js/zip.js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_CSV_COLUMNS, EXPORT_CSV_COLUMNS } from '../../supabase/functions/_shared/export/csv-formats';
import { parseCatalogCsv, toDatabaseRows } from '../../shared/features/catalog/catalog-csv';
import { fetchCatalogCurrency } from '../../shared/features/catalog/catalog-api';
import { parseMinorAmount } from '../../shared/lib/money';
import { checkCatalogFile, writeCatalogFile } from '../../shared/features/catalog/catalog-import';
import { parseCustomerCsv } from '../../shared/features/workspace/customers-csv';
import { importCustomerFile, previewCustomerFile, summarizeCustomerPreview } from '../../shared/features/workspace/customers-import';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { invoke, signedIn } from '../helpers/billing';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';
import { uniqueEmail } from './auth-helpers';

configure({ useWebWorkers: false });

let stack: StackHandle;
let owner: SupabaseClient;
let business = '';

// A cashier's own support ticket in the business: theirs and the admins' only (RLS), never the owner's export's.
const cashierTicket = 'Cashier private ticket: my payslip is wrong';
const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();
const count = async (sql: string, args: unknown[]) => Number((await stack.db.query<{ n: string }>(sql, args)).rows[0]?.n ?? 0);

async function exportOf(client: SupabaseClient, businessId: string) {
  const started = await invoke<{ export_id: string }>(client, 'business-export', { action: 'start', business_id: businessId });
  expect(started.status).toBe(200);
  const id = started.body.export_id;
  const seen: number[] = [];
  let status: { state: string; rows_done: number; rows_total: number } | null = null;
  await expect.poll(async () => {
    status = (await client.rpc('business_export_status', { _export_id: id })).data as typeof status;
    if (status) seen.push(status.rows_done);
    return status?.state;
  }, { timeout: 120_000, interval: 200 }).toBe('ready');
  const link = await invoke<{ url: string; name: string; expires_in: number }>(client, 'business-export', { action: 'download', export_id: id });
  expect(link.status).toBe(200);
  const response = await fetch(link.body.url);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const reader = new ZipReader(new Uint8ArrayReader(bytes));
  const files = new Map<string, string>();
  for (const entry of await reader.getEntries()) {
    if (!entry.directory) files.set(entry.filename, new TextDecoder().decode(await entry.getData!(new Uint8ArrayWriter())));
  }
  await reader.close();
  return { id, link: link.body, files, status: status!, seen };
}

beforeAll(async () => {
  stack = await startStack();
  owner = createTestClient(stack);
  await signedIn(owner, seedUsers.owner1.email, seedUsers.owner1.password);
  business = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1 order by created_at limit 1',
    [seedUsers.owner1.id])).rows[0]?.id ?? '';
  const { data: cashier, error } = await createTestClient(stack, 'service').auth.admin.createUser({
    email: uniqueEmail('export-cashier'), password: 'cashier-password-1', email_confirm: true });
  expect(error).toBeNull();
  await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'cashier')`, [business, cashier.user!.id]);
  await stack.db.query(`insert into public.support_tickets (user_id, business_id, subject, message) values ($1, $2, $3, $3)`,
    [cashier.user!.id, business, cashierTicket]);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the owner exports the business', () => {
  let files = new Map<string, string>();

  it('builds a ZIP in the exports bucket with a manifest and one JSON Lines file per business table, written to the trail', async () => {
    const result = await exportOf(owner, business);
    files = result.files;
    expect(result.link.expires_in).toBe(300);
    expect(result.link.url).toContain('/storage/v1/object/sign/exports/');
    expect(result.status.rows_done).toBe(result.status.rows_total);
    expect(result.status.rows_total).toBeGreaterThan(0);

    const manifest = JSON.parse(files.get('manifest.json') ?? '{}') as {
      schema_version: string; business: { id: string }; exported_at: string;
      tables: { table: string; rows: number; file: string }[]; csv: { file: string; columns: string[]; rows: number }[];
    };
    expect(manifest.schema_version).toBe('storewise-business-export/1');
    expect(manifest.business.id).toBe(business);
    expect(Date.now() - new Date(manifest.exported_at).getTime()).toBeLessThan(300_000);
    // Every public table with a business_id is there, with the database's row count and as many lines.
    const tables = (await stack.db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'business_id' and not a.attisdropped)
        order by 1`)).rows.map((row) => row.name);
    // Except the tables of one person's own rows (RLS shows them to that person and the admins only).
    const personal = ['support_tickets', 'billing_history', 'payment_methods'];
    expect(tables).toEqual(expect.arrayContaining(personal));
    expect(manifest.tables.map((t) => t.table).sort()).toEqual([...tables.filter((t) => !personal.includes(t)), 'businesses'].sort());
    // The cashier's ticket is nowhere in the ZIP.
    for (const [name, text] of files) expect(text, name).not.toContain('my payslip is wrong');
    for (const table of manifest.tables) {
      const lines = (files.get(table.file) ?? '').split('\n').filter(Boolean);
      expect(lines.length, table.table).toBe(table.rows);
      const expected = table.table === 'businesses' ? 1
        : await count(`select count(*) as n from public.${table.table} where business_id = $1`, [business]);
      expect(table.rows, table.table).toBe(expected);
      for (const line of lines.slice(0, 3)) {
        const row = JSON.parse(line) as { business_id?: string; id?: string };
        expect(row.business_id ?? row.id).toBe(business);
      }
    }
    expect(manifest.tables.find((t) => t.table === 'sales')?.rows).toBeGreaterThan(0);
    // The CSV files, with the columns of the one list the import reads.
    expect(manifest.csv.map((c) => c.file)).toEqual(['csv/products.csv', 'csv/stock.csv', 'csv/sales.csv', 'csv/customers.csv']);
    expect(files.get('csv/products.csv')?.split('\r\n')[0]).toBe(CATALOG_CSV_COLUMNS.join(','));
    expect(files.get('csv/sales.csv')?.split('\r\n')[0]).toBe(EXPORT_CSV_COLUMNS.sales.join(','));
    // Written to the trail, and the file is under the business's folder of the exports bucket.
    const { data: trail } = await owner.from('activity').select('kind, entity_id').eq('business_id', business).eq('kind', 'business.exported');
    expect(trail).toEqual([{ kind: 'business.exported', entity_id: business }]);
    expect(await count(`select count(*) as n from storage.objects where bucket_id = 'exports' and name like $1 || '/storewise-export-%.zip'`, [business])).toBe(1);
  });

  it('sales and customers CSVs hold every sale and customer with the same totals', async () => {
    const sales = (files.get('csv/sales.csv') ?? '').split('\r\n').slice(1).filter(Boolean);
    expect(sales.length).toBe(await count('select count(*) as n from public.sales where business_id = $1', [business]));
    // Money is written as the import reads it (4.20 in the sale's currency), so it is summed back in minor units.
    const totalColumn = EXPORT_CSV_COLUMNS.sales.indexOf('total');
    const currencyColumn = EXPORT_CSV_COLUMNS.sales.indexOf('currency');
    const csvTotal = sales.reduce((sum, line) => {
      const cells = line.split(',');
      const parsed = parseMinorAmount(cells[totalColumn] ?? '', cells[currencyColumn] ?? null, { allowNegative: true });
      if (!parsed.ok) throw new Error(`not an amount: ${cells[totalColumn]}`);
      return sum + Number(parsed.minor);
    }, 0);
    expect(csvTotal).toBe(await count('select coalesce(sum(total), 0) as n from public.sales where business_id = $1', [business]));
    const customers = (files.get('csv/customers.csv') ?? '').split('\r\n').slice(1).filter(Boolean);
    expect(customers.length).toBe(await count('select count(*) as n from public.customers where business_id = $1', [business]));
  });

  it('imports into a fresh business with the catalog import: equal counts and totals of items, prices, costs and stock', async () => {
    const email = uniqueEmail('export-import');
    const fresh = createTestClient(stack);
    const signUp = await createTestClient(stack, 'service').auth.admin.createUser({ email, password: 'fresh-owner-pass-1', email_confirm: true,
      user_metadata: { full_name: 'Fresh Owner', business_name: 'Fresh imports' } });
    expect(signUp.error).toBeNull();
    await signedIn(fresh, email, 'fresh-owner-pass-1');
    const target = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [signUp.data.user!.id])).rows[0]!.id;
    // A plan without an item limit, and one store for the opening stock.
    expect((await fresh.rpc('choose_plan', { _plan_name: 'Pro' })).error).toBeNull();
    const store = await fresh.from('stores').insert({ business_id: target, name: 'Main' }).select('id').single();
    expect(store.error).toBeNull();

    const parsed = parseCatalogCsv(new TextEncoder().encode(files.get('csv/products.csv')).buffer as ArrayBuffer);
    expect(parsed.errors).toEqual([]);
    // As the import panel does: money read in the catalog's currency, then checked and written.
    const currency = await fetchCatalogCurrency(fresh as unknown as StorewiseClient, target);
    const converted = toDatabaseRows(parsed.rows, currency);
    expect(converted.problems).toEqual([]);
    const importTarget = { businessId: target, storeId: store.data!.id, importId: crypto.randomUUID() };
    expect(await checkCatalogFile(fresh as unknown as StorewiseClient, importTarget, converted.rows)).toEqual([]);
    expect(await writeCatalogFile(fresh as unknown as StorewiseClient, importTarget, converted.rows)).toEqual({ written: converted.rows.length, errors: [] });

    const totals = async (id: string, firstStoreOnly: boolean) => (await stack.db.query<Record<string, string>>(
      `select (select count(*) from public.variants v join public.products p on p.id = v.product_id and p.archived_at is null
                where v.business_id = $1 and v.archived_at is null) as variants,
              (select count(distinct p.name) from public.products p where p.business_id = $1 and p.archived_at is null
                  and exists (select 1 from public.variants v where v.product_id = p.id and v.archived_at is null)) as products,
              (select coalesce(sum(v.price), 0) from public.variants v join public.products p on p.id = v.product_id and p.archived_at is null
                where v.business_id = $1 and v.archived_at is null) as prices,
              (select coalesce(sum(c.cost), 0) from public.variant_costs c join public.variants v on v.id = c.variant_id
                join public.products p on p.id = v.product_id and p.archived_at is null
                where c.business_id = $1 and v.archived_at is null) as costs,
              (select coalesce(sum(greatest(x.qty, 0)), 0) from (
                 select sum(b.qty) as qty from public.stock_balances b join public.variants v on v.id = b.variant_id and v.archived_at is null
                   join public.products p on p.id = v.product_id and p.archived_at is null
                  where b.business_id = $1 and ($2 is false or b.store_id = (select s.id from public.stores s where s.business_id = $1
                        and s.archived_at is null order by s.created_at, s.id limit 1))
                  group by b.variant_id) x) as stock`, [id, firstStoreOnly])).rows[0];
    const before = await totals(business, true);
    expect(Number(before?.variants)).toBeGreaterThan(0);
    expect(Number(before?.stock)).toBeGreaterThan(0);
    expect(await totals(target, false)).toEqual(before);

    // customers.csv with the customer import (ADR 0370): as many customers, and imported again nothing changes.
    const people = parseCustomerCsv(new TextEncoder().encode(files.get('csv/customers.csv')).buffer as ArrayBuffer);
    expect(people.errors).toEqual([]);
    expect(people.rows.length).toBeGreaterThan(0);
    const freshClient = fresh as unknown as StorewiseClient;
    expect(await importCustomerFile(freshClient, target, people.rows)).toEqual([]);
    const customerCount = 'select count(*) as n from public.customers where business_id = $1';
    expect(await count(customerCount, [target])).toBe(await count(customerCount, [business]));
    const again = await previewCustomerFile(freshClient, target, people.rows);
    expect(summarizeCustomerPreview(again)).toEqual({ added: 0, updated: 0, unchanged: people.rows.length });
  });
});

describe('who may export', () => {
  it('refuses a manager, through the function and the database alike', async () => {
    const manager = createTestClient(stack);
    const email = uniqueEmail('export-manager');
    const { data } = await createTestClient(stack, 'service').auth.admin.createUser({ email, password: 'manager-password-1', email_confirm: true });
    await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'manager')`, [business, data.user!.id]);
    await signedIn(manager, email, 'manager-password-1');
    expect(await invoke(manager, 'business-export', { action: 'start', business_id: business }))
      .toEqual({ status: 403, body: { error: 'Permission denied: only the owner exports the business.' } });
    expect((await manager.rpc('begin_business_export', { _business_id: business })).error?.code).toBe('42501');
    // Nor can a manager fetch the owner's finished export.
    const id = (await stack.db.query<{ id: string }>(`select id from private.business_exports where business_id = $1 and state = 'ready' limit 1`, [business])).rows[0]!.id;
    expect((await invoke(manager, 'business-export', { action: 'download', export_id: id })).status).toBe(404);
    expect((await manager.rpc('business_export_status', { _export_id: id })).data).toBeNull();
  });

  it('refuses another business’s owner as if the business did not exist, and bad input with a 400', async () => {
    const other = createTestClient(stack);
    await signedIn(other, seedUsers.owner2.email, seedUsers.owner2.password);
    expect(await invoke(other, 'business-export', { action: 'start', business_id: business }))
      .toEqual({ status: 404, body: { error: 'No such business.' } });
    const id = (await stack.db.query<{ id: string }>(`select id from private.business_exports where business_id = $1 limit 1`, [business])).rows[0]!.id;
    expect((await invoke(other, 'business-export', { action: 'download', export_id: id })).status).toBe(404);
    expect((await invoke(other, 'business-export', { action: 'start', business_id: 'not-a-uuid' })).status).toBe(400);
    expect((await invoke(other, 'business-export', { action: 'steal' })).status).toBe(400);
    // The service functions are not for signed-in users.
    expect((await other.rpc('business_export_rows', { _export_id: id, _table: 'customers' })).error).not.toBeNull();
  });

  it('refuses a stale password-only token once the owner has an authenticator, and serves the second factor', async () => {
    const owner2 = createTestClient(stack);
    await signedIn(owner2, seedUsers.owner2.email, seedUsers.owner2.password);
    const target = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1 order by created_at limit 1',
      [seedUsers.owner2.id])).rows[0]!.id;
    const { data: factor } = await owner2.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Owner phone' });
    expect((await owner2.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) })).error).toBeNull();
    // A password-only sign-in after the factor exists: a valid JWT, at aal1.
    const stale = createTestClient(stack);
    await signedIn(stale, seedUsers.owner2.email, seedUsers.owner2.password);
    const refused = await invoke(stale, 'business-export', { action: 'start', business_id: target });
    expect(refused.status).toBe(403);
    expect((await stale.rpc('begin_business_export', { _business_id: target })).error?.code).toBe('42501');
    const result = await exportOf(owner2, target);
    expect(result.files.has('manifest.json')).toBe(true);
    // The download link is refused to the stale token too.
    expect((await invoke(stale, 'business-export', { action: 'download', export_id: result.id })).status).toBe(403);
  });
});

describe('the CSV pages', () => {
  it('page on the real keys: small pages give every row once, in key order, and a key that is not one is refused', async () => {
    const job = (await stack.db.query<{ id: string }>(`insert into private.business_exports (business_id, requested_by, tables, rows_total)
      values ($1, $2, '[]', 0) returning id`, [business, seedUsers.owner1.id])).rows[0]!.id;
    try {
      const page = async (file: string, after: string | null, limit: number) => (await stack.db.query<{ key: string }>(
        `select r ->> 'key' as key from public.business_export_csv_rows($1, $2, $3, $4) r`, [job, file, after, limit])).rows.map((r) => r.key);
      const keyOrder = {
        products: `select v.id::text as key from public.variants v join public.products p on p.id = v.product_id and p.archived_at is null
                    where v.business_id = $1 and v.archived_at is null order by v.id`,
        stock: `select distinct b.store_id, b.variant_id, b.store_id::text || '/' || b.variant_id::text as key
                  from public.stock_balances b where b.business_id = $1 order by b.store_id, b.variant_id`,
        sales: 'select id::text as key from public.sales where business_id = $1 order by id',
        customers: 'select id::text as key from public.customers where business_id = $1 order by id',
      };
      for (const [file, sql] of Object.entries(keyOrder)) {
        const expected = (await stack.db.query<{ key: string }>(sql, [business])).rows.map((r) => r.key).slice(0, 60);
        expect(expected.length, file).toBeGreaterThan(5);
        const seen: string[] = [];
        let after: string | null = null;
        while (seen.length < expected.length) {
          const keys = await page(file, after, 7);
          if (keys.length === 0) break;
          seen.push(...keys);
          after = keys[keys.length - 1]!;
        }
        expect(seen.slice(0, expected.length), file).toEqual(expected);
        expect(await page(file, null, 60), file).toEqual(expected);
      }
      for (const [file, bad] of [['sales', 'zzz'], ['stock', business], ['customers', `${business}/${business}`]] as const) {
        await expect(page(file, bad, 5), `${file} after ${bad}`).rejects.toMatchObject({ code: '22023' });
      }
    } finally {
      await stack.db.query('delete from private.business_exports where id = $1', [job]);
    }
  });
});

describe('one export at a time', () => {
  it('holds the business\'s export lock, not its row, while it counts, and refuses a second export while one is built', async () => {
    const rolledBack = new Error('roll back');
    let seen: { advisory: boolean; rowLocked: boolean; second: string } | null = null;
    await stack.db.asRequest({ role: 'authenticated', readOnly: false,
      claims: { role: 'authenticated', sub: seedUsers.owner1.id, aal: 'aal1' } }, async (tx) => {
      await tx.query('select public.begin_business_export($1)', [business]);
      const [held] = (await tx.query<{ advisory: boolean; row_locked: boolean }>(
        `select exists (select 1 from pg_catalog.pg_locks l where l.locktype = 'advisory' and l.granted
                          and ((l.classid::bigint << 32) | l.objid::bigint)
                              = pg_catalog.hashtextextended('business_export:' || $1::text, 0)) as advisory,
                (select p.prosrc ~* 'for\\s+update' from pg_catalog.pg_proc p
                  where p.oid = 'public.begin_business_export(uuid)'::regprocedure) as row_locked`, [business])).rows;
      const second = await tx.query('select public.begin_business_export($1)', [business]).then(() => 'began', (e: Error) => e.message);
      seen = { advisory: held!.advisory, rowLocked: held!.row_locked, second };
      throw rolledBack;
    }).catch((e: unknown) => { if (e !== rolledBack) throw e; });
    expect(seen).toEqual({ advisory: true, rowLocked: false, second: expect.stringMatching(/being built/) });
  });
});
