/**
 * POST /rpc/<fn> (and GET/HEAD for functions that only read): named JSON arguments, overloads chosen
 * by argument names as PostgREST does, results shaped by the return type (scalar, row, set, void).
 */
import type { Queryable } from '../db/types';
import { assertAllNodesUsed, buildNode, limitSql, newContext, orderSql } from './build-read';
import type { RowRange } from './negotiate';
import type { ParsedQuery } from './parse-query';
import type { Preferences } from './parse-prefer';
import { readResponse } from './respond';
import { RestError } from './rest-error';
import type { FunctionInfo, SchemaCache, TableInfo } from './schema-cache';
import { EXPOSED_SCHEMA } from './schema-cache';
import { Params, ident, qualified } from './sql';
import type { ResultShape } from './statement';
import { resultStatement, runStatement } from './statement';

export interface RpcRequest {
  method: string;
  schema: SchemaCache;
  name: string;
  overloads: FunctionInfo[];
  /** Named arguments: the JSON body (POST) or query parameters (GET). */
  args: Record<string, unknown>;
  query: ParsedQuery;
  prefer: Preferences;
  shape: ResultShape;
  range: RowRange;
  run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>;
}

/** Every argument name of every overload: on GET these query parameters are arguments, not filters. */
export function argumentNames(overloads: FunctionInfo[]): Set<string> {
  return new Set(overloads.flatMap((fn) => fn.args.map((arg) => arg.name)));
}

export function chooseOverload(schemaName: string, name: string, overloads: FunctionInfo[], given: string[]): FunctionInfo {
  const matches = overloads.filter((fn) => {
    const names = fn.args.map((arg) => arg.name);
    const required = names.slice(0, names.length - fn.defaults);
    return given.every((key) => names.includes(key)) && required.every((key) => given.includes(key));
  });
  const signature = `${schemaName}.${name}(${[...given].sort().join(', ')})`;
  const [only, ...others] = matches;
  if (!only) {
    throw new RestError(
      404,
      'PGRST202',
      `Could not find the function ${signature} in the schema cache`,
      `Searched for the function ${signature} with parameter${given.length === 1 ? '' : 's'} ${given.length === 0 ? 'none' : given.join(', ')}, but no matches were found in the schema cache.`,
      null,
    );
  }
  if (others.length > 0) {
    throw new RestError(300, 'PGRST203', `Could not choose the best candidate function between: ${matches.map((fn) => `${schemaName}.${fn.name}(${fn.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`, null, 'Try renaming the parameters or the function itself in the database so function overloading can be resolved');
  }
  return only;
}

/** `"public"."fn"("a" := (SELECT a FROM json_to_record($1) ...), ...)`: arguments converted by Postgres from JSON. */
function callSql(fn: FunctionInfo, args: Record<string, unknown>, params: Params): string {
  const given = fn.args.filter((arg) => arg.name in args);
  if (given.length === 0) return `${qualified(EXPOSED_SCHEMA, fn.name)}()`;
  const json = params.add(JSON.stringify(args));
  // Types come from the catalog (format_type), never from the request.
  const columns = given.map((arg) => `${ident(arg.name)} ${arg.type}`).join(', ');
  const named = given.map((arg) => `${ident(arg.name)} := (SELECT "pgrst_args".${ident(arg.name)} FROM json_to_record(${json}::json) AS "pgrst_args"(${columns}))`);
  return `${qualified(EXPOSED_SCHEMA, fn.name)}(${named.join(', ')})`;
}

export async function callFunction(req: RpcRequest): Promise<Response> {
  const fn = chooseOverload(EXPOSED_SCHEMA, req.name, req.overloads, Object.keys(req.args));
  const params = new Params();
  const call = callSql(fn, req.args, params);

  if (fn.returnsVoid) {
    await req.run((tx) => tx.query(`SELECT ${call}`, params.values));
    return new Response(null, { status: 204 });
  }

  if (fn.resultColumns === null) {
    // A scalar (or a set of scalars): PostgREST answers the bare JSON value, or an array of them.
    const sql = fn.returnsSet
      ? `SELECT coalesce(json_agg("pgrst_v"), '[]'::json)::text AS body, count(*)::text AS page_count FROM ${call} AS "pgrst_v"`
      : `SELECT to_json(${call})::text AS body, '1' AS page_count`;
    const result = await req.run(async (tx) => (await tx.query<{ body: string | null; page_count: string }>(sql, params.values)).rows[0]);
    const pageCount = Number(result?.page_count ?? 0);
    return readResponse(req.method, { total: null, pageCount, body: result?.body ?? 'null' }, 0, { ...req.shape, singular: false }, req.prefer.applied);
  }

  // Rows: filters, select, order and embeds work on the result as on a table.
  const table: TableInfo = (fn.resultTable !== null ? req.schema.tables.get(fn.resultTable) : undefined) ?? {
    name: fn.name,
    kind: 'view',
    columns: new Map(fn.resultColumns.map((column) => [column.name, column])),
    primaryKey: [],
    uniqueKeys: [],
  };
  const ctx = newContext(req.schema, params, req.query);
  const alias = 't0';
  const root = buildNode(ctx, table, alias, req.query.select, '');
  assertAllNodesUsed(ctx);
  // Materialized once, so counting the rows never runs a function with side effects twice.
  const cte = `WITH "pgrst_call" AS MATERIALIZED (SELECT * FROM ${call}) `;
  const from = `"pgrst_call" AS ${ident(alias)}`;
  const where = root.where.length > 0 ? ` WHERE ${root.where.join(' AND ')}` : '';
  const order = orderSql(req.query.nodes.get('')?.order, table, alias);
  const rows = `SELECT ${root.selectList.join(', ')} FROM ${from}${where}${order}${limitSql(req.range.limit, req.range.offset, params)}`;
  const count = req.prefer.count !== undefined ? `SELECT count(*) FROM ${from}${where}` : null;
  // A function returning one row answers one object, as PostgREST does.
  const shape: ResultShape = fn.returnsSet ? req.shape : { ...req.shape, singular: true };
  const sql = resultStatement(rows, count, shape, cte);
  const result = await req.run((tx) => runStatement(tx, sql, params.values, shape));
  return readResponse(req.method, result, req.range.offset, shape, req.prefer.applied);
}
