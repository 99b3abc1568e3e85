/**
 * FileStore.open: the bytes of a range, read with a buffer no larger than the range (a small range or a small
 * file does not allocate a full STREAM_CHUNK), and the whole file in STREAM_CHUNK pieces.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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

async function read(stream: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe('FileStore.open', () => {
  const content = Buffer.from(Array.from({ length: STREAM_CHUNK + 5000 }, (_, i) => i % 251));

  it('reads a small range with a buffer of the range length', async () => {
    const version = await stored(content);
    const stream = store.open(version, { start: 10, end: 109 });
    expect(stream.readableHighWaterMark).toBe(100);
    const { bytes } = await read(stream);
    expect(bytes.equals(content.subarray(10, 110))).toBe(true);
  });

  it('reads a whole large file in chunks of STREAM_CHUNK', async () => {
    const version = await stored(content);
    const stream = store.open(version, { start: 0, end: content.byteLength - 1 });
    expect(stream.readableHighWaterMark).toBe(STREAM_CHUNK);
    const { bytes, chunks } = await read(stream);
    expect(bytes.equals(content)).toBe(true);
    expect(chunks).toBe(2);
  });

  it('reads an empty file as no bytes', async () => {
    const version = await stored(Buffer.alloc(0));
    const { bytes } = await read(store.open(version, { start: 0, end: -1 }));
    expect(bytes.byteLength).toBe(0);
  });
});
