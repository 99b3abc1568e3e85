/**
 * FileStore.open: the bytes of a range as a Web stream, read with a buffer no larger than the range (a small range
 * or a small file does not allocate a full STREAM_CHUNK), and the whole file in STREAM_CHUNK pieces handed over
 * without a copy (docs/adr/0405).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStore, STREAM_CHUNK } from './file-store';

const root = mkdtempSync(join(tmpdir(), 'storewise-file-store-'));
const store = new FileStore(root);

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function stored(bytes: Buffer): Promise<string> {
  const version = randomUUID();
  const body = (async function* () { yield bytes; })();
  const written = await store.writeTemp(body, bytes.byteLength + 1, 'application/octet-stream');
  await store.keep(written.tempPath, version);
  return version;
}

/** How many of this process's file descriptors point at path (Linux /proc). */
function openDescriptors(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

async function read(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Buffer; chunks: Uint8Array[] }> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), chunks };
}

describe('FileStore.open', () => {
  const content = Buffer.from(Array.from({ length: STREAM_CHUNK + 5000 }, (_, i) => i % 251));

  it('reads a small range with a buffer of the range length', async () => {
    const version = await stored(content);
    const { bytes, chunks } = await read(store.open(version, { start: 10, end: 109 }));
    expect(bytes.equals(content.subarray(10, 110))).toBe(true);
    expect(chunks.map((chunk) => chunk.buffer.byteLength)).toEqual([100]);
  });

  it('reads a whole large file in chunks of STREAM_CHUNK', async () => {
    const version = await stored(content);
    const { bytes, chunks } = await read(store.open(version, { start: 0, end: content.byteLength - 1 }));
    expect(bytes.equals(content)).toBe(true);
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([STREAM_CHUNK, 5000]);
    // Each chunk is the read buffer itself, not a copy of a larger one.
    expect(chunks.map((chunk) => chunk.buffer.byteLength)).toEqual([STREAM_CHUNK, 5000]);
  });

  it('reads a range that crosses a chunk boundary', async () => {
    const version = await stored(content);
    const start = STREAM_CHUNK - 10;
    const { bytes } = await read(store.open(version, { start, end: STREAM_CHUNK + 20 }));
    expect(bytes.equals(content.subarray(start, STREAM_CHUNK + 21))).toBe(true);
  });

  it('closes the file when the reader cancels', async () => {
    const version = await stored(content);
    const reader = store.open(version, { start: 0, end: content.byteLength - 1 }).getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(STREAM_CHUNK);
    expect(openDescriptors(store.pathOf(version))).toBe(1);
    await reader.cancel();
    expect(openDescriptors(store.pathOf(version))).toBe(0);
  });

  it('reads an empty file as no bytes', async () => {
    const version = await stored(Buffer.alloc(0));
    const { bytes } = await read(store.open(version, { start: 0, end: -1 }));
    expect(bytes.byteLength).toBe(0);
  });
});

describe('FileStore.writeTemp', () => {
  /** A Node stream of 64 kB pieces, as a socket gives them, 2.5 STREAM_CHUNKs in all. */
  function socketLike(bytes: Buffer): Readable {
    let offset = 0;
    return new Readable({
      highWaterMark: 16 * 1024,
      read() {
        const piece = bytes.subarray(offset, offset + 64 * 1024);
        offset += piece.byteLength;
        this.push(piece.byteLength > 0 ? piece : null);
      },
    });
  }
  const bytes = Buffer.from(Array.from({ length: Math.floor(2.5 * STREAM_CHUNK) }, (_, i) => (i * 31 + (i >> 10)) % 256));
  const tempFiles = () => readdirSync(join(root, 'tmp'));

  it('writes a Node stream whole, with the MD5 of its bytes as the eTag', async () => {
    const written = await store.writeTemp(socketLike(bytes), bytes.byteLength, 'application/octet-stream');
    expect(written.size).toBe(bytes.byteLength);
    expect(written.eTag).toBe(`"${createHash('md5').update(bytes).digest('hex')}"`);
    expect(readFileSync(written.tempPath).equals(bytes)).toBe(true);
    await store.discardTemp(written.tempPath);
  });

  it('refuses a body over the limit after reading it, and keeps nothing', async () => {
    const source = socketLike(bytes);
    await expect(store.writeTemp(source, STREAM_CHUNK, 'application/octet-stream')).rejects.toMatchObject({ code: 'EntityTooLarge' });
    expect(source.readableEnded).toBe(true);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses content that is not of the declared type, and keeps nothing', async () => {
    await expect(store.writeTemp(socketLike(bytes), bytes.byteLength, 'image/png')).rejects.toMatchObject({ statusCode: 415 });
    expect(tempFiles()).toEqual([]);
  });

  it('passes on a body that fails half way, and keeps nothing', async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        sent += 1;
        if (sent > 20) this.destroy(new Error('connection reset'));
        else this.push(bytes.subarray(0, 64 * 1024));
      },
    });
    await expect(store.writeTemp(failing, bytes.byteLength, 'application/octet-stream')).rejects.toThrow('connection reset');
    expect(tempFiles()).toEqual([]);
  });
});
