/**
 * The exposed schema as the data API sees it: tables, views, columns, keys, foreign keys and
 * functions of schema `public`, read from the catalog once and kept per database. Only names found
 * here are ever put into SQL.
 */
import type { Db } from '../db/types';

export const EXPOSED_SCHEMA = 'public';

export interface ColumnInfo {
  name: string;
  /** format_type() of the column, e.g. "numeric(12,2)" or "timestamp with time zone". */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

export interface TableInfo {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, ColumnInfo>;
  primaryKey: string[];
  /** Primary key and unique constraints, each as its column list. */
  uniqueKeys: string[][];
}

export interface ForeignKey {
  name: string;
  /** The referencing table and columns. */
  table: string;
  columns: string[];
  /** The referenced table and columns, in the same order. */
  refTable: string;
  refColumns: string[];
}

export interface FunctionArg {
  name: string;
  type: string;
}

export interface FunctionInfo {
  name: string;
  /** IN arguments in order; the last `defaults` of them may be omitted. */
  args: FunctionArg[];
  defaults: number;
  returnType: string;
  returnsSet: boolean;
  /** 'v' volatile, 's' stable, 'i' immutable. */
  volatility: 'v' | 's' | 'i';
  /** When the function returns rows: their columns (a table's row type or RETURNS TABLE). */
  resultColumns: ColumnInfo[] | null;
  /** When it returns a table's row type: that table, so results can embed its relationships. */
  resultTable: string | null;
  returnsVoid: boolean;
}

export interface SchemaCache {
  tables: Map<string, TableInfo>;
  foreignKeys: ForeignKey[];
  /** Overloads share a name. */
  functions: Map<string, FunctionInfo[]>;
  loadedAt: number;
}

const relationsSql = `
  select c.relname as name, case when c.relkind in ('v', 'm') then 'view' else 'table' end as kind,
         coalesce(json_agg(json_build_object(
           'name', a.attname,
           'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
           'nullable', not a.attnotnull,
           'hasDefault', a.atthasdef or a.attidentity <> '' or a.attgenerated <> ''
         ) order by a.attnum) filter (where a.attnum is not null), '[]')::text as columns
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
   where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')
   group by c.relname, c.relkind`;

const constraintsSql = `
  select con.conname as name, con.contype as type, c.relname as table_name, fc.relname as ref_table,
         (select json_agg(a.attname order by k.ord)::text from unnest(con.conkey) with ordinality k(attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as columns,
         (select json_agg(a.attname order by k.ord)::text from unnest(con.confkey) with ordinality k(attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum) as ref_columns
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.pg_class fc on fc.oid = con.confrelid
    left join pg_catalog.pg_namespace fn on fn.oid = fc.relnamespace
   where n.nspname = $1 and con.contype in ('p', 'u', 'f') and (con.contype <> 'f' or fn.nspname = $1)
   order by con.conname`;

// Trigger, event-trigger and internal functions cannot be called over HTTP, so they are left out.
const functionsSql = `
  select p.proname as name, p.pronargdefaults as defaults, p.proretset as returns_set, p.provolatile as volatility,
         pg_catalog.format_type(p.prorettype, null) as return_type, p.prorettype = 'pg_catalog.void'::regtype as returns_void,
         rt.typrelid <> 0 as returns_composite,
         case when rt.typrelid <> 0 and rc.relnamespace = n.oid then rc.relname end as result_table,
         (select coalesce(json_agg(json_build_object('name', coalesce(p.proargnames[i], ''),
                   'type', pg_catalog.format_type(coalesce(p.proallargtypes[i], p.proargtypes[i - 1]), null),
                   'mode', coalesce(p.proargmodes[i], 'i')) order by i), '[]')::text
            from generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) i) as args,
         (select json_agg(json_build_object('name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
                   'nullable', true, 'hasDefault', false) order by a.attnum)::text
            from pg_catalog.pg_attribute a where a.attrelid = rt.typrelid and a.attnum > 0 and not a.attisdropped) as composite_columns
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
    left join pg_catalog.pg_class rc on rc.oid = rt.typrelid
   where n.nspname = $1 and p.prokind = 'f'
     and p.prorettype not in ('pg_catalog.trigger'::regtype, 'pg_catalog.event_trigger'::regtype, 'pg_catalog.internal'::regtype)
     and not ('pg_catalog.internal'::regtype = any (p.proargtypes))`;

interface RawArg {
  name: string;
  type: string;
  mode: string;
}

async function loadSchema(db: Db): Promise<SchemaCache> {
  const tables = new Map<string, TableInfo>();
  const relations = await db.query<{ name: string; kind: 'table' | 'view'; columns: string }>(relationsSql, [EXPOSED_SCHEMA]);
  for (const row of relations.rows) {
    const columns = JSON.parse(row.columns) as ColumnInfo[];
    tables.set(row.name, {
      name: row.name,
      kind: row.kind,
      columns: new Map(columns.map((column) => [column.name, column])),
      primaryKey: [],
      uniqueKeys: [],
    });
  }

  const foreignKeys: ForeignKey[] = [];
  const constraints = await db.query<{
    name: string; type: string; table_name: string; ref_table: string | null; columns: string; ref_columns: string | null;
  }>(constraintsSql, [EXPOSED_SCHEMA]);
  for (const row of constraints.rows) {
    const columns = JSON.parse(row.columns) as string[];
    const table = tables.get(row.table_name);
    if (!table) continue;
    if (row.type === 'p') table.primaryKey = columns;
    if (row.type === 'p' || row.type === 'u') table.uniqueKeys.push(columns);
    if (row.type === 'f' && row.ref_table && row.ref_columns) {
      foreignKeys.push({ name: row.name, table: row.table_name, columns, refTable: row.ref_table, refColumns: JSON.parse(row.ref_columns) as string[] });
    }
  }

  const functions = new Map<string, FunctionInfo[]>();
  const procs = await db.query<{
    name: string; defaults: number; returns_set: boolean; volatility: 'v' | 's' | 'i'; return_type: string; returns_void: boolean;
    returns_composite: boolean; result_table: string | null; args: string; composite_columns: string | null;
  }>(functionsSql, [EXPOSED_SCHEMA]);
  for (const row of procs.rows) {
    const rawArgs = JSON.parse(row.args) as RawArg[];
    const inArgs = rawArgs.filter((arg) => arg.mode === 'i' || arg.mode === 'b');
    // Unnamed or variadic arguments cannot be passed by name from a JSON object: not callable here.
    if (inArgs.some((arg) => arg.name === '') || rawArgs.some((arg) => arg.mode === 'v')) continue;
    const tableColumns = rawArgs.filter((arg) => arg.mode === 't' || arg.mode === 'o' || arg.mode === 'b');
    let resultColumns: ColumnInfo[] | null = null;
    if (row.returns_composite && row.composite_columns) resultColumns = JSON.parse(row.composite_columns) as ColumnInfo[];
    else if (rawArgs.some((arg) => arg.mode === 't') || (tableColumns.length > 1 && row.return_type === 'record')) {
      resultColumns = tableColumns.map((arg) => ({ name: arg.name, type: arg.type, nullable: true, hasDefault: false }));
    }
    const info: FunctionInfo = {
      name: row.name,
      args: inArgs.map((arg) => ({ name: arg.name, type: arg.type })),
      defaults: Number(row.defaults),
      returnType: row.return_type,
      returnsSet: row.returns_set,
      volatility: row.volatility,
      resultColumns,
      resultTable: row.result_table,
      returnsVoid: row.returns_void,
    };
    functions.set(row.name, [...(functions.get(row.name) ?? []), info]);
  }

  return { tables, foreignKeys, functions, loadedAt: Date.now() };
}

const caches = new WeakMap<Db, Promise<SchemaCache>>();
/** A miss on an unknown name reloads at most this often, so new migrations show up without a restart. */
const RELOAD_ON_MISS_AFTER_MS = 2_000;

export function getSchema(db: Db): Promise<SchemaCache> {
  let cache = caches.get(db);
  if (!cache) {
    cache = loadSchema(db);
    caches.set(db, cache);
    // A failed load must not stick: the next request tries again.
    cache.catch(() => caches.delete(db));
  }
  return cache;
}

/** Forget the cached schema (PostgREST's "reload schema"): call after DDL. */
export function reloadSchema(db: Db): Promise<SchemaCache> {
  caches.delete(db);
  return getSchema(db);
}

/** The cache again, reloaded first when it is older than the miss interval (an unknown name was asked for). */
export async function schemaAfterMiss(db: Db, current: SchemaCache): Promise<SchemaCache> {
  if (Date.now() - current.loadedAt < RELOAD_ON_MISS_AFTER_MS) return current;
  return reloadSchema(db);
}
