/**
 * Secondary indexes off during the retail bulk load, built once at the end (issue 32, ADR 0425).
 *
 * At 10,000,000 sale lines every insert batch otherwise updates some 40 indexes of the sales and ledger tables
 * row by row (random B-tree pages, most of them uuid keys); one sort-based build per index at the end is several
 * times cheaper. Only plain indexes are dropped: primary keys and unique constraints stay, since the load itself
 * relies on them (`on conflict`, lookups by id). The definitions are read from the catalog (pg_get_indexdef) and
 * replayed as they were, so the schema is exactly the migrations' afterwards.
 */
import type { Db } from '../../supabase/local/db/types';
import { atOnce } from './at-once';

/** The tables the sales loop and the opening stock fill: millions of rows at the chain's size. */
export const BULK_TABLES = [
  'public.sales', 'public.sale_lines', 'public.sale_line_costs', 'public.sale_tenders', 'public.stock_movements',
  'public.refunds', 'public.refund_lines',
] as const;

export interface DroppedIndex {
  name: string;
  definition: string;
}

/** Drops the plain (non-constraint) indexes of BULK_TABLES and returns their definitions. */
export async function dropBulkIndexes(db: Db): Promise<DroppedIndex[]> {
  const { rows } = await db.query<DroppedIndex>(
    `select format('%I.%I', n.nspname, c.relname) as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
       join pg_class c on c.oid = i.indexrelid
       join pg_namespace n on n.oid = c.relnamespace
      where i.indrelid = any ($1::text[]::regclass[])
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by 1`,
    [[...BULK_TABLES]],
  );
  for (const index of rows) await db.exec(`drop index ${index.name}`);
  return rows;
}

/**
 * Builds the dropped indexes again, `workers` at a time (CREATE INDEX takes a share lock, so builds on one table
 * run side by side), each sorted in memory where it fits (the default maintenance_work_mem, 64 MB, spills a
 * 10M-row sort to disk).
 */
export async function restoreBulkIndexes(db: Db, indexes: DroppedIndex[], workers = 1,
                                         log: (line: string) => void = () => {}): Promise<void> {
  await atOnce(workers, indexes.map((index) => async () => {
    await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query(`set local maintenance_work_mem = '256MB'`);
      await tx.query(index.definition);
    });
    log(`  index ${index.name}`);
  }));
}
