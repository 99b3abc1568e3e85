/**
 * A small pool of worker threads for bcrypt (docs/adr/0080): sign-ins hash and compare there, so the HTTP
 * thread keeps answering the data API meanwhile. One thread fewer than the machine has cores (at least
 * one, at most four), created on first use; idle threads do not keep the process alive.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

type Job = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };
type Answer = { id: number; ok: true; value: string | boolean } | { id: number; ok: false; message: string };

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (value: string | boolean) => void; reject: (error: Error) => void }>;
}

const workerUrl = new URL('./password-hash-worker.mjs', import.meta.url);
const size = Math.max(1, Math.min(4, availableParallelism() - 1));
const slots: Slot[] = [];
let nextId = 1;

function spawn(): Slot {
  const slot: Slot = { worker: new Worker(workerUrl), pending: new Map() };
  slot.worker.unref();
  slot.worker.on('message', (answer: Answer) => {
    const entry = slot.pending.get(answer.id);
    if (!entry) return;
    slot.pending.delete(answer.id);
    if (slot.pending.size === 0) slot.worker.unref();
    if (answer.ok) entry.resolve(answer.value);
    else entry.reject(new Error(answer.message));
  });
  // A thread that dies fails its jobs; the next job gets a new thread.
  slot.worker.on('error', () => {});
  slot.worker.on('exit', () => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    for (const entry of slot.pending.values()) entry.reject(new Error('password hashing thread stopped'));
  });
  return slot;
}

/** The least busy thread, or a new one while the pool is not full. */
function pick(): Slot {
  const idle = slots.find((slot) => slot.pending.size === 0);
  if (idle) return idle;
  if (slots.length < size) {
    const slot = spawn();
    slots.push(slot);
    return slot;
  }
  return slots.reduce((best, slot) => (slot.pending.size < best.pending.size ? slot : best));
}

function run(job: Job): Promise<string | boolean> {
  const slot = pick();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    slot.pending.set(id, { resolve, reject });
    slot.worker.ref();
    slot.worker.postMessage({ id, ...job });
  });
}

export async function hashInPool(password: string, cost: number): Promise<string> {
  return (await run({ op: 'hash', password, cost })) as string;
}

export async function compareInPool(password: string, hash: string): Promise<boolean> {
  return (await run({ op: 'compare', password, hash })) as boolean;
}
