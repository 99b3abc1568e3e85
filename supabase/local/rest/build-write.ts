/**
 * INSERT / UPDATE / DELETE statements. They name exactly the columns the client sent (so column
 * privileges apply as on hosted Supabase) and take the whole JSON payload as one bound parameter,
 * converted by json_populate_record(set) into the table's own column types.
 */
import { RestError } from './rest-error';
import type { TableInfo } from './schema-cache';
import { EXPOSED_SCHEMA } from './schema-cache';
import type { Params } from './sql';
import { ident, qualified } from './sql';

export type JsonRow = Record<string, unknown>;

/** The alias of the written table in every statement, so filters and embeds can refer to it. */
export const WRITE_ALIAS = 't0';

function unknownBodyColumn(table: TableInfo, column: string): RestError {
  return new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${table.name}' in the schema cache`, null, null);
}

export function isJsonRow(value: unknown): value is JsonRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rows of an insert body: one object or an array of objects. */
export function insertRows(body: unknown): JsonRow[] {
  const rows = Array.isArray(body) ? body : [body];
  if (!rows.every(isJsonRow)) throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Expected a JSON object or an array of objects.', null);
  return rows;
}

/** The insert's columns: `columns=` when given, else the keys of the first row, which all rows must share. */
export function insertColumns(table: TableInfo, rows: JsonRow[], requested: string[] | undefined): string[] {
  let columns = requested;
  if (columns === undefined) {
    const first = Object.keys(rows[0] ?? {});
    const key = [...first].sort().join('\u0000');
    if (rows.some((row) => Object.keys(row).sort().join('\u0000') !== key)) {
      throw new RestError(400, 'PGRST102', 'All object keys must match', null, null);
    }
    columns = first;
  }
  for (const column of columns) if (!table.columns.has(column)) throw unknownBodyColumn(table, column);
  return [...new Set(columns)];
}

export interface InsertOptions {
  missingDefault: boolean;
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  onConflict?: string[];
}

export function buildInsert(table: TableInfo, rows: JsonRow[], columns: string[], options: InsertOptions, params: Params): string {
  const target = `${qualified(EXPOSED_SCHEMA, table.name)} AS ${ident(WRITE_ALIAS)}`;
  const rowType = `NULL::${qualified(EXPOSED_SCHEMA, table.name)}`;
  let sql: string;
  if (columns.length === 0) {
    // Objects without keys: one row of defaults each.
    sql = rows.length === 1
      ? `INSERT INTO ${target} DEFAULT VALUES`
      : `INSERT INTO ${target} SELECT FROM generate_series(1, ${params.add(rows.length)}::int)`;
  } else if (options.missingDefault && rows.some((row) => columns.some((column) => !(column in row)))) {
    // missing=default: a key the row lacks takes the column default, so each row is its own VALUES entry.
    const values = rows.map((row) => {
      const record = `json_populate_record(${rowType}, ${params.add(JSON.stringify(row))}::json)`;
      return `(${columns.map((column) => (column in row ? `(${record}).${ident(column)}` : 'DEFAULT')).join(', ')})`;
    });
    sql = `INSERT INTO ${target} (${columns.map(ident).join(', ')}) VALUES ${values.join(', ')}`;
  } else {
    const list = columns.map(ident).join(', ');
    const picked = columns.map((column) => `"pgrst_body".${ident(column)}`).join(', ');
    sql = `INSERT INTO ${target} (${list}) SELECT ${picked} FROM json_populate_recordset(${rowType}, ${params.add(JSON.stringify(rows))}::json) AS "pgrst_body"`;
  }
  if (options.resolution) {
    const conflict = options.onConflict ?? table.primaryKey;
    if (conflict.length === 0) {
      throw new RestError(400, 'PGRST100', 'An upsert needs on_conflict or a primary key', `'${table.name}' has no primary key.`, null);
    }
    for (const column of conflict) if (!table.columns.has(column)) throw unknownBodyColumn(table, column);
    const updates = columns.map((column) => `${ident(column)} = EXCLUDED.${ident(column)}`);
    sql += ` ON CONFLICT (${conflict.map(ident).join(', ')}) `;
    sql += options.resolution === 'ignore-duplicates' || updates.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${updates.join(', ')}`;
  }
  return sql;
}

export function buildUpdate(table: TableInfo, body: JsonRow, where: string[], params: Params): string {
  const columns = Object.keys(body);
  for (const column of columns) if (!table.columns.has(column)) throw unknownBodyColumn(table, column);
  const rowType = `NULL::${qualified(EXPOSED_SCHEMA, table.name)}`;
  const sets = columns.map((column) => `${ident(column)} = "pgrst_body".${ident(column)}`).join(', ');
  return `UPDATE ${qualified(EXPOSED_SCHEMA, table.name)} AS ${ident(WRITE_ALIAS)} SET ${sets} `
    + `FROM (SELECT * FROM json_populate_record(${rowType}, ${params.add(JSON.stringify(body))}::json)) AS "pgrst_body" `
    + `WHERE ${where.join(' AND ')}`;
}

export function buildDelete(table: TableInfo, where: string[]): string {
  return `DELETE FROM ${qualified(EXPOSED_SCHEMA, table.name)} AS ${ident(WRITE_ALIAS)} WHERE ${where.join(' AND ')}`;
}
