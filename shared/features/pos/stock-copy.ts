import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { StorewiseClient } from '../../lib/supabase-client';

/**
 * The register's copy of its store's stock on hand (issue 28), kept on the device so the figures show offline
 * too. One record per stock_balances row (a variant with lots has several), so a Realtime change, which carries
 * one row, replaces exactly one record; on hand per item is the sum of its rows. Its own database: the outbox's
 * and the catalog's schemas stay untouched.
 */
export interface Balance {
  storeId: string;
  id: number;
  variantId: string;
  qty: number;
}

interface StockDb extends DBSchema {
  balances: { key: [string, number]; value: Balance };
}

export const STOCK_DB_NAME = 'storewise-pos-stock';
export type StockDatabase = IDBPDatabase<StockDb>;
const PAGE = 1000;

export function openStockDb(name = STOCK_DB_NAME): Promise<StockDatabase> {
  return openDB<StockDb>(name, 1, {
    upgrade(db) {
      db.createObjectStore('balances', { keyPath: ['storeId', 'id'] });
    },
  });
}

const storeRange = (storeId: string) => IDBKeyRange.bound([storeId, -Infinity], [storeId, Infinity]);

export function readCopy(db: StockDatabase, storeId: string): Promise<Balance[]> {
  return db.getAll('balances', storeRange(storeId));
}

/** The whole store's copy replaced in one transaction: a reader never sees half of it. */
export async function replaceCopy(db: StockDatabase, storeId: string, rows: Balance[]): Promise<void> {
  const tx = db.transaction('balances', 'readwrite');
  await tx.store.delete(storeRange(storeId));
  await Promise.all(rows.map((row) => tx.store.put(row)));
  await tx.done;
}

export async function putRows(db: StockDatabase, rows: Balance[], removed: { storeId: string; id: number }[] = []): Promise<void> {
  const tx = db.transaction('balances', 'readwrite');
  await Promise.all([...rows.map((row) => tx.store.put(row)), ...removed.map((key) => tx.store.delete([key.storeId, key.id]))]);
  await tx.done;
}

/** A stock_balances row as the data API or Realtime gives it (qty is numeric: text or number). */
export function toBalance(storeId: string, row: Record<string, unknown>): Balance | null {
  const id = Number(row.id);
  const qty = Number(row.qty);
  if (!Number.isFinite(id) || typeof row.variant_id !== 'string' || !Number.isFinite(qty) || row.store_id !== storeId) return null;
  return { storeId, id, variantId: row.variant_id, qty };
}

/** Every balance row of the store, in pages by id (keyset: each page costs the same at any depth). */
export async function fetchStoreBalances(supabase: StorewiseClient, storeId: string, ids?: number[]): Promise<Balance[]> {
  const out: Balance[] = [];
  if (ids) {
    for (let start = 0; start < ids.length; start += PAGE) {
      const { data, error } = await supabase.from('stock_balances').select('id, store_id, variant_id, qty').eq('store_id', storeId).in('id', ids.slice(start, start + PAGE));
      if (error) throw new Error(error.message);
      for (const row of data ?? []) {
        const balance = toBalance(storeId, row);
        if (balance) out.push(balance);
      }
    }
    return out;
  }
  let after = 0;
  for (;;) {
    const { data, error } = await supabase.from('stock_balances').select('id, store_id, variant_id, qty').eq('store_id', storeId).gt('id', after).order('id').limit(PAGE);
    if (error) throw new Error(error.message);
    const rows = data ?? [];
    for (const row of rows) {
      const balance = toBalance(storeId, row);
      if (balance) out.push(balance);
    }
    if (rows.length < PAGE) return out;
    after = Number(rows[rows.length - 1]!.id);
  }
}

/** On hand per item: the sum of its rows (lots). */
export function onHandByVariant(rows: Iterable<Balance>): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of rows) out.set(row.variantId, Math.round(((out.get(row.variantId) ?? 0) + row.qty) * 1000) / 1000);
  return out;
}
