/**
 * Builds the SELECT behind a read: the select list (columns, casts, aliases and embeds as correlated
 * subqueries that return JSON), the WHERE of the filters, ORDER BY and LIMIT/OFFSET. Every name is
 * checked against the schema cache and quoted; every value is a bound parameter.
 */
import type { Condition, FilterNode } from './parse-filter';
import type { NodeParams, ParsedQuery } from './parse-query';
import type { OrderTerm } from './parse-order';
import type { SelectEmbed, SelectItem } from './parse-select';
import { outputName } from './parse-select';
import { findRelationship } from './relationships';
import type { Relationship } from './relationships';
import { RestError } from './rest-error';
import type { SchemaCache, TableInfo } from './schema-cache';
import { EXPOSED_SCHEMA } from './schema-cache';
import { ident, qualified } from './sql';
import type { Params } from './sql';

export interface BuildContext {
  schema: SchemaCache;
  params: Params;
  query: ParsedQuery;
  /** Embed paths met while building, to reject parameters aimed at embeds that are not selected. */
  visited: Set<string>;
  nextAlias: number;
}

export function newContext(schema: SchemaCache, params: Params, query: ParsedQuery): BuildContext {
  return { schema, params, query, visited: new Set(['']), nextAlias: 1 };
}

/** PostgREST's answer to a column the table does not have (the message Postgres would give). */
export function unknownColumn(table: TableInfo, column: string): RestError {
  return new RestError(400, '42703', `column ${table.name}.${column} does not exist`, null, null);
}

export function columnSql(table: TableInfo, alias: string, column: string): string {
  if (!table.columns.has(column)) throw unknownColumn(table, column);
  return `${ident(alias)}.${ident(column)}`;
}

const COMPARISON: Record<string, string> = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'LIKE', ilike: 'ILIKE', match: '~', imatch: '~*',
  cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxl: '&<', nxr: '&>', adj: '-|-',
};
const TS_QUERY: Record<string, string> = { fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery' };
const IS_SQL: Record<string, string> = { null: 'IS NULL', not_null: 'IS NOT NULL', true: 'IS TRUE', false: 'IS FALSE', unknown: 'IS UNKNOWN' };

/** `*` is PostgREST's wildcard in like/ilike (URLs mangle `%`). */
function likeValue(op: string, value: string): string {
  return op === 'like' || op === 'ilike' ? value.replaceAll('*', '%') : value;
}

function conditionSql(condition: Condition, target: string, params: Params): string {
  const { op, value } = condition;
  let sql: string;
  if (op === 'is') {
    sql = `${target} ${IS_SQL[String(value)] ?? 'IS NULL'}`;
  } else if (op === 'isdistinct') {
    sql = `${target} IS DISTINCT FROM ${params.add(value)}`;
  } else if (op === 'in') {
    const list = Array.isArray(value) ? value : [value];
    sql = list.length === 0 ? 'FALSE' : `${target} IN (${list.map((item) => params.add(item)).join(', ')})`;
  } else if (op in TS_QUERY) {
    const config = condition.ftsConfig === undefined ? '' : `${params.add(condition.ftsConfig)}::regconfig, `;
    sql = `${target} @@ ${TS_QUERY[op]}(${config}${params.add(value)})`;
  } else {
    const operator = COMPARISON[op];
    if (operator === undefined) throw new RestError(400, 'PGRST100', `unsupported operator ${op}`);
    if (condition.quantifier) {
      const list = Array.isArray(value) ? value : [value];
      const joiner = condition.quantifier === 'any' ? ' OR ' : ' AND ';
      sql = list.length === 0
        ? (condition.quantifier === 'any' ? 'FALSE' : 'TRUE')
        : `(${list.map((item) => `${target} ${operator} ${params.add(likeValue(op, item))}`).join(joiner)})`;
    } else {
      sql = `${target} ${operator} ${params.add(likeValue(op, String(value)))}`;
    }
  }
  return condition.negate ? `NOT (${sql})` : sql;
}

/** Filters of one node; a filter named after an embed (`profiles=not.is.null`) tests its presence. */
export function filterSql(
  node: FilterNode,
  table: TableInfo,
  alias: string,
  params: Params,
  embedPresence: (name: string) => string | undefined = () => undefined,
): string {
  if (node.kind === 'logic') {
    const parts = node.children.map((child) => filterSql(child, table, alias, params, embedPresence));
    const sql = `(${parts.join(node.op === 'and' ? ' AND ' : ' OR ')})`;
    return node.negate ? `NOT ${sql}` : sql;
  }
  if (!table.columns.has(node.column)) {
    const exists = embedPresence(node.column);
    if (exists !== undefined) {
      if (node.op !== 'is' || (node.value !== 'null' && node.value !== 'not_null')) {
        throw new RestError(400, 'PGRST100', `"failed to parse filter (${node.column})"`, 'Only is.null or not.is.null can filter on an embedded resource.');
      }
      const wantsNull = (node.value === 'null') !== node.negate;
      return wantsNull ? `NOT ${exists}` : exists;
    }
  }
  return conditionSql(node, columnSql(table, alias, node.column), params);
}

export function orderSql(terms: OrderTerm[] | undefined, table: TableInfo, alias: string): string {
  if (!terms || terms.length === 0) return '';
  const parts = terms.map((term) => {
    const direction = term.direction === 'desc' ? ' DESC' : term.direction === 'asc' ? ' ASC' : '';
    const nulls = term.nulls === 'first' ? ' NULLS FIRST' : term.nulls === 'last' ? ' NULLS LAST' : '';
    return `${columnSql(table, alias, term.column)}${direction}${nulls}`;
  });
  return ` ORDER BY ${parts.join(', ')}`;
}

export function limitSql(limit: number | undefined, offset: number | undefined, params: Params): string {
  let sql = '';
  if (limit !== undefined) sql += ` LIMIT ${params.add(limit)}::bigint`;
  if (offset !== undefined && offset > 0) sql += ` OFFSET ${params.add(offset)}::bigint`;
  return sql;
}

function joinSql(rel: Relationship, parentAlias: string, childAlias: string): string {
  return rel.pairs.map(([parentColumn, childColumn]) => `${ident(childAlias)}.${ident(childColumn)} = ${ident(parentAlias)}.${ident(parentColumn)}`).join(' AND ');
}

export interface NodeSql {
  /** Select list entries, each `expr AS "key"`. */
  selectList: string[];
  /** WHERE conditions of this node (filters and !inner embeds), to be AND-ed. */
  where: string[];
}

interface EmbedPlan {
  embed: SelectEmbed;
  rel: Relationship;
  alias: string;
  path: string;
  node: NodeSql;
  params: NodeParams;
}

function nodeParams(ctx: BuildContext, path: string): NodeParams {
  return ctx.query.nodes.get(path) ?? { filters: [] };
}

/** Builds select list and conditions for `table` known as `alias`, recursing into embeds. */
export function buildNode(ctx: BuildContext, table: TableInfo, alias: string, items: SelectItem[], path: string): NodeSql {
  ctx.visited.add(path);
  const selectList: string[] = [];
  const embeds: EmbedPlan[] = [];
  for (const item of items) {
    if (item.kind === 'star') {
      selectList.push(`${ident(alias)}.*`);
    } else if (item.kind === 'column') {
      const cast = item.cast === undefined ? '' : `::${item.cast}`;
      selectList.push(`${columnSql(table, alias, item.name)}${cast} AS ${ident(outputName(item))}`);
    } else {
      const rel = findRelationship(ctx.schema, table, item);
      const childAlias = `t${ctx.nextAlias++}`;
      const childPath = path === '' ? outputName(item) : `${path}.${outputName(item)}`;
      const node = buildNode(ctx, rel.target, childAlias, item.items, childPath);
      const plan: EmbedPlan = { embed: item, rel, alias: childAlias, path: childPath, node, params: nodeParams(ctx, childPath) };
      embeds.push(plan);
      if (item.items.length > 0) selectList.push(`${embedSubquery(ctx, plan, alias)} AS ${ident(outputName(item))}`);
    }
  }

  const existsFor = (plan: EmbedPlan): string => {
    const conditions = [joinSql(plan.rel, alias, plan.alias), ...plan.node.where];
    return `EXISTS (SELECT 1 FROM ${qualifiedTable(plan.rel.target)} AS ${ident(plan.alias)} WHERE ${conditions.join(' AND ')})`;
  };
  const where: string[] = [];
  const presence = (name: string): string | undefined => {
    const plan = embeds.find((candidate) => outputName(candidate.embed) === name);
    return plan ? existsFor(plan) : undefined;
  };
  for (const filter of nodeParams(ctx, path).filters) where.push(filterSql(filter, table, alias, ctx.params, presence));
  for (const plan of embeds) if (plan.embed.joinType === 'inner') where.push(existsFor(plan));
  return { selectList, where };
}

function qualifiedTable(table: TableInfo): string {
  return qualified(EXPOSED_SCHEMA, table.name);
}

function embedSubquery(ctx: BuildContext, plan: EmbedPlan, parentAlias: string): string {
  const { rel, alias, node, params } = plan;
  const conditions = [joinSql(rel, parentAlias, alias), ...node.where];
  const order = orderSql(params.order, rel.target, alias);
  const row = ident(`${alias}_row`);
  const inner = `SELECT ${node.selectList.join(', ')} FROM ${qualifiedTable(rel.target)} AS ${ident(alias)} WHERE ${conditions.join(' AND ')}`;
  if (rel.toOne) return `(SELECT row_to_json(${row}) FROM (${inner} LIMIT 1) AS ${row})`;
  const limit = limitSql(params.limit, params.offset, ctx.params);
  return `(SELECT coalesce(json_agg(${row}), '[]'::json) FROM (${inner}${order}${limit}) AS ${row})`;
}

/** Rejects parameters aimed at embeds the select does not contain (PostgREST PGRST108). */
export function assertAllNodesUsed(ctx: BuildContext): void {
  for (const path of ctx.query.nodes.keys()) {
    if (!ctx.visited.has(path)) {
      throw new RestError(
        400,
        'PGRST108',
        `'${path}' is not an embedded resource in this request`,
        null,
        `Verify that '${path}' is included in the 'select' query parameter.`,
      );
    }
  }
}
