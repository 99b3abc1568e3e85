/**
 * The catalog file's image_url column (issue 27, docs/adr/0371) over HTTP with supabase-js and storage-js against the
 * embedded stack: a picture of this business's product-images folder (public URL or path form) previews as the main
 * picture's change and becomes the product's main one after the import (chosen when it is already the product's,
 * added with its previews when it is a loose object of the folder); another site, another bucket, another business's
 * folder and a missing object are each refused on their row; cashiers and other businesses are refused by the
 * database; the catalog's export writes the main picture's URL and re-imports with no change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { parseCatalogCsv, toDatabaseRows } from '../../shared/features/catalog/catalog-csv';
import { catalogCsv, fetchCatalogExport } from '../../shared/features/catalog/catalog-export';
import { attachCatalogImages, checkCatalogImages, supabaseUrlOf, type AddPicture } from '../../shared/features/catalog/catalog-images';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { startStack, type StackHandle } from '../helpers/stack';
import { userClient } from './rest-test-clients';
import { addCashier, businessOf, pngBlob, pngBytes, users } from './storage-helpers';

let stack: StackHandle;
let owner1: SupabaseClient;
let owner2: SupabaseClient;
let cashier: SupabaseClient;
let business1: string;
let business2: string;
let mug: string;
let onePath: string;
let twoPath: string;
const loosePath = () => `${business1}/shelf/loose.png`;
const client = (c: SupabaseClient) => c as unknown as StorewiseClient;

async function upload(who: SupabaseClient, bucket: string, path: string) {
  const { error } = await who.storage.from(bucket).upload(path, pngBlob(), { contentType: 'image/png' });
  if (error) throw new Error(error.message);
}

/** addProductImage without the canvas (Node has none): the picture and two copies as previews, then the row. */
const addForTest = (who: SupabaseClient): AddPicture => async ({ businessId, productId }, file, position) => {
  const id = crypto.randomUUID();
  const folder = `${businessId}/${productId}`;
  for (const [bucket, name] of [['product-images', `${id}.png`], ['product-thumbnails', `${id}.s.png`], ['product-thumbnails', `${id}.m.png`]] as const) {
    const { error } = await who.storage.from(bucket).upload(`${folder}/${name}`, file, { contentType: file.type || 'image/png' });
    if (error) throw new Error(error.message);
  }
  const { data, error } = await who.from('product_images').insert({ business_id: businessId, product_id: productId, path: `${folder}/${id}.png`,
    small_path: `${folder}/${id}.s.png`, medium_path: `${folder}/${id}.m.png`, position, is_main: false }).select('id').single();
  if (error) throw new Error(error.message);
  return data.id;
};

beforeAll(async () => {
  stack = await startStack();
  business1 = await businessOf(stack, users.owner1);
  business2 = await businessOf(stack, users.owner2);
  owner1 = await userClient(stack, users.owner1);
  owner2 = await userClient(stack, users.owner2);
  cashier = await userClient(stack, await addCashier(stack, business1));
  const made = await owner1.from('products').insert({ business_id: business1, name: 'Import mug' }).select('id').single();
  if (made.error) throw new Error(made.error.message);
  mug = made.data.id;
  const v = await owner1.from('variants').insert({ business_id: business1, product_id: mug, sku: 'IMG-MUG-1', price: 1200 });
  if (v.error) throw new Error(v.error.message);
  onePath = `${business1}/${mug}/one.png`;
  twoPath = `${business1}/${mug}/two.png`;
  for (const [name, main] of [['one', true], ['two', false]] as const) {
    await upload(owner1, 'product-images', `${business1}/${mug}/${name}.png`);
    await upload(owner1, 'product-thumbnails', `${business1}/${mug}/${name}.s.png`);
    await upload(owner1, 'product-thumbnails', `${business1}/${mug}/${name}.m.png`);
    const row = await owner1.from('product_images').insert({ business_id: business1, product_id: mug, path: `${business1}/${mug}/${name}.png`,
      small_path: `${business1}/${mug}/${name}.s.png`, medium_path: `${business1}/${mug}/${name}.m.png`, is_main: main });
    if (row.error) throw new Error(row.error.message);
  }
  await upload(owner1, 'product-images', loosePath());
  await upload(owner1, 'product-thumbnails', `${business1}/shelf/thumb.png`);
  await upload(owner2, 'product-images', `${business2}/shelf/theirs.png`);
}, 300_000);
afterAll(() => stack?.stop());

const csv = (lines: string[]) => parseCatalogCsv(new TextEncoder().encode(['product_name,sku,price,image_url', ...lines].join('\n')).buffer as ArrayBuffer);

describe('image_url in the catalog import', () => {
  it('previews each picture as the main picture\'s change, and names every refused row', async () => {
    const base = supabaseUrlOf(client(owner1));
    const publicUrl = (path: string) => owner1.storage.from('product-images').getPublicUrl(path).data.publicUrl;
    expect(publicUrl(twoPath).startsWith(`${base}/storage/v1/object/public/product-images/`)).toBe(true);
    const parsed = csv([
      `Import mug,IMG-MUG-1,12.00,${publicUrl(twoPath)}`,
      `Import bowl,IMG-BOWL-1,8.00,product-images/${loosePath()}`,
      `Import plate,IMG-PLATE-1,9.00,${publicUrl(`${business2}/shelf/theirs.png`)}`,
      `Import cup,IMG-CUP-1,9.00,${owner1.storage.from('product-thumbnails').getPublicUrl(`${business1}/shelf/thumb.png`).data.publicUrl}`,
      `Import jar,IMG-JAR-1,9.00,https://images.example.com/storage/v1/object/public/product-images/${loosePath()}`,
      `Import lid,IMG-LID-1,9.00,product-images/${business1}/shelf/missing.png`,
      'Import tin,IMG-TIN-1,9.00,',
    ]);
    expect(parsed.errors).toEqual([]);
    const converted = toDatabaseRows(parsed.rows, 'USD', { supabaseUrl: base, businessId: business1 });
    expect(converted.problems).toEqual([
      { row_index: 3, message: 'the image_url is in another business\'s folder: use a picture of this business' },
      { row_index: 4, message: 'the image_url is in the "product-thumbnails" bucket, not in product-images: use the address of a product picture' },
      { row_index: 5, message: 'the image_url is on another site (images.example.com): upload the picture to your product images, then use its address' },
    ]);
    expect(converted.rows.map((r) => r.image_url)).toEqual([twoPath, loosePath(), undefined, undefined, undefined, `${business1}/shelf/missing.png`, '']);
    const checked = await checkCatalogImages(client(owner1), business1, converted.rows);
    expect(checked.problems).toEqual([{ row_index: 6, message: 'there is no picture at this image_url in your product images: upload it first' }]);
    expect([...checked.changes]).toEqual([[1, { old: onePath, new: twoPath }], [2, { old: null, new: loosePath() }]]);
  });

  it('the database refuses another business\'s folder, climbing paths, cashiers and other businesses', async () => {
    const ask = (who: SupabaseClient, business: string, path: string) =>
      who.rpc('catalog_import_images', { _business_id: business, _rows: [{ row_index: 1, sku: 'IMG-MUG-1', product_name: 'Import mug', path }] });
    // The object exists, but in business 2's folder: refused even though a caller could name it directly.
    expect((await ask(owner1, business1, `${business2}/shelf/theirs.png`)).data).toMatchObject([{ message: 'the image_url is in another business\'s folder: use a picture of this business' }]);
    expect((await ask(owner1, business1, `${business1}/../${business2}/shelf/theirs.png`)).data).toMatchObject([{ message: 'the image_url has an empty, "." or ".." part' }]);
    expect((await ask(owner1, business1, twoPath)).data).toMatchObject([{ row_index: 1, product_id: mug, is_main: false, main_path: onePath, message: null }]);
    for (const [who, business] of [[cashier, business1], [owner2, business1], [owner1, business2]] as const) {
      const refused = await ask(who, business, twoPath);
      expect(refused.error).toMatchObject({ code: '42501' });
      expect(refused.status).toBe(403);
    }
    const bad = await owner1.rpc('catalog_import_images', { _business_id: business1, _rows: [{ row_index: 'x', path: 1 }] });
    expect(bad.error).toMatchObject({ code: '22023' });
    expect(bad.status).toBe(400);
  });

  it('after the write each picture is its product\'s main one, and the export re-imports with no change', async () => {
    const base = supabaseUrlOf(client(owner1));
    const parsed = csv([
      `Import mug,IMG-MUG-1,12.00,product-images/${twoPath}`,
      `Import bowl,IMG-BOWL-1,8.00,product-images/${loosePath()}`,
      `Import bowl,IMG-BOWL-2,8.50,product-images/${loosePath()}`,
    ]);
    const converted = toDatabaseRows(parsed.rows, 'USD', { supabaseUrl: base, businessId: business1 });
    expect(converted.problems).toEqual([]);
    const written = await owner1.rpc('import_catalog', { _business_id: business1, _rows: converted.rows, _dry_run: false });
    expect(written).toMatchObject({ error: null, data: [] });
    expect(await attachCatalogImages(client(owner1), business1, converted.rows, addForTest(owner1))).toEqual([]);

    const mains = await owner1.from('product_images').select('product_id, path').eq('business_id', business1).eq('is_main', true);
    const bowl = (await owner1.from('products').select('id').eq('business_id', business1).eq('name', 'Import bowl').single()).data?.id;
    expect(new Map((mains.data ?? []).map((m) => [m.product_id, m.path])).get(mug)).toBe(twoPath);
    const bowlImages = (await owner1.from('product_images').select('path, is_main').eq('product_id', bowl ?? '')).data ?? [];
    // The loose object was added once (two rows of one product), under the bowl's folder, with its bytes.
    expect(bowlImages).toHaveLength(1);
    expect(bowlImages[0]).toMatchObject({ is_main: true, path: expect.stringMatching(new RegExp(`^${business1}/${bowl}/`)) });
    const copied = await owner1.storage.from('product-images').download(bowlImages[0]?.path ?? '');
    expect(Buffer.from(await copied.data!.arrayBuffer()).equals(pngBytes)).toBe(true);

    // The catalog's export writes the main picture's public URL; imported back, nothing changes.
    const exported = catalogCsv(await fetchCatalogExport(client(owner1), business1, true), true, 'USD');
    expect(exported).toContain(owner1.storage.from('product-images').getPublicUrl(twoPath).data.publicUrl);
    const again = parseCatalogCsv(new TextEncoder().encode(exported).buffer as ArrayBuffer);
    const back = toDatabaseRows(again.rows, 'USD', { supabaseUrl: base, businessId: business1 });
    expect(back.problems).toEqual([]);
    const unchanged = await checkCatalogImages(client(owner1), business1, back.rows);
    expect(unchanged).toEqual({ problems: [], changes: new Map() });
  });
});
