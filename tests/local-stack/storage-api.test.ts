/**
 * The embedded Storage API through the official storage-js (supabase-js's client.storage) over HTTP: every call
 * the product makes, with Storage's answers, against the buckets and policies of the project's migrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startStack, type StackHandle } from '../helpers/stack';
import { serviceClient, userClient } from './rest-test-clients';
import { businessOf, pdfBytes, pngBlob, pngBytes, users } from './storage-helpers';

let stack: StackHandle;
let owner1: SupabaseClient;
let service: SupabaseClient;
let business1: string;

beforeAll(async () => {
  stack = await startStack();
  owner1 = await userClient(stack, users.owner1);
  service = serviceClient(stack);
  business1 = await businessOf(stack, users.owner1);
}, 60_000);
afterAll(() => stack?.stop());

describe('objects', () => {
  it('uploads (multipart from a Blob), downloads the same bytes, and answers info and exists', async () => {
    const path = `${business1}/p1/front.png`;
    const upload = await owner1.storage.from('product-images').upload(path, pngBlob());
    expect(upload.error).toBeNull();
    expect(upload.data).toMatchObject({ path, fullPath: `product-images/${path}` });
    expect(upload.data?.id).toMatch(/^[0-9a-f-]{36}$/);

    const download = await owner1.storage.from('product-images').download(path);
    expect(download.error).toBeNull();
    expect(Buffer.from(await download.data!.arrayBuffer()).equals(pngBytes)).toBe(true);
    expect(download.data!.type).toBe('image/png');

    const info = await owner1.storage.from('product-images').info(path);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: path, bucketId: 'product-images', size: pngBytes.length, contentType: 'image/png' });

    expect((await owner1.storage.from('product-images').exists(path)).data).toBe(true);
    expect((await owner1.storage.from('product-images').exists(`${business1}/p1/none.png`)).data).toBe(false);
  });

  it('uploads raw bytes with a content type, refuses a second upload without upsert (409 Duplicate), replaces with upsert', async () => {
    const bucket = owner1.storage.from('product-images');
    const path = `${business1}/p2/a.png`;
    expect((await bucket.upload(path, pngBytes, { contentType: 'image/png' })).error).toBeNull();

    const again = await bucket.upload(path, pngBytes, { contentType: 'image/png' });
    expect(again.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });

    const bigger = Buffer.concat([pngBytes, Buffer.alloc(100)]);
    expect((await bucket.upload(path, bigger, { contentType: 'image/png', upsert: true })).error).toBeNull();
    const info = await bucket.info(path);
    expect(info.data?.size).toBe(bigger.length);

    // update() replaces an existing object and refuses a missing one.
    expect((await bucket.update(path, pngBytes, { contentType: 'image/png' })).error).toBeNull();
    expect((await bucket.info(path)).data?.size).toBe(pngBytes.length);
    const missing = await bucket.update(`${business1}/p2/missing.png`, pngBytes, { contentType: 'image/png' });
    expect(missing.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
  });

  it('answers 404 NoSuchKey (HTTP 400, as Storage) for a missing object', async () => {
    const result = await owner1.storage.from('product-images').download(`${business1}/nothing/here.png`);
    expect(result.error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' });
    // Storage reads objects only: a missing bucket is a missing object for a download...
    const bucket = await owner1.storage.from('no-such-bucket').download('a/b.png');
    expect(bucket.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    // ...and a missing bucket for an upload.
    const upload = await owner1.storage.from('no-such-bucket').upload('a/b.png', pngBlob());
    expect(upload.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });

  it('lists one folder level, with folders and files, sorted and paged', async () => {
    const bucket = owner1.storage.from('product-images');
    for (const name of ['b.png', 'a.png', 'c.png', 'sub/d.png']) {
      expect((await bucket.upload(`${business1}/list/${name}`, pngBlob())).error).toBeNull();
    }
    const all = await bucket.list(`${business1}/list`);
    expect(all.error).toBeNull();
    expect(all.data!.map((entry) => entry.name)).toEqual(['a.png', 'b.png', 'c.png', 'sub']);
    const folder = all.data!.find((entry) => entry.name === 'sub')!;
    expect(folder.id).toBeNull();
    expect(all.data![0]!.metadata).toMatchObject({ size: pngBytes.length, mimetype: 'image/png' });

    const page = await bucket.list(`${business1}/list`, { limit: 2, offset: 1, sortBy: { column: 'name', order: 'desc' } });
    expect(page.data!.map((entry) => entry.name)).toEqual(['c.png', 'b.png']);
    const searched = await bucket.list(`${business1}/list`, { search: 'b' });
    expect(searched.data!.map((entry) => entry.name)).toEqual(['b.png']);
  });

  it('moves and copies within the caller\'s folder, and removes rows and files', async () => {
    const bucket = owner1.storage.from('product-images');
    const from = `${business1}/mv/one.png`;
    expect((await bucket.upload(from, pngBlob())).error).toBeNull();
    expect((await bucket.move(from, `${business1}/mv/two.png`)).data).toEqual({ message: 'Successfully moved' });
    expect((await bucket.exists(from)).data).toBe(false);
    const copy = await bucket.copy(`${business1}/mv/two.png`, `${business1}/mv/three.png`);
    expect(copy.data).toEqual({ path: `product-images/${business1}/mv/three.png` });
    const copied = await bucket.download(`${business1}/mv/three.png`);
    expect(Buffer.from(await copied.data!.arrayBuffer()).equals(pngBytes)).toBe(true);

    const versions = await stack.db.query<{ version: string }>(
      `select version from storage.objects where bucket_id = 'product-images' and name like $1`, [`${business1}/mv/%`]);
    expect(versions.rows).toHaveLength(2);
    const removed = await bucket.remove([`${business1}/mv/two.png`, `${business1}/mv/three.png`]);
    expect(removed.data).toHaveLength(2);
    for (const { version } of versions.rows) expect(await stack.stack.storage.files.size(version)).toBeUndefined();
    expect((await bucket.exists(`${business1}/mv/three.png`)).data).toBe(false);
  });

  it('serves public URLs without a key for public buckets only', async () => {
    const path = `${business1}/pub/x.png`;
    await owner1.storage.from('product-images').upload(path, pngBlob());
    const { data } = owner1.storage.from('product-images').getPublicUrl(path);
    const response = await fetch(data.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(pngBytes)).toBe(true);

    const privateUrl = owner1.storage.from('exports').getPublicUrl(`${business1}/x.zip`).data.publicUrl;
    const refused = await fetch(privateUrl);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
  });

  it('serves non-images as attachments with their declared type and nosniff', async () => {
    const path = `${business1}/report.csv`;
    expect((await owner1.storage.from('exports').upload(path, Buffer.from('a,b\n1,2\n'), { contentType: 'text/csv' })).error).toBeNull();
    const { data } = await owner1.storage.from('exports').createSignedUrl(path, 60);
    const response = await fetch(data!.signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="report.csv"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('a,b\n1,2\n');
  });

  it('signs download URLs (one and several) that work without a session', async () => {
    const path = `${business1}/doc.pdf`;
    expect((await owner1.storage.from('exports').upload(path, pdfBytes, { contentType: 'application/pdf' })).error).toBeNull();
    const one = await owner1.storage.from('exports').createSignedUrl(path, 60, { download: 'renamed.pdf' });
    expect(one.error).toBeNull();
    const response = await fetch(one.data!.signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="renamed.pdf"/);

    const many = await owner1.storage.from('exports').createSignedUrls([path, `${business1}/missing.pdf`], 60);
    expect(many.data![0]).toMatchObject({ path, error: null });
    expect(many.data![1]).toMatchObject({ signedUrl: null });
    expect((await fetch(many.data![0]!.signedUrl!)).status).toBe(200);
  });

  it('signs upload URLs that upload once, without the session', async () => {
    const path = `${business1}/signed-upload.pdf`;
    const signed = await owner1.storage.from('exports').createSignedUploadUrl(path);
    expect(signed.error).toBeNull();
    const anonymous = serviceClient(stack).storage.from('exports');
    const put = await anonymous.uploadToSignedUrl(path, signed.data!.token, pdfBytes, { contentType: 'application/pdf' });
    expect(put.error).toBeNull();
    expect(put.data?.fullPath).toBe(`exports/${path}`);
    const again = await anonymous.uploadToSignedUrl(path, signed.data!.token, pdfBytes, { contentType: 'application/pdf' });
    expect(again.error).toMatchObject({ statusCode: '409' });
    const row = await stack.db.query<{ owner_id: string }>(`select owner_id from storage.objects where bucket_id = 'exports' and name = $1`, [path]);
    expect(row.rows[0]?.owner_id).toBe(users.owner1);
  });
});

describe('buckets', () => {
  it('lets the service role manage buckets and refuses users', async () => {
    const created = await service.storage.createBucket('scratch', { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['text/plain'] });
    expect(created.data).toEqual({ name: 'scratch' });
    expect((await service.storage.getBucket('scratch')).data).toMatchObject({ id: 'scratch', public: false, allowed_mime_types: ['text/plain'] });
    expect(Number((await service.storage.getBucket('scratch')).data?.file_size_limit)).toBe(1024 * 1024);
    expect((await service.storage.createBucket('scratch')).error).toMatchObject({ statusCode: '409' });
    expect((await service.storage.listBuckets()).data!.map((bucket) => bucket.id)).toEqual(
      expect.arrayContaining(['product-images', 'support-attachments', 'exports', 'scratch']),
    );
    expect((await service.storage.updateBucket('scratch', { public: true })).error).toBeNull();
    expect((await service.storage.getBucket('scratch')).data?.public).toBe(true);

    await service.storage.from('scratch').upload('a.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    expect((await service.storage.deleteBucket('scratch')).error).toMatchObject({ statusCode: '409' });
    expect((await service.storage.emptyBucket('scratch')).error).toBeNull();
    expect((await service.storage.deleteBucket('scratch')).error).toBeNull();
    expect((await service.storage.getBucket('scratch')).error).toMatchObject({ statusCode: '404' });

    const refused = await owner1.storage.createBucket('mine');
    expect(refused.error).toMatchObject({ statusCode: '403' });
    expect((await owner1.storage.listBuckets()).data).toEqual([]);
  });
});
