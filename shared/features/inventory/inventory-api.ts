// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/inventory.sql: adjust_stock() stock_history() store_stock() reorder_points
//   supabase/schemas/workspace.sql: my_workspaces() stores
import { z } from 'zod';
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';

type Functions = Database['public']['Functions'];
export type StockRow = Functions['store_stock']['Returns'][number];
export type HistoryRow = Functions['stock_history']['Returns'][number];
export interface StockStore { id: string; name: string; business_id: string }

interface Result<T> {
  data: T | null;
  error: { message: string; code?: string } | null;
}

/** A refusal from the database; its message is written for people (22023) and shown as is. */
export class InventoryError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'InventoryError';
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (result.error) throw new InventoryError(result.error.message, result.error.code);
  return result.data as T;
}

/** The message of a failure, first letter up (the database writes plain lower-case sentences). */
export function failure(error: unknown): string {
  const text = error instanceof Error ? error.message : 'Please try again.';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const ADJUST_REASONS = ['damaged', 'lost', 'theft', 'expired', 'found', 'correction'] as const;

/** The adjust dialog; the database checks the same rules (and whole numbers for items sold by the piece). */
export const adjustSchema = z.object({
  reason: z.enum(ADJUST_REASONS),
  qty: z.string().trim().regex(/^-?\d{1,9}(\.\d{1,3})?$/, 'Enter a quantity such as -2 or 1.250')
    .refine((v) => Number(v) !== 0, 'Enter a quantity other than zero'),
  note: z.string().max(500, 'Use at most 500 characters'),
}).refine((v) => !['damaged', 'lost', 'theft', 'expired'].includes(v.reason) || Number(v.qty) < 0,
  { path: ['qty'], message: 'Stock that is damaged, lost, stolen or expired is taken out: enter a negative quantity' })
  .refine((v) => v.reason !== 'found' || Number(v.qty) > 0, { path: ['qty'], message: 'Found stock is added: enter a positive quantity' });
export type AdjustValues = z.infer<typeof adjustSchema>;

/** The stores the caller may use (row level security decides) and the caller's role per business. */
export async function fetchStockStores(supabase: StorewiseClient): Promise<{ stores: StockStore[]; roles: Record<string, string> }> {
  const stores = unwrap(await supabase.from('stores').select('id, name, business_id').is('archived_at', null).order('name')) ?? [];
  const workspaces = unwrap(await supabase.rpc('my_workspaces')) ?? [];
  return { stores, roles: Object.fromEntries(workspaces.map((w) => [w.id, w.role])) };
}

export async function fetchStoreStock(supabase: StorewiseClient, storeId: string, query: string, page: number, pageSize = 25) {
  const rows = unwrap(await supabase.rpc('store_stock', { _store_id: storeId, _query: query, _limit: pageSize, _offset: page * pageSize })) ?? [];
  return { rows, total: Number(rows[0]?.total_count ?? 0) };
}

export async function adjustStock(supabase: StorewiseClient, storeId: string, variantId: string, values: AdjustValues) {
  return unwrap(await supabase.rpc('adjust_stock', {
    _store_id: storeId, _variant_id: variantId, _qty: Number(values.qty), _reason: values.reason,
    ...(values.note.trim() ? { _note: values.note.trim() } : {}),
  }));
}

export async function fetchHistory(supabase: StorewiseClient, storeId: string, variantId: string): Promise<HistoryRow[]> {
  return unwrap(await supabase.rpc('stock_history', { _store_id: storeId, _variant_id: variantId, _limit: 100 })) ?? [];
}

/** Sets a variant's reorder point and target level in a store (updates the row, or adds it the first time). */
export async function saveLevels(supabase: StorewiseClient, businessId: string, storeId: string, variantId: string,
  reorderPoint: number, targetLevel: number) {
  const updated = unwrap(await supabase.from('reorder_points').update({ reorder_point: reorderPoint, target_level: targetLevel })
    .eq('store_id', storeId).eq('variant_id', variantId).select('variant_id')) ?? [];
  if (updated.length === 0) {
    unwrap(await supabase.from('reorder_points').insert({
      business_id: businessId, store_id: storeId, variant_id: variantId, reorder_point: reorderPoint, target_level: targetLevel,
    }));
  }
}
