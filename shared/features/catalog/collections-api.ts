// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: markdown_collection() collections products
// SQL (supabase/schemas, docs/adr/0340):
//   supabase/schemas/catalog.sql: collections markdown_collection() products
import { z } from 'zod';
import type { Database } from '../../lib/database.types';
import type { StorewiseClient } from '../../lib/supabase-client';
import { unwrap } from './catalog-api';

export type Collection = Database['public']['Tables']['collections']['Row'];

/** A collection as the form takes it; the same bounds as the table's CHECKs. */
export const collectionSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(100, 'Use at most 100 characters'),
  seasonCode: z.string().trim().toUpperCase()
    .refine((v) => v === '' || /^[A-Z0-9][A-Z0-9-]{0,15}$/.test(v), 'Letters, digits and - (16 at most), such as SS27'),
  startsOn: z.string(),
  endsOn: z.string(),
}).refine((v) => v.startsOn === '' || v.endsOn === '' || v.endsOn >= v.startsOn,
  { path: ['endsOn'], message: 'The end is on or after the start' });
export type CollectionValues = z.infer<typeof collectionSchema>;

/** The markdown form: percent off (more than 0, below 100, 2 decimals) or a fixed price (in the form's currency). */
export const markdownSchema = z.object({
  kind: z.enum(['percent', 'price']),
  value: z.string().trim().min(1, 'Enter the markdown'),
  belowCostOk: z.boolean(),
});
export type MarkdownValues = z.infer<typeof markdownSchema>;

export interface MarkdownRow {
  variant_id: string;
  store_id: string | null;
  sku: string;
  product_name: string;
  option1: string | null;
  option2: string | null;
  old_price: number;
  new_price: number;
}

export async function fetchCollections(supabase: StorewiseClient, businessId: string) {
  const [collections, products] = await Promise.all([
    supabase.from('collections').select('*').eq('business_id', businessId).order('starts_on', { ascending: false, nullsFirst: false }).order('name'),
    supabase.from('products').select('id, collection_id').eq('business_id', businessId).not('collection_id', 'is', null),
  ]);
  const counts = new Map<string, number>();
  for (const p of unwrap(products) ?? []) counts.set(p.collection_id as string, (counts.get(p.collection_id as string) ?? 0) + 1);
  return (unwrap(collections) ?? []).map((c) => ({ ...c, products: counts.get(c.id) ?? 0 }));
}

const row = (v: CollectionValues) => ({
  name: v.name, season_code: v.seasonCode || null, starts_on: v.startsOn || null, ends_on: v.endsOn || null,
});

export async function createCollection(supabase: StorewiseClient, businessId: string, v: CollectionValues) {
  unwrap(await supabase.from('collections').insert({ business_id: businessId, ...row(v) }));
}

export async function updateCollection(supabase: StorewiseClient, id: string, v: CollectionValues) {
  unwrap(await supabase.from('collections').update(row(v)).eq('id', id));
}

export async function deleteCollection(supabase: StorewiseClient, id: string) {
  unwrap(await supabase.from('collections').delete().eq('id', id));
}

export async function setProductCollection(supabase: StorewiseClient, productId: string, collectionId: string | null) {
  unwrap(await supabase.from('products').update({ collection_id: collectionId }).eq('id', productId));
}

/** Preview (apply false) or apply a markdown; the database checks the role, the bounds and the costs. */
export async function markdownCollection(supabase: StorewiseClient, collectionId: string, kind: 'percent' | 'price',
  value: number, apply: boolean, belowCostOk: boolean): Promise<MarkdownRow[]> {
  return (unwrap(await supabase.rpc('markdown_collection', {
    _collection_id: collectionId, _kind: kind, _value: value, _apply: apply, _below_cost_ok: belowCostOk,
  })) ?? []) as MarkdownRow[];
}
