/**
 * Storage throughput and memory (issue 27): a 10 MB file (and a 40 MB one, to show memory does not grow with
 * the file) uploaded with storage-js from a file stream and downloaded through a signed URL read as a stream,
 * against the embedded stack in this process. Printed beside the disk's own copy speed for the same file, and the
 * process's peak RSS above its level before the transfers (sampled every 5 ms): the service streams, so the peak
 * stays far below the file size.
 *
 *   npm run bench -- storage
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startLocalStack } from '../supabase/local/server';
import { createNodeSupabaseClient } from '../tests/helpers/node-supabase-client';

const MB = 1024 * 1024;
const ROUNDS = 5;
const root = mkdtempSync(join(tmpdir(), 'storewise-storage-bench-'));
const stack = await startLocalStack({ memory: true, seed: false, apiPort: 0, inboxPort: 0, paymentsPort: 0, outboxRelay: false,
  storageDir: join(root, 'storage'), storageMaxFileSize: 64 * MB });
const client = createNodeSupabaseClient(stack.apiUrl, stack.serviceRoleKey);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Peak RSS while fn runs, above the RSS just before it. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  global.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakMb: (peak - base) / MB };
  } finally {
    clearInterval(timer);
  }
}

async function measure(sizeMb: number) {
  const file = join(root, `file-${sizeMb}.bin`);
  const bytes = Buffer.alloc(sizeMb * MB);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
  writeFileSync(file, bytes);
  const uploads: number[] = [];
  const downloads: number[] = [];
  const disk: number[] = [];
  const run = await withPeakRss(async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const name = `bench/${sizeMb}-${round}.bin`;
      let started = performance.now();
      const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
      const upload = await client.storage.from('exports').upload(name, body, { contentType: 'application/zip', duplex: 'half' });
      if (upload.error) throw upload.error;
      uploads.push(performance.now() - started);

      const signed = await client.storage.from('exports').createSignedUrl(name, 60);
      if (signed.error) throw signed.error;
      started = performance.now();
      const response = await fetch(signed.data.signedUrl);
      let received = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
      if (received !== bytes.length) throw new Error(`downloaded ${received} of ${bytes.length} bytes`);
      downloads.push(performance.now() - started);

      started = performance.now();
      await copyFile(file, join(root, 'copy.bin'));
      disk.push(performance.now() - started);
    }
  });
  const speed = (ms: number) => `${(sizeMb / (ms / 1000)).toFixed(0).padStart(5)} MB/s`;
  console.log(
    `${String(sizeMb).padStart(3)} MB file: upload ${speed(median(uploads))}, download ${speed(median(downloads))}, ` +
      `disk copy ${speed(median(disk))}; peak RSS +${run.peakMb.toFixed(1)} MB over ${ROUNDS} rounds (medians)`,
  );
}

try {
  console.log(`Storage on ${stack.db.kind}, files under ${root}`);
  await measure(10);
  await measure(40);
} finally {
  await stack.stop();
  rmSync(root, { recursive: true, force: true });
}
