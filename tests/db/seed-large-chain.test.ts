/**
 * `npm run seed:large` for a chain (issue 32): `--stores 100` gives 100 stores with distinct names and receipt
 * prefixes (two digits would make store 100 collide with store 10), and the bulk load, which drops the sales and
 * ledger tables' secondary indexes while it inserts (scripts/seed-large/bulk-indexes.ts), leaves exactly the
 * indexes the migrations create, with the rows still consistent (every balance the sum of its ledger).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db } from '../../supabase/local/db/types';
import { parseSeedLargeArgs, seedLarge } from '../../scripts/seed-large';
import { BULK_TABLES } from '../../scripts/seed-large/bulk-indexes';

const STORES = 100;
const LINES = 1_500;
let db: Db;
let fresh: Db;
let business: string;

const indexesOf = async (on: Db): Promise<string[]> =>
  (await on.query<{ definition: string }>(
    `select pg_get_indexdef(i.indexrelid) as definition from pg_index i
      where i.indrelid = any ($1::text[]::regclass[]) order by 1`, [[...BULK_TABLES]])).rows.map((r) => r.definition);

beforeAll(async () => {
  [db, fresh] = await Promise.all([openDb({ memory: true }), openDb({ memory: true })]);
  const options = parseSeedLargeArgs(['--users', '0', '--retail-variants', '60', '--sale-lines', String(LINES), '--stores', String(STORES)]);
  expect(options.retailStores).toBe(STORES);
  const report = await seedLarge(db, options);
  expect(report.retail?.saleLines).toBe(LINES);
  business = report.retail?.businessId ?? '';
}, 600_000);

afterAll(async () => {
  await Promise.all([db?.close(), fresh?.close()]);
});

describe('seed:large for a chain of 100 stores', () => {
  it('names the stores and their registers with three digits, so no two collide', async () => {
    const [row] = (await db.query<{ stores: number; names: number; registers: number; prefixes: number; last: string }>(
      `select count(distinct s.id)::int as stores, count(distinct s.name)::int as names, count(r.id)::int as registers,
              count(distinct r.receipt_prefix)::int as prefixes, max(r.receipt_prefix) as last
         from public.stores s join public.registers r on r.store_id = s.id where s.business_id = $1`, [business])).rows;
    expect(row).toEqual({ stores: STORES, names: STORES, registers: 2 * STORES, prefixes: 2 * STORES, last: 'LR1002' });
  });

  it('builds every secondary index of the sales and ledger tables again, as the migrations define them', async () => {
    const seeded = await indexesOf(db);
    expect(seeded.length).toBeGreaterThan(30);
    expect(seeded).toEqual(await indexesOf(fresh));
  });

  it('keeps the rows consistent: balances equal their ledger, receipts numbered per register', async () => {
    const [row] = (await db.query<{ drift: number; gaps: number; counted: number }>(
      `select (select count(*) from public.stock_balances b where b.business_id = $1
                 and b.qty <> (select coalesce(sum(m.qty), 0) from public.stock_movements m
                                where m.store_id = b.store_id and m.variant_id = b.variant_id))::int as drift,
              (select count(*) from private.register_counters c join public.registers r on r.id = c.register_id
                where r.business_id = $1
                  and c.last_seq <> (select count(*) from public.sales s where s.register_id = r.id))::int as gaps,
              (select count(*) from private.register_counters c join public.registers r on r.id = c.register_id
                where r.business_id = $1)::int as counted`, [business])).rows;
    expect(row?.drift).toBe(0);
    expect(row?.gaps).toBe(0);
    expect(row?.counted).toBeGreaterThan(0);
  });
});
