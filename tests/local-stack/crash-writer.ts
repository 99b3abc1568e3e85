/**
 * Child process of crash-restart.test.ts: opens the stack's database on a data folder and commits rows
 * one transaction at a time, printing each number after its commit returns, until it is killed.
 */
import { openDb } from '../../supabase/local/db/open-db';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: crash-writer <data-dir>');
const db = await openDb({ dataDir, seed: false });
await db.exec('create table if not exists public.crash_probe (n int primary key, payload text not null)');
for (let n = 1; ; n += 1) {
  await db.transaction(async (tx) => {
    await tx.query('insert into public.crash_probe (n, payload) values ($1, repeat($2, 2000))', [n, 'x']);
  });
  process.stdout.write(`committed ${n}\n`);
}
