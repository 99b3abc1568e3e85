/** GET/HEAD/POST/PATCH/DELETE on one table or view of the exposed schema. */
import type { Queryable } from '../db/types';
import { assertAllNodesUsed, buildNode, limitSql, newContext, orderSql } from './build-read';
import { WRITE_ALIAS, buildDelete, buildInsert, buildUpdate, insertColumns, insertRows, isJsonRow } from './build-write';
import type { RowRange } from './negotiate';
import type { ParsedQuery } from './parse-query';
import type { Preferences } from './parse-prefer';
import { readResponse, writeResponse } from './respond';
import { RestError } from './rest-error';
import type { SchemaCache, TableInfo } from './schema-cache';
import { EXPOSED_SCHEMA } from './schema-cache';
import { Params, ident, qualified } from './sql';
import type { ResultShape } from './statement';
import { resultStatement, runStatement, singularError } from './statement';

export interface TableRequest {
  method: string;
  schema: SchemaCache;
  table: TableInfo;
  query: ParsedQuery;
  prefer: Preferences;
  shape: ResultShape;
  /** Runs fn inside the request's transaction (role and claims set). */
  run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>;
}

export async function readTable(req: TableRequest, range: RowRange): Promise<Response> {
  const params = new Params();
  const ctx = newContext(req.schema, params, req.query);
  const alias = 't0';
  const root = buildNode(ctx, req.table, alias, req.query.select, '');
  assertAllNodesUsed(ctx);
  const from = `${qualified(EXPOSED_SCHEMA, req.table.name)} AS ${ident(alias)}`;
  const where = root.where.length > 0 ? ` WHERE ${root.where.join(' AND ')}` : '';
  const order = orderSql(req.query.nodes.get('')?.order, req.table, alias);
  const rows = `SELECT ${root.selectList.join(', ')} FROM ${from}${where}${order}${limitSql(range.limit, range.offset, params)}`;
  const counted = req.prefer.count !== undefined;
  const count = counted ? `SELECT count(*) FROM ${from}${where}` : null;
  const sql = resultStatement(rows, count, req.shape);
  const result = await req.run((tx) => runStatement(tx, sql, params.values, req.shape));
  return readResponse(req.method, result, range.offset, req.shape, req.prefer.applied);
}

/**
 * Runs a write. With a representation the rows come back through a data-modifying CTE and are
 * projected by the select (embeds included); without one the statement runs bare, so no SELECT
 * privilege or policy is needed, as with PostgREST's return=minimal.
 */
async function runWrite(req: TableRequest, dml: string, params: Params, ctxParams: { select: ParsedQuery['select'] }, status: { withBody: number; without: number }): Promise<Response> {
  const representation = req.prefer.return === 'representation';
  const counted = req.prefer.count !== undefined;
  if (!representation) {
    const result = await req.run(async (tx) => {
      const outcome = await tx.query(dml, params.values);
      if (req.shape.singular && outcome.affectedRows !== 1) throw singularError(outcome.affectedRows);
      return outcome;
    });
    return writeResponse(status.without, null, result.affectedRows, counted, req.shape, req.prefer.applied);
  }
  // Root filters already shaped the DML; only embed parameters apply to the representation.
  const nodes = new Map([...req.query.nodes].filter(([path]) => path !== ''));
  nodes.set('', { filters: [] });
  const ctx = newContext(req.schema, params, { ...req.query, nodes, select: ctxParams.select });
  const node = buildNode(ctx, req.table, WRITE_ALIAS, ctxParams.select, '');
  const cte = `WITH "pgrst_source" AS (${dml} RETURNING ${ident(WRITE_ALIAS)}.*) `;
  const order = orderSql(req.query.nodes.get('')?.order, req.table, WRITE_ALIAS);
  const rows = `SELECT ${node.selectList.join(', ')} FROM "pgrst_source" AS ${ident(WRITE_ALIAS)}${order}`;
  const sql = resultStatement(rows, null, req.shape, cte);
  const result = await req.run((tx) => runStatement(tx, sql, params.values, req.shape));
  return writeResponse(status.withBody, result.body, result.pageCount, counted, req.shape, req.prefer.applied);
}

export async function insertTable(req: TableRequest, body: unknown): Promise<Response> {
  const rows = insertRows(body);
  if (rows.length === 0) return writeResponse(201, req.prefer.return === 'representation' ? '[]' : null, 0, req.prefer.count !== undefined, req.shape, req.prefer.applied);
  const columns = insertColumns(req.table, rows, req.query.columns);
  const params = new Params();
  const dml = buildInsert(req.table, rows, columns, {
    missingDefault: req.prefer.missing === 'default',
    ...(req.prefer.resolution === undefined ? {} : { resolution: req.prefer.resolution }),
    ...(req.query.onConflict === undefined ? {} : { onConflict: req.query.onConflict }),
  }, params);
  return runWrite(req, dml, params, { select: req.query.select }, { withBody: 201, without: 201 });
}

/** WHERE of an update/delete: root filters only; like Supabase's safeupdate, a filter is required. */
function writeWhere(req: TableRequest, params: Params, verb: 'UPDATE' | 'DELETE'): string[] {
  const ctx = newContext(req.schema, params, { ...req.query, select: [] });
  const root = buildNode(ctx, req.table, WRITE_ALIAS, [], '');
  const embedded = [...req.query.nodes.keys()].find((path) => path !== '');
  if (embedded !== undefined) {
    throw new RestError(400, 'PGRST108', `'${embedded}' is not an embedded resource in this request`, null, null);
  }
  const rootParams = req.query.nodes.get('');
  if (rootParams?.limit !== undefined || rootParams?.offset !== undefined) {
    throw new RestError(400, 'PGRST100', `limit and offset are not supported on ${verb} by the local stack`, null, null);
  }
  if (root.where.length === 0) throw new RestError(400, '21000', `${verb} requires a WHERE clause`, null, null);
  return root.where;
}

export async function updateTable(req: TableRequest, body: unknown): Promise<Response> {
  if (!isJsonRow(body)) throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Expected a JSON object.', null);
  const params = new Params();
  const where = writeWhere(req, params, 'UPDATE');
  if (Object.keys(body).length === 0) {
    // Nothing to set: PostgREST answers without touching the table.
    const representation = req.prefer.return === 'representation';
    return writeResponse(representation ? 200 : 204, representation ? '[]' : null, 0, req.prefer.count !== undefined, req.shape, req.prefer.applied);
  }
  const dml = buildUpdate(req.table, body, where, params);
  return runWrite(req, dml, params, { select: req.query.select }, { withBody: 200, without: 204 });
}

export async function deleteTable(req: TableRequest): Promise<Response> {
  const params = new Params();
  const where = writeWhere(req, params, 'DELETE');
  return runWrite(req, buildDelete(req.table, where), params, { select: req.query.select }, { withBody: 200, without: 204 });
}
