/**
 * Storage throughput and memory (issue 27, docs/adr/0405): a 10 MB file (and a 40 MB one, to show memory does not
 * grow with the file) uploaded with storage-js from a file stream and downloaded through a signed URL read as a
 * stream, against the embedded stack in this process. Printed beside two references measured in the same run:
 * the disk's own copy of the file, and the same bytes through a bare loopback TCP socket (the floor of any HTTP
 * transfer here). Also the fixed cost of one request (a 1-byte object: JWT, the PGlite round trips for the bucket,
 * the permission test and the row), and the process's peak RSS above its level before the transfers (sampled every
 * 5 ms): the service streams, so the peak stays far below the file size. Each figure comes with its CPU time
 * per MB, which a loaded machine disturbs much less than the wall clock.
 *
 * The client hands storage-js a Node file stream of 1 MB pieces, as a Node user would upload a file (docs/adr/0440).
 * Client and service share this process and its event loop, so what the client holds or copies is billed to the
 * service: Readable.toWeb copied every chunk (ADR 0405), and Node 20's fetch held every piece of a hand-made Web
 * stream until the request ended (a 160 MB upload peaked at 160 MB of ArrayBuffers even with a GC every 20 ms; the
 * same bytes from a Node stream, or over node:http, stayed under 15 MB).
 *
 *   npm run bench -- storage.bench
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../supabase/local/server';
import { createNodeSupabaseClient } from '../tests/helpers/node-supabase-client';
import { loopbackMs } from './lib/loopback-floor';

const MB = 1024 * 1024;
const ROUNDS = 7;
const root = mkdtempSync(join(tmpdir(), 'storewise-storage-bench-'));
const stack = await startLocalStack({ memory: true, seed: false, apiPort: 0, inboxPort: 0, paymentsPort: 0, outboxRelay: false,
  storageDir: join(root, 'storage'), storageMaxFileSize: 64 * MB });
const client = createNodeSupabaseClient(stack.apiUrl, stack.serviceRoleKey);
const bucket = client.storage.from('exports');

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

interface Timing {
  /** Wall-clock milliseconds. */
  ms: number;
  /** CPU milliseconds of every thread of this process (client, service, PGlite, the file system's threads). */
  cpuMs: number;
}

/**
 * Wall and CPU time of fn. On two cores shared with other work the wall clock mostly measures the queue for a
 * core; CPU time is what the transfer itself costs, and is compared with the disk copy's in the same way.
 */
async function timed(fn: () => Promise<unknown>): Promise<Timing> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** Upload then download of one object. */
async function transfer(name: string, file: string, size: number): Promise<{ upload: Timing; download: Timing }> {
  const upload = await timed(async () => {
    const body = createReadStream(file, { highWaterMark: MB });
    const result = await bucket.upload(name, body, { contentType: 'application/zip', duplex: 'half' });
    if (result.error) throw result.error;
  });
  const signed = await bucket.createSignedUrl(name, 60);
  if (signed.error) throw signed.error;
  const download = await timed(async () => {
    const response = await fetch(signed.data.signedUrl);
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
    if (received !== size) throw new Error(`downloaded ${received} of ${size} bytes`);
  });
  return { upload, download };
}

async function requestOverhead() {
  const file = join(root, 'one-byte.bin');
  writeFileSync(file, Buffer.from([1]));
  const uploads: Timing[] = [];
  const downloads: Timing[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const timing = await transfer(`bench/one-byte-${round}.bin`, file, 1);
    uploads.push(timing.upload);
    downloads.push(timing.download);
  }
  const show = (timings: Timing[]) =>
    `${median(timings.map((t) => t.ms)).toFixed(1)} ms (CPU ${median(timings.map((t) => t.cpuMs)).toFixed(1)} ms)`;
  console.log(`  1 B  file: upload ${show(uploads)}, download ${show(downloads)}: the fixed cost of one request`);
}

async function measure(sizeMb: number) {
  const file = join(root, `file-${sizeMb}.bin`);
  const bytes = Buffer.alloc(sizeMb * MB);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
  writeFileSync(file, bytes);
  const uploads: Timing[] = [];
  const downloads: Timing[] = [];
  const disk: Timing[] = [];
  const tcp: Timing[] = [];
  // One transfer first: the first of a size grows the heaps and socket buffers once, which is not per-file memory.
  await transfer(`bench/${sizeMb}-warm-up.bin`, file, bytes.length);
  const run = await withPeakRss(async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const timing = await transfer(`bench/${sizeMb}-${round}.bin`, file, bytes.length);
      uploads.push(timing.upload);
      downloads.push(timing.download);
      disk.push(await timed(() => copyFile(file, join(root, 'copy.bin'))));
      let socketMs = 0;
      const floor = await timed(async () => (socketMs = await loopbackMs(bytes.length)));
      // The wall time of the bytes alone, not of opening the listener; CPU as measured (setup is a fraction of it).
      tcp.push({ ms: socketMs, cpuMs: floor.cpuMs });
    }
  });
  const show = (timings: Timing[]) => {
    const speed = (sizeMb / (median(timings.map((t) => t.ms)) / 1000)).toFixed(0).padStart(5);
    const cpu = (median(timings.map((t) => t.cpuMs)) / sizeMb).toFixed(2);
    return `${speed} MB/s (CPU ${cpu} ms/MB)`;
  };
  console.log(
    `${String(sizeMb).padStart(3)} MB file: upload ${show(uploads)}, download ${show(downloads)}, ` +
      `disk copy ${show(disk)}, loopback TCP ${show(tcp)}; peak RSS +${run.peakMb.toFixed(1)} MB over ${ROUNDS} rounds (medians)`,
  );
}

try {
  console.log(`Storage on ${stack.db.kind}, files under ${root}`);
  await requestOverhead();
  await measure(10);
  await measure(40);
} finally {
  await stack.stop();
  rmSync(root, { recursive: true, force: true });
}
