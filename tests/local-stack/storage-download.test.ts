/**
 * Downloads of objects larger than one read chunk (1 MB, docs/adr/0405) over HTTP: the bytes arrive intact in
 * pieces, never compressed on the fly (a binary object asked for with Accept-Encoding: gzip, br comes back as
 * stored, with its Content-Length), and Range requests answer 206 with the right slice and Content-Range, as
 * Storage does; a range past the end is Storage's InvalidRange.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startStack, type StackHandle } from '../helpers/stack';
import { userClient } from './rest-test-clients';
import { businessOf, users } from './storage-helpers';

const MB = 1024 * 1024;
/** Three read chunks and a bit: every chunk boundary is crossed. */
const content = Buffer.from(Array.from({ length: 3 * MB + 12_345 }, (_, i) => (i * 7 + (i >> 11)) % 256));

let stack: StackHandle;
let owner1: SupabaseClient;
let path: string;
let signedUrl: string;

beforeAll(async () => {
  stack = await startStack();
  owner1 = await userClient(stack, users.owner1);
  path = `${await businessOf(stack, users.owner1)}/large/archive.zip`;
  const upload = await owner1.storage.from('exports').upload(path, content, { contentType: 'application/zip' });
  expect(upload.error).toBeNull();
  const signed = await owner1.storage.from('exports').createSignedUrl(path, 600);
  expect(signed.error).toBeNull();
  signedUrl = signed.data!.signedUrl;
}, 60_000);
afterAll(() => stack?.stop());

describe('large downloads', () => {
  it('stream the stored bytes uncompressed whatever encodings the client accepts', async () => {
    const response = await fetch(signedUrl, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBe(String(content.byteLength));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('come back whole through storage-js download()', async () => {
    const download = await owner1.storage.from('exports').download(path);
    expect(download.error).toBeNull();
    expect(Buffer.from(await download.data!.arrayBuffer()).equals(content)).toBe(true);
  });

  it('carry the gateway\'s CORS headers, though the file goes to the socket past Hono (docs/adr/0442)', async () => {
    const origin = 'http://127.0.0.1:5173';
    const response = await fetch(signedUrl, { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
  });

  it('answer HEAD with the size and no body', async () => {
    const response = await fetch(signedUrl, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(content.byteLength));
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('range requests', () => {
  async function range(header: string) {
    const response = await fetch(signedUrl, { headers: { range: header } });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('serve a slice across a chunk boundary with 206 and Content-Range', async () => {
    const start = MB - 100;
    const end = 2 * MB + 100;
    const { response, bytes } = await range(`bytes=${start}-${end}`);
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${content.byteLength}`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(bytes.equals(content.subarray(start, end + 1))).toBe(true);
  });

  it('serve an open-ended range and a suffix range', async () => {
    const tail = await range(`bytes=${content.byteLength - 10}-`);
    expect(tail.response.status).toBe(206);
    expect(tail.bytes.equals(content.subarray(content.byteLength - 10))).toBe(true);

    const suffix = await range('bytes=-500');
    expect(suffix.response.status).toBe(206);
    expect(suffix.response.headers.get('content-range')).toBe(`bytes ${content.byteLength - 500}-${content.byteLength - 1}/${content.byteLength}`);
    expect(suffix.bytes.equals(content.subarray(content.byteLength - 500))).toBe(true);
  });

  it('refuse a range past the end with InvalidRange', async () => {
    const { response, bytes } = await range(`bytes=${content.byteLength}-`);
    expect(response.status).toBe(400);
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ code: 'InvalidRange', message: 'invalid range provided' });
  });
});
