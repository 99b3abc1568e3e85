/**
 * Lot fixtures for the FEFO and recall tests (ADR 0360) on top of the catalog world: lot-tracked items with lots of
 * chosen expiries and stock, written as the database owner; sales posted over HTTP as the register does; and the
 * ledger check every test ends with.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { CatalogWorld } from './catalog-world';

export interface LotSpec {
  number: string;
  /** Days from today in the stocked store's time zone (the date a sale there checks) to the expiry; negative is expired. */
  days: number;
  /** Opening stock per store id. */
  stock: Record<string, number>;
}

export interface LotItem {
  variant: string;
  lots: Record<string, string>;
}

/** A lot-tracked item priced 500 without tax (so a sale of n totals 500 n), with its lots and their stock. */
export async function lotItem(w: CatalogWorld, name: string, specs: LotSpec[]): Promise<LotItem> {
  const one = async (sql: string, params: unknown[]) => (await w.rows<{ id: string }>(sql, params))[0]?.id ?? '';
  const product = await one(`insert into public.products (business_id, name, has_lots, requires_expiry, tax_rate)
    values ($1, $2, true, true, 0) returning id`, [w.businessA, name]);
  const variant = await one(`insert into public.variants (business_id, product_id, sku, price)
    values ($1, $2, $3, 500) returning id`, [w.businessA, product, `LOT-${randomUUID().slice(0, 8)}`]);
  const lots: Record<string, string> = {};
  for (const spec of specs) {
    // The store's local date, not the database's: between midnight UTC and the store's midnight the two differ by a
    // day, and a lot "expired yesterday" in UTC terms would still be good where it is sold.
    const store = Object.keys(spec.stock)[0];
    lots[spec.number] = await one(`insert into public.lots (business_id, variant_id, lot_number, expires_on)
      values ($1, $2, $3, (now() at time zone coalesce((select time_zone from public.stores where id = $5), 'UTC'))::date + $4::int)
      returning id`, [w.businessA, variant, spec.number, spec.days, store ?? null]);
    for (const [store, qty] of Object.entries(spec.stock)) {
      await w.rows(`select private.apply_movement($1, $2, $3, $4, 'opening', $5)`,
        [w.businessA, store, variant, lots[spec.number], qty]);
    }
  }
  return { variant, lots };
}

/** On hand of a lot in a store. */
export async function lotQty(w: CatalogWorld, store: string, lot: string): Promise<number> {
  const [row] = await w.rows<{ qty: string }>(
    'select qty from public.stock_balances where store_id = $1 and lot_id = $2', [store, lot]);
  return Number(row?.qty ?? 0);
}

export interface PostedSale {
  id: string;
  review_reasons: string[];
  lines: { id: string; lot_id: string | null; lots: { lot_id: string; lot_number: string; qty: number; expired: boolean }[] | null }[];
}

/** A card sale of one line of a 500 item, as the register sends it, with whatever else the payload says. */
export function lotSale(register: string, shift: string, line: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const qty = Number(line.qty ?? 1);
  return {
    id: randomUUID(), register_id: register, shift_id: shift, lines: [{ qty: 1, ...line }],
    tenders: [{ kind: 'card', amount: 500 * qty }], ...extra,
  };
}

export async function openShift(client: SupabaseClient, register: string): Promise<string> {
  const { data, error } = await client.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}

/** Every (store, variant, lot) balance of business A equals the sum of its ledger rows. */
export async function expectLedgerEqualsBalances(w: CatalogWorld): Promise<void> {
  const off = await w.rows(`
    select b.store_id, b.variant_id, b.lot_id, b.qty, coalesce(m.total, 0) as ledger
      from public.stock_balances b
      left join lateral (select sum(x.qty) as total from public.stock_movements x
                          where x.store_id = b.store_id and x.variant_id = b.variant_id
                            and x.lot_id is not distinct from b.lot_id) m on true
     where b.business_id = $1 and b.qty <> coalesce(m.total, 0)`, [w.businessA]);
  expect(off).toEqual([]);
  const orphans = await w.rows(`
    select m.store_id, m.variant_id, m.lot_id from public.stock_movements m
     where m.business_id = $1 and not exists (select 1 from public.stock_balances b where b.store_id = m.store_id
             and b.variant_id = m.variant_id and b.lot_id is not distinct from m.lot_id)`, [w.businessA]);
  expect(orphans).toEqual([]);
}
