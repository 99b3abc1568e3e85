/**
 * The retail seed's catalog-only mode (scripts/seed-large/retail.ts, `catalogOnly`; ADR 0445), which the register bench
 * uses to make 1,000,000 variants in minutes: the business, its stores and registers, every variant with its barcode
 * and cost; no stock, sales or summaries; and the register's packed catalog built, its blocks holding exactly the
 * business's live variants (nothing left stale for the first register to rebuild).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb } from '../../supabase/local/db/open-db';
import type { Db } from '../../supabase/local/db/types';
import { seedRetail, defaultRetailOptions } from '../../scripts/seed-large/retail';

let db: Db;
let business = '';
const VARIANTS = 20_000;

beforeAll(async () => {
  db = await openDb({ memory: true });
  const report = await seedRetail(db, { ...defaultRetailOptions, variants: VARIANTS, stores: 2, saleLines: 0, catalogOnly: true },
    'not-a-real-hash', true, async (_phase, fn) => { await fn(); }, () => {});
  business = report.businessId ?? '';
}, 600_000);

afterAll(async () => {
  await db?.close();
});

it('seeds the catalog alone and packs it for the register', async () => {
  const [counts] = (await db.query<Record<string, number>>(
    `select (select count(*) from public.stores where business_id = $1)::int as stores,
            (select count(*) from public.registers where business_id = $1)::int as registers,
            (select count(*) from public.variants where business_id = $1)::int as variants,
            (select count(distinct variant_id) from public.barcodes where business_id = $1)::int as barcoded,
            (select count(*) from public.variant_costs where business_id = $1)::int as costs,
            (select count(*) from public.stock_movements where business_id = $1)::int as movements,
            (select count(*) from public.sales where business_id = $1)::int as sales,
            (select bits from private.pos_catalog_packs where business_id = $1) as bits,
            (select count(*) from private.pos_catalog_blocks where business_id = $1 and (body_stale or price_stale))::int as stale,
            (select sum(items) from private.pos_catalog_blocks where business_id = $1)::int as packed`, [business])).rows;
  expect(counts).toEqual({ stores: 2, registers: 4, variants: VARIANTS, barcoded: VARIANTS, costs: VARIANTS, movements: 0, sales: 0,
    bits: 2, stale: 0, packed: VARIANTS });
});
