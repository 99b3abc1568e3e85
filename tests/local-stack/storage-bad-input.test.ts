/**
 * The "Bad input" list, each sent with storage-js over HTTP (or raw HTTP where storage-js or fetch would
 * clean the input first) and each refused with Storage's error: a file over the limit, an SVG or HTML page named
 * .png, a path with "..", another business's folder, an expired or tampered signed URL, an upload without the
 * right role. Nothing refused leaves a row or a file behind.
 */
import { request as httpRequest } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startStack, type StackHandle } from '../helpers/stack';
import { userClient, userToken } from './rest-test-clients';
import { addCashier, businessOf, htmlBytes, pdfBytes, pngBlob, pngBytes, svgBytes, users } from './storage-helpers';

let stack: StackHandle;
let owner1: SupabaseClient;
let owner2: SupabaseClient;
let cashier: SupabaseClient;
let admin: SupabaseClient;
let business1: string;
let business2: string;

beforeAll(async () => {
  stack = await startStack();
  business1 = await businessOf(stack, users.owner1);
  business2 = await businessOf(stack, users.owner2);
  owner1 = await userClient(stack, users.owner1);
  owner2 = await userClient(stack, users.owner2);
  admin = await userClient(stack, users.admin);
  cashier = await userClient(stack, await addCashier(stack, business1));
}, 60_000);
afterAll(() => stack?.stop());

async function objectCount(bucket: string): Promise<number> {
  const result = await stack.db.query<{ n: number }>('select count(*)::int as n from storage.objects where bucket_id = $1', [bucket]);
  return result.rows[0]!.n;
}

/** Uploads and downloads that must leave no temporary file behind. */
function tempFiles(): string[] {
  return readdirSync(join(stack.stack.storage.files.root, 'tmp'));
}

/** A request whose path is sent exactly as written (fetch would resolve "..", as a browser does). */
function rawRequest(method: string, path: string, token: string, body?: Buffer): Promise<{ status: number; json: unknown }> {
  const url = new URL(stack.apiUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text || 'null') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('size and type', () => {
  it('refuses a file over the bucket limit with 413 EntityTooLarge, keeping nothing', async () => {
    const before = await objectCount('support-attachments');
    const ticket = await fileTicket(owner1);
    const tooBig = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    tooBig.write('%PDF-1.7\n');
    const result = await owner1.storage.from('support-attachments').upload(`${ticket}/big.pdf`, tooBig, { contentType: 'application/pdf' });
    expect(result.error).toMatchObject({ status: 400, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    // Exactly at the limit is accepted.
    const atLimit = tooBig.subarray(0, 10 * 1024 * 1024);
    expect((await owner1.storage.from('support-attachments').upload(`${ticket}/ok.pdf`, atLimit, { contentType: 'application/pdf' })).error).toBeNull();
    expect(await objectCount('support-attachments')).toBe(before + 1);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses a type the bucket does not allow with 415 invalid_mime_type', async () => {
    const result = await owner1.storage.from('product-images').upload(`${business1}/p/page.html`, htmlBytes, { contentType: 'text/html' });
    expect(result.error).toMatchObject({ statusCode: '415', message: 'mime type text/html is not supported' });
  });

  it.each([
    ['an SVG', svgBytes],
    ['an HTML page', htmlBytes],
    ['a PDF', pdfBytes],
  ])('refuses %s named .png and declared image/png (checked by content, not by name)', async (_label, bytes) => {
    const before = await objectCount('product-images');
    const raw = await owner1.storage.from('product-images').upload(`${business1}/p/evil.png`, bytes, { contentType: 'image/png' });
    expect(raw.error).toMatchObject({ statusCode: '415' });
    const blob = await owner1.storage.from('product-images').upload(`${business1}/p/evil.png`, new Blob([bytes], { type: 'image/png' }));
    expect(blob.error).toMatchObject({ statusCode: '415' });
    expect(await objectCount('product-images')).toBe(before);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses a support attachment that claims to be a PDF but is not', async () => {
    const ticket = await fileTicket(owner1);
    const result = await owner1.storage.from('support-attachments').upload(`${ticket}/invoice.pdf`, htmlBytes, { contentType: 'application/pdf' });
    expect(result.error).toMatchObject({ statusCode: '415' });
  });
});

describe('paths', () => {
  it('refuses ".." in a name with 400 InvalidKey, sent as is or percent-encoded', async () => {
    const token = await userToken(stack, users.owner1);
    const literal = await rawRequest('POST', `/storage/v1/object/product-images/${business1}/../${business2}/x.png`, token, pngBytes);
    expect(literal).toMatchObject({ status: 400, json: { statusCode: '400', code: 'InvalidKey' } });
    const encoded = await rawRequest('POST', `/storage/v1/object/product-images/${business1}/..%2F${business2}%2Fx.png`, token, pngBytes);
    expect(encoded).toMatchObject({ status: 400, json: { statusCode: '400', code: 'InvalidKey' } });
    const read = await rawRequest('GET', `/storage/v1/object/product-images/${business1}/%2e%2e/x.png`, token);
    expect(read).toMatchObject({ status: 400, json: { code: 'InvalidKey' } });
  });

  it('resolves ".." the way a browser does before sending, which lands in another business and is refused (403)', async () => {
    const result = await owner1.storage.from('product-images').upload(`${business1}/../${business2}/x.png`, pngBlob());
    expect(result.error).toMatchObject({ statusCode: '403' });
  });

  it('refuses ".." as a move or copy destination', async () => {
    await owner1.storage.from('product-images').upload(`${business1}/mv/src.png`, pngBlob());
    const move = await owner1.storage.from('product-images').move(`${business1}/mv/src.png`, `${business1}/../${business2}/src.png`);
    expect(move.error).toMatchObject({ statusCode: '400' });
    const copy = await owner1.storage.from('product-images').copy(`${business1}/mv/src.png`, `${business1}/mv/../../x.png`);
    expect(copy.error).toMatchObject({ statusCode: '400' });
  });
});

describe('tenants and roles', () => {
  it("refuses an upload into another business's folder with 403 and writes nothing", async () => {
    const before = await objectCount('product-images');
    const result = await owner2.storage.from('product-images').upload(`${business1}/p/x.png`, pngBlob());
    expect(result.error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' });
    const upsert = await owner2.storage.from('business-logos').upload(`${business1}/logo.png`, pngBlob(), { upsert: true });
    expect(upsert.error).toMatchObject({ statusCode: '403' });
    expect(await objectCount('product-images')).toBe(before);
  });

  it("neither reads, lists, signs, moves, copies nor removes another business's files", async () => {
    const path = `${business1}/secret.csv`;
    expect((await owner1.storage.from('exports').upload(path, Buffer.from('x'), { contentType: 'text/csv' })).error).toBeNull();
    const bucket = owner2.storage.from('exports');
    expect((await bucket.download(path)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.info(path)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.exists(path)).data).toBe(false);
    expect((await bucket.list(business1)).data).toEqual([]);
    expect((await bucket.createSignedUrl(path, 60)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.createSignedUrls([path], 60)).data![0]!.signedUrl).toBeNull();
    expect((await bucket.move(path, `${business2}/stolen.csv`)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.copy(path, `${business2}/stolen.csv`)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.remove([path])).data).toEqual([]);
    expect((await owner1.storage.from('exports').exists(path)).data).toBe(true);
    // Nor can an owner move their own file into another business's folder (the UPDATE policy's check).
    await owner1.storage.from('product-images').upload(`${business1}/p/mine.png`, pngBlob());
    const move = await owner1.storage.from('product-images').move(`${business1}/p/mine.png`, `${business2}/p/gift.png`);
    expect(move.error).toMatchObject({ statusCode: '403' });
    // Exports have no UPDATE policy at all: nothing there can be renamed.
    expect((await owner1.storage.from('exports').move(path, `${business1}/renamed.csv`)).error).toMatchObject({ statusCode: '404' });
  });

  it("refuses a cashier's product image with 403, before reading the body (not 413 for a body over the limit)", async () => {
    const small = await cashier.storage.from('product-images').upload(`${business1}/p/c.png`, pngBlob());
    expect(small.error).toMatchObject({ statusCode: '403' });
    const big = Buffer.alloc(6 * 1024 * 1024);
    pngBytes.copy(big);
    const large = await cashier.storage.from('product-images').upload(`${business1}/p/c.png`, big, { contentType: 'image/png' });
    expect(large.error).toMatchObject({ statusCode: '403' });
    expect(tempFiles()).toEqual([]);
    // The cashier still sees the catalog's pictures and the logo, and cannot touch the exports.
    await owner1.storage.from('product-images').upload(`${business1}/p/seen.png`, pngBlob());
    expect((await cashier.storage.from('product-images').list(`${business1}/p`)).data!.map((f) => f.name)).toContain('seen.png');
    expect((await cashier.storage.from('exports').list(business1)).data).toEqual([]);
    expect((await cashier.storage.from('business-logos').upload(`${business1}/logo.png`, pngBlob())).error).toMatchObject({ statusCode: '403' });
  });

  it('keeps support attachments to the ticket owner and the admins', async () => {
    const ticket = await fileTicket(owner1);
    const path = `${ticket}/receipt.pdf`;
    expect((await owner1.storage.from('support-attachments').upload(path, pdfBytes, { contentType: 'application/pdf' })).error).toBeNull();
    expect((await owner2.storage.from('support-attachments').download(path)).error).toMatchObject({ statusCode: '404' });
    const adminRead = await admin.storage.from('support-attachments').download(path);
    expect(adminRead.error).toBeNull();
    expect(Buffer.from(await adminRead.data!.arrayBuffer()).equals(pdfBytes)).toBe(true);
    // Another user cannot attach to this ticket, and the owner cannot replace what was sent.
    expect((await owner2.storage.from('support-attachments').upload(`${ticket}/x.pdf`, pdfBytes, { contentType: 'application/pdf' })).error)
      .toMatchObject({ statusCode: '403' });
    expect((await owner1.storage.from('support-attachments').upload(path, pdfBytes, { contentType: 'application/pdf', upsert: true })).error)
      .toMatchObject({ statusCode: '403' });
    expect((await owner1.storage.from('support-attachments').remove([path])).data).toEqual([]);
  });

  it('refuses calls without a valid JWT', async () => {
    const response = await fetch(`${stack.apiUrl}/storage/v1/object/exports/${business1}/x.csv`, { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '403' });
  });
});

describe('signed URLs', () => {
  it('refuses an expired signed URL', async () => {
    const path = `${business1}/soon.csv`;
    await owner1.storage.from('exports').upload(path, Buffer.from('x'), { contentType: 'text/csv' });
    // Two seconds: the token's exp is in whole seconds, so one second may already be over when the first read
    // lands on a loaded machine (iat 12.999, exp 13).
    const { data } = await owner1.storage.from('exports').createSignedUrl(path, 2);
    expect((await fetch(data!.signedUrl)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const expired = await fetch(data!.signedUrl);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT', message: 'jwt expired' });
  });

  it('refuses a tampered token and a token used for another object', async () => {
    const path = `${business1}/signed.csv`;
    await owner1.storage.from('exports').upload(path, Buffer.from('x'), { contentType: 'text/csv' });
    const { data } = await owner1.storage.from('exports').createSignedUrl(path, 60);
    const url = new URL(data!.signedUrl);
    const token = url.searchParams.get('token')!;
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.url = `exports/${business2}/theirs.csv`;
    url.searchParams.set('token', `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`);
    const tampered = await fetch(url);
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ code: 'InvalidJWT', message: 'invalid signature' });

    const elsewhere = new URL(data!.signedUrl.replace('signed.csv', 'soon.csv'));
    const moved = await fetch(elsewhere);
    expect(await moved.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });

    // A user's access token is not a signed URL, and a signed-URL token is not an access token.
    const access = await userToken(stack, users.owner1);
    const asSigned = await fetch(`${stack.apiUrl}/storage/v1/object/sign/exports/${path}?token=${access}`);
    expect(await asSigned.json()).toMatchObject({ code: 'InvalidJWT' });
    const asAccess = await fetch(`${stack.apiUrl}/storage/v1/object/exports/${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await asAccess.json()).toMatchObject({ statusCode: '403' });
  });

  it('refuses a signed upload URL for another path, and an upload-URL request without the role', async () => {
    const signed = await owner1.storage.from('exports').createSignedUploadUrl(`${business1}/up.csv`);
    const other = await owner1.storage.from('exports').uploadToSignedUrl(`${business2}/up.csv`, signed.data!.token, Buffer.from('x'), { contentType: 'text/csv' });
    expect(other.error).toMatchObject({ statusCode: '400' });
    expect((await cashier.storage.from('exports').createSignedUploadUrl(`${business1}/up.csv`)).error).toMatchObject({ statusCode: '403' });
  });
});

async function fileTicket(client: SupabaseClient): Promise<string> {
  const { data, error } = await client
    .from('support_tickets')
    .insert({ user_id: users.owner1, subject: 'Printer question', message: 'The receipt printer cuts the logo.' })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}
