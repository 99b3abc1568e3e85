/** Builds PostgREST-style responses: Content-Type, Content-Range, statuses 200/206/201/204. */
import { RestError } from './rest-error';
import type { ResultShape, StatementResult } from './statement';

export function contentType(shape: ResultShape): string {
  return shape.singular ? 'application/vnd.pgrst.object+json; charset=utf-8' : 'application/json; charset=utf-8';
}

export function contentRange(offset: number, pageCount: number, total: number | null): string {
  const range = pageCount > 0 ? `${offset}-${offset + pageCount - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

/** A read (GET/HEAD on a table, or an rpc returning rows). */
export function readResponse(method: string, result: StatementResult, offset: number, shape: ResultShape, applied: string[]): Response {
  const { total, pageCount } = result;
  if (total !== null && offset > 0 && offset > total) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${offset} was requested, but there are only ${total} rows.`, null);
  }
  const partial = total !== null && pageCount < total;
  const headers: Record<string, string> = {
    'content-type': contentType(shape),
    'content-range': contentRange(offset, pageCount, total),
  };
  if (applied.length > 0) headers['preference-applied'] = applied.join(', ');
  return new Response(method === 'HEAD' ? null : result.body, { status: partial ? 206 : 200, headers });
}

/** A write: 201 for inserts, 200 with a representation, 204 (or 201) without one. */
export function writeResponse(
  status: number,
  body: string | null,
  rows: number,
  counted: boolean,
  shape: ResultShape,
  applied: string[],
): Response {
  const headers: Record<string, string> = { 'content-range': contentRange(0, body === null ? 0 : rows, counted ? rows : null) };
  if (body !== null) headers['content-type'] = contentType(shape);
  if (applied.length > 0) headers['preference-applied'] = applied.join(', ');
  return new Response(body, { status, headers });
}
