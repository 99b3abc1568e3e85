/**
 * What the Realtime server needs to know about live tables, read from the catalog and cached: which
 * tables are in the supabase_realtime publication, their columns (name and type name, as Realtime's
 * `columns`), primary key, replica identity, and per role the columns that role may select
 * (has_column_privilege, as realtime.apply_rls limits the record).
 */
import type { Queryable } from '../db/types';

export interface TableInfo {
  schema: string;
  table: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
  /** REPLICA IDENTITY FULL: a DELETE's old record carries every column, otherwise the primary key only. */
  replicaFull: boolean;
}

export const tableKey = (schema: string, table: string): string => `${schema}.${table}`;

export class TableCatalog {
  private tables = new Map<string, TableInfo>();
  private selectable = new Map<string, Set<string>>();

  constructor(private readonly db: Queryable) {}

  /** Reads the publication and the columns of its tables (at start, and after the publication changes). */
  async refresh(): Promise<void> {
    const { rows } = await this.db.query<{ schema: string; table: string; columns: { name: string; type: string }[]; pk: string[] | null; full: boolean }>(
      `select pt.schemaname as schema, pt.tablename as table,
              (select jsonb_agg(jsonb_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
                 from pg_attribute a join pg_type t on t.oid = a.atttypid
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
              (select array_agg(a.attname order by k.ord)
                 from pg_index ix cross join lateral unnest(ix.indkey) with ordinality as k(attnum, ord)
                 join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.attnum
                where ix.indrelid = c.oid and ix.indisprimary) as pk,
              c.relreplident = 'f' as full
         from pg_publication_tables pt
         join pg_namespace n on n.nspname = pt.schemaname
         join pg_class c on c.relnamespace = n.oid and c.relname = pt.tablename
        where pt.pubname = 'supabase_realtime'`,
    );
    this.tables = new Map(rows.map((row) => [tableKey(row.schema, row.table), { schema: row.schema, table: row.table, columns: row.columns, primaryKey: row.pk ?? [], replicaFull: row.full }]));
    this.selectable.clear();
  }

  get(schema: string, table: string): TableInfo | undefined {
    return this.tables.get(tableKey(schema, table));
  }

  all(): TableInfo[] {
    return [...this.tables.values()];
  }

  /** The columns `role` may select on the table (cached per role and table); `db`: the connection to ask on. */
  async selectableColumns(role: string, info: TableInfo, db: Queryable = this.db): Promise<Set<string>> {
    const key = `${role}|${tableKey(info.schema, info.table)}`;
    let columns = this.selectable.get(key);
    if (!columns) {
      const { rows } = await db.query<{ name: string }>(
        `select a.attname as name from pg_attribute a
          where a.attrelid = format('%I.%I', $2::text, $3::text)::regclass and a.attnum > 0 and not a.attisdropped
            and has_column_privilege($1::text, a.attrelid, a.attnum, 'SELECT')`,
        [role, info.schema, info.table],
      );
      columns = new Set(rows.map((row) => row.name));
      this.selectable.set(key, columns);
    }
    return columns;
  }
}
