// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: search_catalog() barcodes products variants
//   supabase/schemas/workspace.sql: my_workspaces() stores
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';
import { commonCurrency } from '../../lib/money';

type Functions = Database['public']['Functions'];
export type CatalogHit = Functions['search_catalog']['Returns'][number];
export type CatalogWorkspace = Functions['my_workspaces']['Returns'][number];

/** A refusal from the database with its SQLSTATE (SW001 is the plan's product limit). */
export class CatalogError extends Error {
  constructor(message: string, readonly code?: string, readonly hint?: string | null) {
    super(message);
    this.name = 'CatalogError';
  }
}

interface Result<T> {
  data: T | null;
  error: { message: string; code?: string; hint?: string | null } | null;
}

export function unwrap<T>(result: Result<T>): T {
  if (result.error) throw new CatalogError(result.error.message, result.error.code, result.error.hint);
  return result.data as T;
}

export async function fetchMyWorkspaces(supabase: StorewiseClient): Promise<CatalogWorkspace[]> {
  return unwrap(await supabase.rpc('my_workspaces')) ?? [];
}

/** Server-side search by name (prefix and typo-tolerant), SKU prefix or barcode. */
export async function searchCatalog(supabase: StorewiseClient, businessId: string, query: string, page: number, pageSize = 25,
  includeArchived = false) {
  const rows = unwrap(await supabase.rpc('search_catalog', {
    _business_id: businessId, _query: query, _limit: pageSize, _offset: page * pageSize, _include_archived: includeArchived,
  })) ?? [];
  return { rows, total: Number(rows[0]?.total_count ?? 0) };
}

export interface NewProduct {
  name: string;
  brand: string;
  unit: 'each' | 'kg';
  optionNames: string[];
  hasLots: boolean;
  requiresExpiry: boolean;
  variants: { options: string[]; sku: string; price: number; barcode?: string | null }[];
}

/** Creates the product, then its variants; a refused variant removes the product again (nothing half-made). */
export async function createProduct(supabase: StorewiseClient, businessId: string, input: NewProduct): Promise<string> {
  const [o1, o2, o3] = input.optionNames;
  const product = unwrap(await supabase.from('products').insert({
    business_id: businessId, name: input.name, brand: input.brand || null, unit: input.unit,
    has_lots: input.hasLots, requires_expiry: input.hasLots && input.requiresExpiry,
    option1_name: o1 ?? null, option2_name: o2 ?? null, option3_name: o3 ?? null,
  }).select('id').single()) as { id: string };
  const variants = await supabase.from('variants').insert(input.variants.map((v) => ({
    business_id: businessId, product_id: product.id, sku: v.sku, price: v.price,
    option1: v.options[0] ?? null, option2: v.options[1] ?? null, option3: v.options[2] ?? null,
  }))).select('id, sku');
  if (variants.error) {
    await supabase.from('products').delete().eq('id', product.id);
    unwrap(variants);
  }
  // Barcodes typed in the size grid: a refused one (taken, wrong check digit) removes the product again.
  const ids = new Map((variants.data ?? []).map((v) => [v.sku, v.id]));
  const barcodes = input.variants.filter((v) => v.barcode && ids.has(v.sku.toUpperCase()))
    .map((v) => ({ business_id: businessId, variant_id: ids.get(v.sku.toUpperCase()) as string, code: v.barcode as string,
      kind: ({ 13: 'ean13', 12: 'upca', 8: 'ean8' } as Record<number, string>)[(v.barcode as string).length] ?? 'ean13' }));
  if (barcodes.length > 0) {
    const added = await supabase.from('barcodes').insert(barcodes);
    if (added.error) {
      await supabase.from('products').delete().eq('id', product.id);
      unwrap(added);
    }
  }
  return product.id;
}

/**
 * The currency the catalog's prices are shown in: the one every store of the business uses, else none (prices then
 * show as plain amounts, since a variant's price applies in every store).
 */
export async function fetchCatalogCurrency(supabase: StorewiseClient, businessId: string): Promise<string | null> {
  const { data, error } = await supabase.from('stores').select('currency').eq('business_id', businessId).is('archived_at', null);
  if (error) throw new CatalogError(error.message, error.code);
  return commonCurrency((data ?? []).map((s) => s.currency));
}
