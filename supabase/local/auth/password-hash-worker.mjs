/**
 * bcrypt on its own thread (password-hash-pool.ts): a cost-10 hash is about 100 ms of pure JavaScript,
 * which on the HTTP thread would stall every other request. Plain JavaScript: Node loads workers
 * without the TypeScript loader the main thread has.
 */
import { parentPort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';

parentPort.on('message', ({ id, op, password, hash, cost }) => {
  const work = op === 'hash' ? bcrypt.hash(password, cost) : bcrypt.compare(password, hash);
  work.then(
    (value) => parentPort.postMessage({ id, ok: true, value }),
    (error) => parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
