/**
 * FileStore.open: the bytes of a range as a Web stream, read with a buffer no larger than the range (a small range
 * or a small file does not allocate a full STREAM_CHUNK), and the whole file in STREAM_CHUNK pieces handed over
 * without a copy (docs/adr/0405).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
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
