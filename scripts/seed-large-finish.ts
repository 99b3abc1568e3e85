/**
 * Finishes a retail load of `npm run seed:large` on PostgreSQL that was stopped after its sales (ADR 0425): the
 * load drops the sales and ledger tables' secondary indexes and builds them again at the end, then computes the
 * summaries. A load stopped in between (the 10,000,000-line set of issue 32 was, at the end of a session) has its
 * rows but not all of its indexes or summaries. This builds the missing indexes as a freshly migrated database of
 * the same schema defines them, then runs the load's last steps (finishRetail) and analyze.
 *
 *   DATABASE_URL=postgres://.../large TEMPLATE_DATABASE_URL=postgres://.../migrated npx tsx scripts/seed-large-finish.ts
 *
 * TEMPLATE_DATABASE_URL: a database of the same server with the migrations applied and no data (how the issue 32
 * set was made: `create database large template migrated`).
 */
import pg from 'pg';
import { openDb } from '../supabase/local/db/open-db';
import { BULK_TABLES, restoreBulkIndexes, type DroppedIndex } from './seed-large/bulk-indexes';
import { finishRetail, RETAIL_BUSINESS_NAME, SALES_WORKERS } from './seed-large/retail';

const plainIndexes = `select format('%I.%I', n.nspname, c.relname) as name, pg_get_indexdef(i.indexrelid) as definition
  from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
 where i.indrelid = any ($1::text[]::regclass[])
   and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`;

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const templateUrl = process.env.TEMPLATE_DATABASE_URL;
  if (!url || !templateUrl) throw new Error('set DATABASE_URL (the stopped load) and TEMPLATE_DATABASE_URL (migrated, empty)');
  const template = new pg.Client({ connectionString: templateUrl });
  await template.connect();
  const wanted = (await template.query<DroppedIndex>(plainIndexes, [[...BULK_TABLES]])).rows;
  await template.end();
  const db = await openDb({ databaseUrl: url });
  try {
    const have = new Set((await db.query<DroppedIndex>(plainIndexes, [[...BULK_TABLES]])).rows.map((r) => r.name));
    const missing = wanted.filter((w) => !have.has(w.name));
    const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
    let started = performance.now();
    console.log(`${missing.length} of ${wanted.length} indexes missing`);
    await restoreBulkIndexes(db, missing, SALES_WORKERS, (line) => console.log(line));
    console.log(`retail: build indexes ${seconds(started)}`);
    const [business] = (await db.query<{ id: string }>('select id from public.businesses where name = $1', [RETAIL_BUSINESS_NAME])).rows;
    if (!business) throw new Error(`no business named ${RETAIL_BUSINESS_NAME}`);
    await finishRetail(db, business.id, true, SALES_WORKERS, async (phase, fn) => {
      const t = performance.now();
      await fn();
      console.log(`${phase} ${seconds(t)}`);
    }, (line) => console.log(line));
    started = performance.now();
    await db.exec('analyze');
    console.log(`analyze ${seconds(started)}`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
