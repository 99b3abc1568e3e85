/**
 * Wraps a row source into the one statement every request runs: the total (when counted), the
 * page size and the body, built as JSON by Postgres so types serialize exactly as PostgREST's do.
 */
import type { Queryable } from '../db/types';
import { RestError } from './rest-error';

export interface ResultShape {
  /** Accept: application/vnd.pgrst.object+json (single / maybeSingle). */
  singular: boolean;
  /** Accept ...;nulls=stripped */
  stripNulls: boolean;
}

export interface StatementResult {
  total: number | null;
  pageCount: number;
  /** JSON text: an array, or one object when singular. */
  body: string;
}

/**
 * rowsSql yields the output rows (already projected); countSql, when given, counts the whole result
 * without limit/offset.
 */
export function resultStatement(rowsSql: string, countSql: string | null, shape: ResultShape, withCte = ''): string {
  const agg = shape.singular ? `coalesce(json_agg("pgrst_r") -> 0, 'null'::json)` : `coalesce(json_agg("pgrst_r"), '[]'::json)`;
  const body = shape.stripNulls ? `json_strip_nulls(${agg})` : agg;
  const total = countSql === null ? 'NULL::text' : `(${countSql})::text`;
  return `${withCte}SELECT ${total} AS total, count(*)::text AS page_count, ${body}::text AS body FROM (${rowsSql}) AS "pgrst_r"`;
}

export async function runStatement(tx: Queryable, sql: string, values: unknown[], shape: ResultShape): Promise<StatementResult> {
  const result = await tx.query<{ total: string | null; page_count: string; body: string }>(sql, values);
  const row = result.rows[0];
  if (!row) throw new Error('result statement returned no row');
  const pageCount = Number(row.page_count);
  // Checked inside the transaction so a mutation that hit 0 or several rows is rolled back, as PostgREST does.
  if (shape.singular && pageCount !== 1) throw singularError(pageCount);
  return { total: row.total === null ? null : Number(row.total), pageCount, body: row.body };
}

export function singularError(rows: number): RestError {
  return new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`, null);
}
