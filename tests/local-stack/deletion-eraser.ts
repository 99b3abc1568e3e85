/**
 * Child process of business-deletion-kill.test.ts: opens the stack's database on a data folder and runs the erasure
 * of one business step by step, as the business-deletion Edge Function does over HTTP (one step per transaction),
 * printing each step after it commits, until the business is erased or the process is killed.
 */
import { openDb } from '../../supabase/local/db/open-db';

const [dataDir, businessId] = process.argv.slice(2);
if (!dataDir || !businessId) throw new Error('usage: deletion-eraser <data-dir> <business-id>');
const db = await openDb({ dataDir, seed: false });
for (;;) {
  const step = (await db.query<{ step: string }>('select public.business_erasure_step($1, 1) as step', [businessId])).rows[0]?.step;
  process.stdout.write(`step ${step}\n`);
  if (step === 'contact' || step === 'done') break;
}
await db.close();
