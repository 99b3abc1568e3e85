/**
 * Storage throughput and memory (issue 27, docs/adr/0405, 0440, 0442): a 10 MB file (and a 40 MB one, to show memory
 * does not grow with the file) uploaded with storage-js from a file stream and downloaded through a signed URL read
 * as a stream. Printed beside two references measured in the same run: the disk's own copy of the file, and the
 * same bytes through a bare loopback TCP socket (the floor of any HTTP transfer here). Also the fixed cost of one
 * request (a 1-byte object: JWT, the PGlite round trips for the bucket, the permission test and the row), and peak
 * RSS above its level before the transfers (the kernel's own peak, lib/peak-rss.ts): the service streams, so the
 * peak stays far below the file size. Each figure comes with its CPU time per MB, which a loaded machine disturbs much less than the
 * wall clock.
 *
 * The client hands storage-js a Node file stream of 1 MB pieces, as a Node user would upload a file (docs/adr/0440).
 *
 * The stack runs in a child process of its own, as `npm start` runs it (docs/adr/0442): its CPU per MB and peak RSS
 * are the service's alone, and the client's share is printed beside it. Until ADR 0442 client and service shared one
 * process and event loop, so the client's fetch, stream and GC costs were billed to the service; `--in-process`
 * runs it that way again (the figures of ADRs 0405 and 0440; "all" CPU is then client and service together).
 *
 *   npm run bench -- storage.bench [--in-process]
 *   STOREWISE_BENCH_SERVICE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service's process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalStack } from '../supabase/local/server';
import { createNodeSupabaseClient } from '../tests/helpers/node-supabase-client';
import { loopbackMs } from './lib/loopback-floor';
import { peakRss } from './lib/peak-rss';

const MB = 1024 * 1024;
const ROUNDS = 7;
const inProcess = process.argv.includes('--in-process');
const root = mkdtempSync(join(tmpdir(), 'storewise-storage-bench-'));
const storageDir = join(root, 'storage');
mkdirSync(storageDir);

/** The service's side: CPU so far and peak RSS, of this process (in-process) or of the stack's child. */
interface Service {
  apiUrl: string;
  serviceRoleKey: string;
  cpuMs(): Promise<number>;
  peakStart(): Promise<void>;
  peakStop(): Promise<number>;
  stop(): Promise<void>;
}

function ownCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

async function startInProcess(): Promise<Service> {
  const stack = await startLocalStack({ memory: true, seed: false, apiPort: 0, inboxPort: 0, paymentsPort: 0, outboxRelay: false,
    storageDir, storageMaxFileSize: 64 * MB });
  const peak = peakRss();
  return {
    apiUrl: stack.apiUrl,
    serviceRoleKey: stack.serviceRoleKey,
    cpuMs: async () => ownCpuMs(),
    peakStart: async () => peak.start(),
    peakStop: async () => peak.stop(),
    stop: () => stack.stop(),
  };
}

async function startChild(): Promise<Service> {
  const flags = (process.env.STOREWISE_BENCH_SERVICE_FLAGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = fork(fileURLToPath(new URL('./lib/storage-service-process.ts', import.meta.url)), [storageDir], {
    execArgv: ['--expose-gc', '--import', 'tsx', ...flags],
    stdio: 'inherit',
  });
  type Message = { type: string; [key: string]: unknown };
  const next = async (type: string): Promise<Message> => {
    for (;;) {
      const [message] = (await once(child, 'message')) as [Message];
      if (message.type === type) return message;
    }
  };
  const ready = await next('ready');
  const ask = async (type: string, answer: string) => {
    const reply = next(answer);
    child.send({ type });
    return reply;
  };
  return {
    apiUrl: ready.apiUrl as string,
    serviceRoleKey: ready.serviceRoleKey as string,
    cpuMs: async () => (await ask('usage', 'usage')).cpuMs as number,
    peakStart: async () => void (await ask('peak-start', 'peak-started')),
    peakStop: async () => (await ask('peak-stop', 'peak')).mb as number,
    async stop() {
      const exited = once(child, 'exit');
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

const service = inProcess ? await startInProcess() : await startChild();
const client = createNodeSupabaseClient(service.apiUrl, service.serviceRoleKey);
const bucket = client.storage.from('exports');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Timing {
  /** Wall-clock milliseconds. */
  ms: number;
  /**
   * CPU milliseconds of every thread of the bench's process (the client; in-process also the service, PGlite and
   * the file system's threads).
   */
  cpuMs: number;
  /** CPU milliseconds of the service's process (every thread of it); in-process the same as cpuMs. */
  serviceCpuMs: number;
}

/**
 * Wall and CPU time of fn. On two cores shared with other work the wall clock mostly measures the queue for a
 * core; CPU time is what the transfer itself costs, and is compared with the disk copy's in the same way.
 */
async function timed(fn: () => Promise<unknown>, measureService = true): Promise<Timing> {
  const serviceBefore = measureService && !inProcess ? await service.cpuMs() : 0;
  const started = performance.now();
  const cpu = ownCpuMs();
  await fn();
  const cpuMs = ownCpuMs() - cpu;
  const ms = performance.now() - started;
  const serviceCpuMs = measureService && !inProcess ? (await service.cpuMs()) - serviceBefore : cpuMs;
  return { ms, cpuMs, serviceCpuMs };
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

/** CPU per MB: the service's, and in a child process also the client's and the two together. */
function cpuOf(timings: Timing[], sizeMb: number): string {
  const per = (values: number[]) => (median(values) / sizeMb).toFixed(2);
  if (inProcess) return `CPU all ${per(timings.map((t) => t.cpuMs))} ms/MB`;
  return `CPU service ${per(timings.map((t) => t.serviceCpuMs))}, client ${per(timings.map((t) => t.cpuMs))}, ` +
    `all ${per(timings.map((t) => t.cpuMs + t.serviceCpuMs))} ms/MB`;
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
  const show = (timings: Timing[]) => `${median(timings.map((t) => t.ms)).toFixed(1)} ms (${cpuOf(timings, 1).replace(' ms/MB', ' ms')})`;
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
  const clientPeak = peakRss();
  // In-process the service's tracker is the process's: one tracker only.
  if (!inProcess) clientPeak.start();
  await service.peakStart();
  for (let round = 0; round < ROUNDS; round += 1) {
    const timing = await transfer(`bench/${sizeMb}-${round}.bin`, file, bytes.length);
    uploads.push(timing.upload);
    downloads.push(timing.download);
    disk.push(await timed(() => copyFile(file, join(root, 'copy.bin')), false));
    let socketMs = 0;
    const floor = await timed(async () => (socketMs = await loopbackMs(bytes.length)), false);
    // The wall time of the bytes alone, not of opening the listener; CPU as measured (setup is a fraction of it).
    tcp.push({ ...floor, ms: socketMs });
  }
  const servicePeakMb = await service.peakStop();
  const clientPeakMb = inProcess ? servicePeakMb : clientPeak.stop();
  const speed = (timings: Timing[]) => `${(sizeMb / (median(timings.map((t) => t.ms)) / 1000)).toFixed(0).padStart(5)} MB/s`;
  const reference = (timings: Timing[]) => `${speed(timings)} (CPU ${(median(timings.map((t) => t.cpuMs)) / sizeMb).toFixed(2)} ms/MB)`;
  const rss = inProcess
    ? `peak RSS +${servicePeakMb.toFixed(1)} MB (client and service)`
    : `peak RSS service +${servicePeakMb.toFixed(1)} MB, client +${clientPeakMb.toFixed(1)} MB`;
  console.log(`${String(sizeMb).padStart(3)} MB file, ${ROUNDS} rounds (medians), load ${loadavg()[0]!.toFixed(2)}:`);
  console.log(`    upload   ${speed(uploads)} (${cpuOf(uploads, sizeMb)})`);
  console.log(`    download ${speed(downloads)} (${cpuOf(downloads, sizeMb)})`);
  console.log(`    disk copy ${reference(disk)}, loopback TCP ${reference(tcp)}; ${rss}`);
}

try {
  console.log(`Storage, service ${inProcess ? 'in the bench\'s process' : 'in its own process'}, files under ${root}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await requestOverhead();
  await measure(10);
  await measure(40);
} finally {
  await service.stop();
  rmSync(root, { recursive: true, force: true });
}
