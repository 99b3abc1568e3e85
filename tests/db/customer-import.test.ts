/**
 * Issue 26: the customers CSV imports back (supabase/migrations/20261203080000_workspace_customer_import.sql,
 * docs/adr/0370), over HTTP with supabase-js: the preview says what is created and what changes (old -> new); the
 * write is all or nothing, by email, in the trail; another business's customer is never touched; cashiers are
 * refused; the Customers page's export imports back as "nothing changes", and one edited row is exactly one change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customersCsv, fetchCustomersForExport, parseCustomerCsv } from '../../shared/features/workspace/customers-csv';
import { importCustomerFile, previewCustomerFile, summarizeCustomerPreview } from '../../shared/features/workspace/customers-import';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 180_000);

afterAll(async () => {
  await w?.stack.stop();
});

type Row = Record<string, string>;
type Who = 'owner' | 'manager' | 'cashier' | 'other';
const preview = (who: Who, rows: Row[], business = w.businessA) =>
  w.clients[who].rpc('preview_customer_import', { _business_id: business, _rows: rows });
const write = (who: Who, rows: Row[], business = w.businessA) =>
  w.clients[who].rpc('import_customers', { _business_id: business, _rows: rows });

async function customers(business: string, email: string) {
  return w.rows<{ id: string; name: string; phone: string | null; email: string | null }>(
    `select id, name, phone, email from public.customers where business_id = $1 and lower(email) = lower($2) order by created_at`, [business, email]);
}
const count = async (business: string) =>
  (await w.rows<{ n: number }>('select count(*)::int as n from public.customers where business_id = $1', [business]))[0]?.n ?? -1;

describe('customer import', () => {
  it('previews new, update (old -> new) and unchanged rows, then writes only that, by email, in the trail', async () => {
    expect(await write('owner', [
      { name: 'Ada Import', email: 'ada@import.test', phone: '5550100001' },
      { name: 'Ben Import', email: 'ben@import.test', phone: '5550100002' },
    ])).toMatchObject({ error: null, data: [] });
    const file: Row[] = [
      { name: 'Ada Lovelace', email: 'ADA@import.test', phone: '5550100009' },
      { name: 'Ben Import', email: 'ben@import.test', phone: '' },
      { name: 'Cy Import', email: 'cy@import.test', phone: '' },
    ];
    const seen = await preview('manager', file);
    expect(seen.error).toBeNull();
    expect(seen.data).toEqual({
      problems: [],
      rows: [
        { row_index: 1, action: 'update', changes: { name: { old: 'Ada Import', new: 'Ada Lovelace' }, phone: { old: '5550100001', new: '5550100009' } } },
        // An empty cell changes nothing.
        { row_index: 2, action: 'same', changes: {} },
        { row_index: 3, action: 'new', changes: {} },
      ],
    });
    expect(await write('manager', file)).toMatchObject({ error: null, data: [] });
    expect(await customers(w.businessA, 'ada@import.test')).toMatchObject([{ name: 'Ada Lovelace', phone: '5550100009', email: 'ada@import.test' }]);
    expect(await customers(w.businessA, 'ben@import.test')).toMatchObject([{ name: 'Ben Import', phone: '5550100002' }]);
    expect(await customers(w.businessA, 'cy@import.test')).toMatchObject([{ name: 'Cy Import', phone: null }]);
    const trail = await w.rows<{ kind: string }>(`select kind from public.activity where business_id = $1 and actor_id = $2
      and kind like 'customer.%' order by kind`, [w.businessA, w.userIds.manager]);
    expect(trail.map((t) => t.kind)).toEqual(['customer.created', 'customer.updated']);
    // The same file again changes nothing.
    expect((await preview('manager', file)).data).toMatchObject({ rows: [{ action: 'same' }, { action: 'same' }, { action: 'same' }] });
  });

  it('is all or nothing: one bad row names every problem and writes nothing', async () => {
    const before = await count(w.businessA);
    const file: Row[] = [
      { name: 'Dee Import', email: 'dee@import.test', phone: '' },
      { name: 'Ada Lovelace', email: 'ada@import.test', phone: '5550100777' },
      { name: 'Eve Import', email: 'not-an-email', phone: '' },
      { name: 'Ada Again', email: 'ADA@import.test', phone: '' },
      { name: 'F', email: '', phone: '123' },
    ];
    const refused = await write('owner', file);
    expect(refused.error).toBeNull();
    expect(refused.data).toEqual([
      { row_index: 3, message: '"not-an-email" is not an email address' },
      { row_index: 4, message: 'this email is also on row 2' },
      { row_index: 5, message: 'the name must be 2 to 100 characters' },
    ]);
    expect(await count(w.businessA)).toBe(before);
    expect(await customers(w.businessA, 'ada@import.test')).toMatchObject([{ phone: '5550100009' }]);
    // The preview names the same rows.
    expect((await preview('owner', file)).data).toMatchObject({ problems: [{ row_index: 3 }, { row_index: 4 }, { row_index: 5 }] });
  });

  it('creates one customer per row for an email no customer has yet, as the export writes shared emails', async () => {
    const file: Row[] = [{ name: 'Pat Shared', email: 'family@import.test' }, { name: 'Sam Shared', email: 'family@import.test' }];
    expect((await preview('owner', file)).data).toMatchObject({ problems: [], rows: [{ action: 'new' }, { action: 'new' }] });
    expect((await write('owner', file)).data).toEqual([]);
    expect((await customers(w.businessA, 'family@import.test')).map((c) => c.name).sort()).toEqual(['Pat Shared', 'Sam Shared']);
    // Imported again, each row is its own customer, unchanged.
    expect((await preview('owner', file)).data).toMatchObject({ problems: [], rows: [{ action: 'same' }, { action: 'same' }] });
  });

  it('refuses an email two customers share, rather than guessing which one to update', async () => {
    await w.rows(`insert into public.customers (business_id, name, email) values ($1, 'Twin One', 'twin@import.test'), ($1, 'Twin Two', 'twin@import.test')`, [w.businessA]);
    expect((await write('owner', [{ name: 'Twin Three', email: 'twin@import.test' }])).data).toEqual([
      { row_index: 1, message: '2 customers have this email: edit them on the Customers page, or leave the row out' },
    ]);
    expect((await customers(w.businessA, 'twin@import.test')).map((c) => c.name)).toEqual(['Twin One', 'Twin Two']);
    // A row repeating one of them as it is (an exported row) is that customer, unchanged.
    expect((await preview('owner', [{ name: 'Twin Two', email: 'twin@import.test' }, { name: 'Twin One', email: 'TWIN@import.test' }])).data)
      .toEqual({ problems: [], rows: [{ row_index: 1, action: 'same', changes: {} }, { row_index: 2, action: 'same', changes: {} }] });
  });

  it('never reads nor writes another business\'s customer', async () => {
    await w.rows(`insert into public.customers (business_id, name, email, phone) values ($1, 'Other Shop Gil', 'gil@import.test', '5550100333')`, [w.businessB]);
    // The same email in business A is a new customer of A; B's customer keeps its name and phone.
    const seen = await preview('owner', [{ name: 'Gil Renamed', email: 'gil@import.test', phone: '5550100444' }]);
    expect(seen.data).toMatchObject({ rows: [{ row_index: 1, action: 'new', changes: {} }] });
    expect((await write('owner', [{ name: 'Gil Renamed', email: 'gil@import.test', phone: '5550100444' }])).data).toEqual([]);
    expect(await customers(w.businessB, 'gil@import.test')).toMatchObject([{ name: 'Other Shop Gil', phone: '5550100333' }]);
    expect(await customers(w.businessA, 'gil@import.test')).toMatchObject([{ name: 'Gil Renamed' }]);
    // Owner 1 cannot import into business B (not a member), nor owner 2 into A.
    for (const [who, business] of [['owner', w.businessB], ['other', w.businessA]] as const) {
      const before = await count(business);
      for (const call of [preview(who, [{ name: 'Intruder', email: 'gil@import.test' }], business),
        write(who, [{ name: 'Intruder', email: 'gil@import.test' }], business)]) {
        const answer = await call;
        expect(answer.error).toMatchObject({ code: '42501' });
        expect(answer.status).toBe(403);
      }
      expect(await count(business)).toBe(before);
    }
  });

  it('refuses cashiers and anonymous callers, and bad arguments with a 400', async () => {
    for (const call of [preview('cashier', [{ name: 'Cashier Pal', email: 'pal@import.test' }]), write('cashier', [{ name: 'Cashier Pal', email: 'pal@import.test' }])]) {
      const answer = await call;
      expect(answer.error).toMatchObject({ code: '42501' });
    }
    expect(await customers(w.businessA, 'pal@import.test')).toEqual([]);
    const anon = await w.clients.anon.rpc('import_customers', { _business_id: w.businessA, _rows: [{ name: 'Anon Pal' }] });
    expect(anon.error).not.toBeNull();
    expect([401, 403, 404]).toContain(anon.status);
    for (const rows of [[], 'x', [1], Array.from({ length: 2001 }, () => ({ name: 'Too Many' }))]) {
      const answer = await w.clients.owner.rpc('import_customers', { _business_id: w.businessA, _rows: rows as Row[] });
      expect(answer.error).toMatchObject({ code: '22023' });
      expect(answer.status).toBe(400);
    }
  });

  it('imports its own export back as "nothing changes", and one edited row as exactly that change', async () => {
    // Rows the export must carry through unchanged: a phone a spreadsheet would run as a formula, a customer without
    // an email, an erased (anonymous) customer, a name with a comma.
    await w.rows(`insert into public.customers (business_id, name, email, phone) values
      ($1, 'Hal Formula', 'hal@import.test', '+1 555 010 0555'), ($1, 'Ivy NoEmail', null, '5550100666'),
      ($1, 'Comma, Jo', 'jo@import.test', null), ($1, 'Kim Erased', 'kim@import.test', '5550100888')`, [w.businessA]);
    const [kim] = await customers(w.businessA, 'kim@import.test');
    expect((await w.clients.owner.rpc('erase_customer', { _customer_id: kim?.id ?? '' })).error).toBeNull();

    const client = w.clients.manager as unknown as StorewiseClient;
    const csv = customersCsv(await fetchCustomersForExport(client, w.businessA));
    expect(csv).toContain(`"'+1 555 010 0555"`);
    const parsed = parseCustomerCsv(new TextEncoder().encode(csv).buffer as ArrayBuffer);
    expect(parsed.errors).toEqual([]);
    const before = await count(w.businessA);
    expect(parsed.rows.length).toBe(before);
    const unchanged = await previewCustomerFile(client, w.businessA, parsed.rows);
    expect(unchanged.problems).toEqual([]);
    expect(summarizeCustomerPreview(unchanged)).toEqual({ added: 0, updated: 0, unchanged: before });

    const edited = parsed.rows.map((r) => (r.email === 'hal@import.test' ? { ...r, phone: '+1 555 010 0999' } : r));
    const once = await previewCustomerFile(client, w.businessA, edited);
    expect(summarizeCustomerPreview(once)).toEqual({ added: 0, updated: 1, unchanged: before - 1 });
    expect(once.rows.filter((r) => r.action === 'update')).toEqual([
      { row_index: edited.findIndex((r) => r.email === 'hal@import.test') + 1, action: 'update',
        changes: { phone: { old: '+1 555 010 0555', new: '+1 555 010 0999' } } },
    ]);
    expect(await importCustomerFile(client, w.businessA, edited)).toEqual([]);
    expect(await count(w.businessA)).toBe(before);
    expect(await customers(w.businessA, 'hal@import.test')).toMatchObject([{ phone: '+1 555 010 0999' }]);
    // The erased customer stays anonymous.
    expect(await w.rows(`select name, email, phone from public.customers where id = $1`, [kim?.id])).toEqual([
      { name: 'Anonymous customer', email: null, phone: null },
    ]);
  });
});
