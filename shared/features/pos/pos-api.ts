import type { StorewiseClient } from '../../lib/supabase-client';
import type { CatalogItem } from './cart';
import type { OutboxEntry, SendResult } from './outbox';

export interface PosStore {
  id: string;
  name: string;
  business_id: string;
  currency: string;
  tax_inclusive: boolean;
  receipt_header: string | null;
  receipt_footer: string | null;
}
export interface PosRegister { id: string; name: string; store_id: string; receipt_prefix: string }
export interface PosShift { id: string; register_id: string; opened_at: string; opening_float: number; next_receipt_seq: number; receipt_prefix: string }

interface Result<T> { data: T | null; error: { message: string; code?: string } | null }
function unwrap<T>(result: Result<T>): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}

export async function fetchStoresAndRegisters(supabase: StorewiseClient): Promise<{ stores: PosStore[]; registers: PosRegister[] }> {
  const stores = unwrap(await supabase.from('stores')
    .select('id, name, business_id, currency, tax_inclusive, receipt_header, receipt_footer').is('archived_at', null).order('name'));
  const registers = unwrap(await supabase.from('registers').select('id, name, store_id, receipt_prefix').is('archived_at', null).order('name'));
  return { stores: stores as PosStore[], registers };
}

/** The store's sellable items, page by page (1,000 at a time). */
export async function fetchCatalog(supabase: StorewiseClient, storeId: string): Promise<CatalogItem[]> {
  const items: CatalogItem[] = [];
  let after: string | null = null;
  for (;;) {
    const page: { variant_id: string; name: string; sku: string; barcodes: string[]; price: number; tax_rate: number; unit: string }[] =
      unwrap(await supabase.rpc('pos_catalog', { _store_id: storeId, ...(after ? { _after: after } : {}) }));
    for (const row of page) {
      items.push({ variantId: row.variant_id, name: row.name, sku: row.sku, barcodes: row.barcodes, price: Number(row.price),
        taxRate: Number(row.tax_rate), unit: row.unit === 'kg' ? 'kg' : 'each' });
    }
    if (page.length < 1000) return items;
    after = page[page.length - 1]?.variant_id ?? null;
  }
}

export async function fetchCurrentShift(supabase: StorewiseClient, registerId: string): Promise<PosShift | null> {
  return unwrap(await supabase.rpc('current_shift', { _register_id: registerId })) as unknown as PosShift | null;
}

export async function openShift(supabase: StorewiseClient, registerId: string, openingFloat: number): Promise<PosShift> {
  return unwrap(await supabase.rpc('open_shift', { _register_id: registerId, _opening_float: openingFloat })) as unknown as PosShift;
}

export async function closeShift(supabase: StorewiseClient, shiftId: string, counted: Record<string, number>) {
  return unwrap(await supabase.rpc('close_shift', { _shift_id: shiftId, _counted: counted })) as Record<string, unknown>;
}

/**
 * Sends one outbox entry. A network failure or a 5xx is retried later; a refusal (4xx) is final for that entry.
 * Sales from the outbox are always sent with offline: true when they were made offline, so the server flags rather
 * than refuses them (ADR 0131).
 */
export async function sendSale(supabase: StorewiseClient, entry: OutboxEntry): Promise<SendResult> {
  try {
    // A sale that already waited (its first send failed) was made against a catalog that may since have changed.
    const payload = entry.attempts > 0 ? { ...entry.payload, offline: true } : entry.payload;
    const { data, error, status } = await supabase.rpc('post_sale', { _payload: payload as never });
    if (!error) return { status: 'done', result: data };
    if (status === 0 || status >= 500 || status === 401) return { status: 'retry', error: error.message };
    return { status: 'rejected', error: error.message };
  } catch (error) {
    return { status: 'retry', error: error instanceof Error ? error.message : String(error) };
  }
}
