/**
 * Before and after in the same minutes (ADR 0430): on a loaded, shared machine two runs minutes apart differ more
 * than the change does. This alternates two sets of definitions (SQL files: the old functions, then the new
 * migration) in rounds on the same database and times a 10-line post_sale (as the owner, summaries included)
 * under each, then leaves the second set in place.
 *
 *   STOREWISE_AB_BEFORE=old.sql STOREWISE_AB_AFTER=supabase/migrations/<new>.sql \
 *     DATABASE_URL=postgres://... npx tsx bench/lib/post-sale-ab.ts      (or STOREWISE_BENCH_DATA_DIR=...)
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { openPostSaleRig } from './post-sale-rig';
import { percentile as p } from './retail-bench';

const ROUNDS = Number(process.env.STOREWISE_AB_ROUNDS ?? '4');
const PER_ROUND = Number(process.env.STOREWISE_AB_SALES ?? '25');

async function main(): Promise<void> {
  const sets = [['before', process.env.STOREWISE_AB_BEFORE], ['after', process.env.STOREWISE_AB_AFTER]] as const;
  if (sets.some(([, file]) => !file)) throw new Error('set STOREWISE_AB_BEFORE and STOREWISE_AB_AFTER to SQL files');
  const sql = sets.map(([name, file]) => [name, readFileSync(file ?? '', 'utf8')] as const);
  const { bench, sale, post: postSale } = await openPostSaleRig('AB', 'AB');
  const { db } = bench;
  try {
    let n = 0;
    const post = async () => {
      n += 1;
      const payload = sale(n);
      const started = performance.now();
      await postSale(payload);
      return performance.now() - started;
    };
    const samples = new Map<string, number[]>(sets.map(([name]) => [name, []]));
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, text] of sql) {
        await db.exec(text);
        for (let i = 0; i < 3; i += 1) await post();
        for (let i = 0; i < PER_ROUND; i += 1) samples.get(name)?.push(await post());
        loads.push(loadavg()[0] ?? 0);
      }
    }
    console.log(`${db.kind}, ${bench.variants.toLocaleString('en-US')} variants, ${bench.saleLines.toLocaleString('en-US')} sale lines; ` +
      `${ROUNDS} alternating rounds of ${PER_ROUND} 10-line sales; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
    for (const [name, list] of samples) {
      console.log(`  ${name.padEnd(7)} p50 ${p(list, 0.5).toFixed(1)} ms, p95 ${p(list, 0.95).toFixed(1)} ms (${list.length} sales)`);
    }
  } finally {
    await db.close();
  }
}

await main();
