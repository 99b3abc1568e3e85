// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: set_main_product_image() product_images
//   supabase/schemas/pos.sql: pos_catalog_images()
// Files: buckets product-images and product-thumbnails (supabase/schemas/storage.sql, docs/adr/0231).
import { z } from 'zod';
import { storageWriteError } from '../storage-refusal';
import type { StorewiseClient } from '../supabase-client';
import { makeThumbnails } from './make-thumbnails';

export const IMAGES_BUCKET = 'product-images';
export const THUMBNAILS_BUCKET = 'product-thumbnails';
export const PRODUCT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PRODUCT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** More than this many pictures per product is refused in the form (the database caps the position at 99). */
export const PRODUCT_IMAGES_MAX = 12;

const EXTENSIONS: Record<(typeof PRODUCT_IMAGE_TYPES)[number], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

export const productImageFileSchema = z
  .custom<File>((value) => typeof File !== 'undefined' && value instanceof File, 'Choose a file')
  .refine((file) => (PRODUCT_IMAGE_TYPES as readonly string[]).includes(file.type), 'not a PNG, JPG or WebP picture')
  .refine((file) => file.size <= PRODUCT_IMAGE_MAX_BYTES, 'larger than 5 MB');

export interface ProductImage {
  id: string;
  path: string;
  small_path: string;
  medium_path: string;
  position: number;
  is_main: boolean;
}

export const publicImageUrl = (supabase: StorewiseClient, bucket: string, path: string): string =>
  supabase.storage.from(bucket).getPublicUrl(path).data.publicUrl;
export const thumbnailUrl = (supabase: StorewiseClient, path: string): string => publicImageUrl(supabase, THUMBNAILS_BUCKET, path);

export async function fetchProductImages(supabase: StorewiseClient, productId: string): Promise<ProductImage[]> {
  const { data, error } = await supabase.from('product_images').select('id, path, small_path, medium_path, position, is_main')
    .eq('product_id', productId).order('position').order('created_at');
  if (error) throw new Error(error.message);
  return data ?? [];
}

/** The small preview of each product's main picture (else its first), for a page of the catalog list. */
export async function fetchMainThumbnails(supabase: StorewiseClient, productIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (productIds.length === 0) return found;
  const { data, error } = await supabase.from('product_images').select('product_id, small_path, is_main, position')
    .in('product_id', [...new Set(productIds)]).order('is_main', { ascending: false }).order('position');
  if (error) throw new Error(error.message);
  for (const row of data ?? []) if (!found.has(row.product_id)) found.set(row.product_id, row.small_path);
  return found;
}

/**
 * Uploads one picture: the original and its two previews (made here, in the browser) under
 * <business>/<product>/, then the row naming them (its id is answered). Files of a refused row are removed again.
 */
export async function addProductImage(supabase: StorewiseClient, target: { businessId: string; productId: string },
  file: File, position: number, isMain: boolean): Promise<string> {
  const thumbs = await makeThumbnails(file);
  const folder = `${target.businessId}/${target.productId}`;
  const id = crypto.randomUUID();
  const ext = (type: string) => EXTENSIONS[type as keyof typeof EXTENSIONS] ?? 'jpg';
  const path = `${folder}/${id}.${ext(file.type)}`;
  const small = `${folder}/${id}.s.${ext(thumbs.small.blob.type)}`;
  const medium = `${folder}/${id}.m.${ext(thumbs.medium.blob.type)}`;
  // Names are new (random ids) and the content never changes: cached for a year.
  const options = (contentType: string) => ({ contentType, cacheControl: '31536000', upsert: false });
  const uploaded: [string, string][] = [];
  const removeUploaded = async () => {
    for (const [bucket, name] of uploaded) await supabase.storage.from(bucket).remove([name]);
  };
  try {
    for (const [bucket, name, body] of [[IMAGES_BUCKET, path, file], [THUMBNAILS_BUCKET, small, thumbs.small.blob],
      [THUMBNAILS_BUCKET, medium, thumbs.medium.blob]] as const) {
      const { error } = await supabase.storage.from(bucket).upload(name, body, options(body.type));
      if (error) throw await storageWriteError(supabase, error);
      uploaded.push([bucket, name]);
    }
    const { data, error } = await supabase.from('product_images').insert({
      business_id: target.businessId, product_id: target.productId, path, small_path: small, medium_path: medium, position, is_main: isMain,
    }).select('id').single();
    if (error) throw new Error(error.message);
    return data.id;
  } catch (error) {
    await removeUploaded().catch(() => undefined);
    throw error;
  }
}

export async function setMainProductImage(supabase: StorewiseClient, imageId: string): Promise<void> {
  const { error } = await supabase.rpc('set_main_product_image', { _image_id: imageId });
  if (error) throw new Error(error.message);
}

/** Removes the row, then its files; the next picture in order becomes the main one if this was it. */
export async function removeProductImage(supabase: StorewiseClient, image: ProductImage, rest: ProductImage[]): Promise<void> {
  const { error } = await supabase.from('product_images').delete().eq('id', image.id);
  if (error) throw new Error(error.message);
  await supabase.storage.from(IMAGES_BUCKET).remove([image.path]);
  await supabase.storage.from(THUMBNAILS_BUCKET).remove([image.small_path, image.medium_path]);
  const next = rest.find((other) => other.id !== image.id);
  if (image.is_main && next) await setMainProductImage(supabase, next.id);
}

/** The register's pictures: variant id -> small preview path, every page (PostgREST caps a response at 1,000 rows on hosted). */
export async function fetchPosImages(supabase: StorewiseClient, businessId: string): Promise<[string, string][]> {
  const all: [string, string][] = [];
  const page = 1000;
  for (let from = 0; ; from += page) {
    const { data, error } = await supabase.rpc('pos_catalog_images', { _business_id: businessId }).range(from, from + page - 1);
    if (error) throw new Error(error.message);
    for (const row of data ?? []) all.push([row.variant_id, row.small_path]);
    if ((data ?? []).length < page) return all;
  }
}
