/**
 * Product images (issue 27, docs/adr/0320) with storage-js and supabase-js over HTTP against the embedded stack:
 * an owner uploads a picture and its previews under <business>/<product>/ and records them in product_images;
 * another business can neither upload into nor read from that folder, nor record a row there; a cashier sees the
 * pictures (and the register's pos_catalog_images) but uploads, records, reorders and removes nothing; an SVG
 * named .png is refused by content; the main picture is one per product, chosen by owners and managers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startStack, type StackHandle } from '../helpers/stack';
import { userClient } from './rest-test-clients';
import { addCashier, businessOf, pngBlob, pngBytes, svgBytes, users } from './storage-helpers';

let stack: StackHandle;
let owner1: SupabaseClient;
let owner2: SupabaseClient;
let cashier: SupabaseClient;
let business1: string;
let business2: string;
let product: string;
let variant: string;
let folder: string;

beforeAll(async () => {
  stack = await startStack();
  business1 = await businessOf(stack, users.owner1);
  business2 = await businessOf(stack, users.owner2);
  owner1 = await userClient(stack, users.owner1);
  owner2 = await userClient(stack, users.owner2);
  cashier = await userClient(stack, await addCashier(stack, business1));
  const made = await owner1.from('products').insert({ business_id: business1, name: 'Enamel mug' }).select('id').single();
  if (made.error) throw new Error(made.error.message);
  product = made.data.id;
  const v = await owner1.from('variants').insert({ business_id: business1, product_id: product, sku: 'MUG-IMG-1', price: 1200 }).select('id').single();
  if (v.error) throw new Error(v.error.message);
  variant = v.data.id;
  folder = `${business1}/${product}`;
}, 300_000);
afterAll(() => stack?.stop());

/** Uploads a picture and its two previews as `who`, then records them; returns the row id. */
async function addPicture(who: SupabaseClient, name: string, isMain: boolean): Promise<string> {
  for (const [bucket, path] of [['product-images', `${folder}/${name}.png`], ['product-thumbnails', `${folder}/${name}.s.png`],
    ['product-thumbnails', `${folder}/${name}.m.png`]] as const) {
    const { error } = await who.storage.from(bucket).upload(path, pngBlob(), { contentType: 'image/png' });
    if (error) throw new Error(error.message);
  }
  const { data, error } = await who.from('product_images').insert({ business_id: business1, product_id: product, path: `${folder}/${name}.png`,
    small_path: `${folder}/${name}.s.png`, medium_path: `${folder}/${name}.m.png`, is_main: isMain }).select('id').single();
  if (error) throw new Error(error.message);
  return data.id;
}

describe('product images', () => {
  let first = '';
  let second = '';

  it('an owner uploads two pictures with their previews and records them; the first is the main one', async () => {
    first = await addPicture(owner1, 'one', true);
    second = await addPicture(owner1, 'two', false);
    const { data } = await owner1.from('product_images').select('id, is_main').eq('product_id', product).order('created_at');
    expect(data).toEqual([{ id: first, is_main: true }, { id: second, is_main: false }]);
    const downloaded = await owner1.storage.from('product-thumbnails').download(`${folder}/one.s.png`);
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(pngBytes)).toBe(true);
  });

  it('choosing the main picture keeps exactly one; a second main row is refused by the database', async () => {
    expect((await owner1.rpc('set_main_product_image', { _image_id: second })).error).toBeNull();
    const { data } = await owner1.from('product_images').select('id').eq('product_id', product).eq('is_main', true);
    expect(data).toEqual([{ id: second }]);
    const twice = await owner1.from('product_images').update({ is_main: true }).eq('id', first);
    expect(twice.error?.code).toBe('23505');
  });

  it('another business cannot upload into the folder, list it, download from it or record a row there', async () => {
    const upload = await owner2.storage.from('product-images').upload(`${folder}/intruder.png`, pngBlob(), { contentType: 'image/png' });
    expect(upload.error).toMatchObject({ statusCode: '403' });
    const thumb = await owner2.storage.from('product-thumbnails').upload(`${folder}/intruder.s.png`, pngBlob(), { contentType: 'image/png' });
    expect(thumb.error).toMatchObject({ statusCode: '403' });
    const listed = await owner2.storage.from('product-images').list(folder);
    expect(listed.data).toEqual([]);
    const download = await owner2.storage.from('product-images').download(`${folder}/one.png`);
    expect(download.data).toBeNull();
    expect((download.error as { status?: number } | null)?.status).toBe(400);
    const rows = await owner2.from('product_images').select('id').eq('product_id', product);
    expect(rows.data).toEqual([]);
    const row = await owner2.from('product_images').insert({ business_id: business1, product_id: product, path: `${folder}/x.png`,
      small_path: `${folder}/x.s.png`, medium_path: `${folder}/x.m.png` });
    expect(row.error?.code).toBe('42501');
    // Nor in its own business pointing at this product's files: the path must be under the row's own product.
    const own = await owner2.from('product_images').insert({ business_id: business2, product_id: product, path: `${folder}/x.png`,
      small_path: `${folder}/x.s.png`, medium_path: `${folder}/x.m.png` });
    expect(own.error).not.toBeNull();
    expect(await owner2.rpc('set_main_product_image', { _image_id: first })).toMatchObject({ status: 404, error: { code: 'PT404' } });
    expect((await owner2.rpc('pos_catalog_images', { _business_id: business1 })).data).toEqual([]);
  });

  it('a cashier sees the pictures and the register list but cannot upload, record, choose or remove', async () => {
    const upload = await cashier.storage.from('product-images').upload(`${folder}/cashier.png`, pngBlob(), { contentType: 'image/png' });
    expect(upload.error).toMatchObject({ statusCode: '403' });
    const thumb = await cashier.storage.from('product-thumbnails').upload(`${folder}/cashier.s.png`, pngBlob(), { contentType: 'image/png' });
    expect(thumb.error).toMatchObject({ statusCode: '403' });
    const rows = await cashier.from('product_images').select('id').eq('product_id', product);
    expect(rows.data?.length).toBe(2);
    const pos = await cashier.rpc('pos_catalog_images', { _business_id: business1 });
    expect(pos.data).toEqual([{ variant_id: variant, small_path: `${folder}/two.s.png`, medium_path: `${folder}/two.m.png` }]);
    expect((await cashier.rpc('set_main_product_image', { _image_id: first })).error?.code).toBe('42501');
    const insert = await cashier.from('product_images').insert({ business_id: business1, product_id: product, path: `${folder}/c.png`,
      small_path: `${folder}/c.s.png`, medium_path: `${folder}/c.m.png` });
    expect(insert.error?.code).toBe('42501');
    await cashier.from('product_images').delete().eq('id', first);
    const removed = await cashier.storage.from('product-images').remove([`${folder}/one.png`]);
    expect(removed.data).toEqual([]);
    expect((await owner1.from('product_images').select('id').eq('product_id', product)).data?.length).toBe(2);
  });

  it('refuses an SVG renamed .png (checked by its bytes), and SVG declared as such', async () => {
    const renamed = await owner1.storage.from('product-images').upload(`${folder}/logo.png`, new Blob([svgBytes], { type: 'image/png' }));
    expect(renamed.error).toMatchObject({ statusCode: '415' });
    const svg = await owner1.storage.from('product-thumbnails').upload(`${folder}/logo.svg`, svgBytes, { contentType: 'image/svg+xml' });
    expect(svg.error).toMatchObject({ statusCode: '415' });
    const { rows } = await stack.db.query(`select 1 from storage.objects where name like $1`, [`${folder}/logo.%`]);
    expect(rows).toEqual([]);
  });

  it('the previews are served as images with nosniff at their public URL, without a session', async () => {
    const url = owner1.storage.from('product-thumbnails').getPublicUrl(`${folder}/two.s.png`).data.publicUrl;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the owner removes a picture: its row and files go, and the register list falls back to the other', async () => {
    expect((await owner1.from('product_images').delete().eq('id', second)).error).toBeNull();
    const removed = await owner1.storage.from('product-thumbnails').remove([`${folder}/two.s.png`, `${folder}/two.m.png`]);
    expect(removed.data?.length).toBe(2);
    const pos = await cashier.rpc('pos_catalog_images', { _business_id: business1 });
    expect(pos.data).toEqual([{ variant_id: variant, small_path: `${folder}/one.s.png`, medium_path: `${folder}/one.m.png` }]);
  });
});
