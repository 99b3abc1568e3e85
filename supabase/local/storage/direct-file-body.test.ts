/**
 * Object downloads written from the file to Node's response (docs/adr/0442): behind a real @hono/node-server, a
 * response whose body came from FileStore.open is sent by sendWithFileBodies from the file itself, with the
 * headers the app and its middleware set, any range, and the file closed at the end or when the client goes away;
 * every other response passes unchanged.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSourceOf, markFileBody, sendWithFileBodies } from './direct-file-body';
import { FileStore, STREAM_CHUNK } from './file-store';

const root = mkdtempSync(join(tmpdir(), 'storewise-direct-body-'));
const store = new FileStore(root);
/** Three chunks and a bit. */
const content = Buffer.from(Array.from({ length: 3 * STREAM_CHUNK + 777 }, (_, i) => (i * 13 + (i >> 9)) % 256));
let version: string;
/** Larger than loopback's socket buffers, so a client that stops reading holds the server mid-file. */
let bigVersion: string;
let server: ServerType;
let base: string;

function openDescriptors(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

beforeAll(async () => {
  version = randomUUID();
  const written = await store.writeTemp((async function* () { yield content; })(), content.byteLength, 'application/octet-stream');
  await store.keep(written.tempPath, version);
  bigVersion = randomUUID();
  const big = Buffer.alloc(48 * STREAM_CHUNK, 7);
  await store.keep((await store.writeTemp((async function* () { yield big; })(), big.byteLength, 'application/octet-stream')).tempPath, bigVersion);
  const app = new Hono();
  // Middleware that adds a header after the handler, as the gateway's CORS does.
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('x-added-after', 'yes');
  });
  app.get('/file', (c) => {
    const range = c.req.query('start') ? { start: Number(c.req.query('start')), end: Number(c.req.query('end')) } : { start: 0, end: content.byteLength - 1 };
    return new Response(store.open(version, range), {
      status: c.req.query('start') ? 206 : 200,
      headers: { 'accept-ranges': 'bytes', 'content-length': String(range.end - range.start + 1), 'content-type': 'application/zip' },
    });
  });
  // A marked stream that fails if anything reads it: only the direct path can serve it.
  app.get('/unreadable', () => {
    const stream = new ReadableStream<Uint8Array>({
      pull() {
        throw new Error('read through the Web stream');
      },
    });
    markFileBody(stream, { path: store.pathOf(version), start: 0, end: 1000, chunkSize: STREAM_CHUNK });
    return new Response(stream, { headers: { 'accept-ranges': 'bytes', 'content-length': '1000' } });
  });
  app.get('/big', () => new Response(store.open(bigVersion, { start: 0, end: 48 * STREAM_CHUNK - 1 }), { headers: { 'accept-ranges': 'bytes' } }));
  // A row that promises more bytes than the file holds (a file cut outside the service).
  app.get('/short', () => {
    const stream = markFileBody(new ReadableStream<Uint8Array>(), { path: store.pathOf(version), start: 0, end: content.byteLength + 5000, chunkSize: STREAM_CHUNK });
    return new Response(stream, { headers: { 'accept-ranges': 'bytes', 'content-length': String(content.byteLength + 5000) } });
  });
  app.get('/plain', () => new Response(new Blob(['plain body']).stream(), { headers: { 'accept-ranges': 'bytes' } }));
  app.get('/json', (c) => c.json({ ok: true }));
  const fetch = sendWithFileBodies(app.fetch);
  await new Promise<void>((resolve) => {
    // Unit files share a worker: leave the global Response alone (the stack's own server replaces it).
    server = serve({ fetch, hostname: '127.0.0.1', port: 0, overrideGlobalObjects: false }, (info: AddressInfo) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});

afterAll(async () => {
  if ('closeAllConnections' in server) server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('sendWithFileBodies', () => {
  it('sends the whole file with the headers of the app and its middleware', async () => {
    const response = await fetch(`${base}/file`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(content.byteLength));
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('x-added-after')).toBe('yes');
    expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
    expect(openDescriptors(store.pathOf(version))).toBe(0);
  });

  it('sends a range across chunk boundaries', async () => {
    const start = STREAM_CHUNK - 10;
    const end = 2 * STREAM_CHUNK + 10;
    const response = await fetch(`${base}/file?start=${start}&end=${end}`);
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(start, end + 1))).toBe(true);
  });

  it('does not read the Web stream of a file body', async () => {
    const response = await fetch(`${base}/unreadable`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(0, 1000))).toBe(true);
  });

  it('cuts the connection when the file ends before its size, so the client cannot take it for whole', async () => {
    const response = await fetch(`${base}/short`);
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
    expect(openDescriptors(store.pathOf(version))).toBe(0);
  });

  it('passes other responses unchanged', async () => {
    expect(await (await fetch(`${base}/plain`)).text()).toBe('plain body');
    expect(await (await fetch(`${base}/json`)).json()).toEqual({ ok: true });
  });

  it('closes the file when the client goes away mid-download', async () => {
    const controller = new AbortController();
    const path = store.pathOf(bigVersion);
    const response = await fetch(`${base}/big`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    // Not reading on: the server waits for the socket with the file open.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(openDescriptors(path)).toBe(1);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    const deadline = Date.now() + 5000;
    while (openDescriptors(path) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(openDescriptors(path)).toBe(0);
    // The server still answers the next request.
    expect((await fetch(`${base}/json`)).status).toBe(200);
  });

  it('marks only streams nobody has read', async () => {
    const stream = store.open(version, { start: 0, end: 9 });
    expect(fileSourceOf(stream)).toMatchObject({ path: store.pathOf(version), start: 0, end: 10 });
    const reader = stream.getReader();
    expect(fileSourceOf(stream)).toBeUndefined();
    await reader.cancel();
  });
});
