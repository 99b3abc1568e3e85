// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: add_internal_barcode() barcodes categories products store_prices variant_costs
//     variants
//   supabase/schemas/workspace.sql: stores
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';
import { unwrap } from './catalog-api';
import type { ProductEditValues } from './product-schema';
import { toMinorUnits } from './variant-grid';

type Tables = Database['public']['Tables'];
export type Product = Tables['products']['Row'];
export type Variant = Tables['variants']['Row'];
export type Barcode = Tables['barcodes']['Row'];
export type StorePrice = Tables['store_prices']['Row'];

/** A product with everything its edit page shows; costs only for owners and managers (cashiers get none anyway). */
export async function fetchProductDetail(supabase: StorewiseClient, productId: string, withCosts: boolean) {
  const product = unwrap<Product | null>(await supabase.from('products').select('*').eq('id', productId).maybeSingle());
  if (!product) return null;
  const variants = unwrap(await supabase.from('variants').select('*').eq('product_id', productId).order('sku')) ?? [];
  const ids = variants.map((v) => v.id);
  const [barcodes, prices, costs, stores, categories] = await Promise.all([
    ids.length ? supabase.from('barcodes').select('*').in('variant_id', ids).order('created_at') : Promise.resolve({ data: [], error: null }),
    ids.length ? supabase.from('store_prices').select('*').in('variant_id', ids) : Promise.resolve({ data: [], error: null }),
    withCosts && ids.length ? supabase.from('variant_costs').select('variant_id, cost').in('variant_id', ids) : Promise.resolve({ data: [], error: null }),
    supabase.from('stores').select('id, name, currency').eq('business_id', product.business_id).is('archived_at', null).order('name'),
    supabase.from('categories').select('id, name').eq('business_id', product.business_id).order('name'),
  ]);
  return {
    product, variants,
    barcodes: (unwrap(barcodes) ?? []) as Barcode[],
    prices: (unwrap(prices) ?? []) as StorePrice[],
    costs: new Map(((unwrap(costs) ?? []) as { variant_id: string; cost: number }[]).map((c) => [c.variant_id, Number(c.cost)])),
    stores: unwrap(stores) ?? [],
    categories: unwrap(categories) ?? [],
  };
}

export async function updateProduct(supabase: StorewiseClient, id: string, v: ProductEditValues) {
  unwrap(await supabase.from('products').update({
    name: v.name, brand: v.brand || null, category_id: v.categoryId || null, unit: v.unit,
    tax_rate: v.taxRate === '' ? null : Number(v.taxRate), track_stock: v.trackStock, has_lots: v.hasLots,
    requires_expiry: v.hasLots && v.requiresExpiry,
  }).eq('id', id));
}

export async function updateVariant(supabase: StorewiseClient, variant: Variant, sku: string, price: string, cost: string | null) {
  unwrap(await supabase.from('variants').update({ sku, price: toMinorUnits(price) ?? 0 }).eq('id', variant.id));
  if (cost !== null && cost.trim() !== '') {
    const minor = toMinorUnits(cost) ?? 0;
    const updated = unwrap(await supabase.from('variant_costs').update({ cost: minor }).eq('variant_id', variant.id).select('variant_id')) ?? [];
    if (updated.length === 0) unwrap(await supabase.from('variant_costs').insert({ variant_id: variant.id, business_id: variant.business_id, cost: minor }));
  }
}

export async function setArchived(supabase: StorewiseClient, table: 'products' | 'variants', id: string, archived: boolean) {
  unwrap(await supabase.from(table).update({ archived_at: archived ? new Date().toISOString() : null }).eq('id', id));
}

/** Deletes a product that never moved stock; the database refuses (23503) once it has, and it is archived instead. */
export async function deleteProduct(supabase: StorewiseClient, id: string) {
  unwrap(await supabase.from('products').delete().eq('id', id));
}

export async function addBarcode(supabase: StorewiseClient, variant: Variant, code: string, kind: string) {
  unwrap(await supabase.from('barcodes').insert({ business_id: variant.business_id, variant_id: variant.id, code, kind }));
}

export async function addInternalBarcode(supabase: StorewiseClient, variantId: string): Promise<string> {
  return unwrap(await supabase.rpc('add_internal_barcode', { _variant_id: variantId }));
}

export async function removeBarcode(supabase: StorewiseClient, id: string) {
  unwrap(await supabase.from('barcodes').delete().eq('id', id));
}

export async function setStorePrice(supabase: StorewiseClient, businessId: string, storeId: string, variantId: string, price: number) {
  const updated = unwrap(await supabase.from('store_prices').update({ price }).eq('store_id', storeId).eq('variant_id', variantId).select('variant_id')) ?? [];
  if (updated.length === 0) unwrap(await supabase.from('store_prices').insert({ business_id: businessId, store_id: storeId, variant_id: variantId, price }));
}

export async function removeStorePrice(supabase: StorewiseClient, storeId: string, variantId: string) {
  unwrap(await supabase.from('store_prices').delete().eq('store_id', storeId).eq('variant_id', variantId));
}
