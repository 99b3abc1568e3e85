/**
 * Request headers that shape the answer: Accept (array, single object, stripped nulls), the schema
 * profile headers, Range / Range-Unit, and the JSON body.
 */
import { RestError, parseError } from './rest-error';
import type { ResultShape } from './statement';
import { EXPOSED_SCHEMA } from './schema-cache';

const OBJECT = ['application/vnd.pgrst.object+json', 'application/vnd.pgrst.object'];
const ARRAY = ['application/json', 'application/vnd.pgrst.array+json', 'application/vnd.pgrst.array', '*/*', 'application/*'];

export function negotiate(accept: string | null): ResultShape {
  if (accept === null || accept.trim() === '') return { singular: false, stripNulls: false };
  for (const entry of accept.split(',')) {
    const [type = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const stripNulls = params.includes('nulls=stripped');
    if (OBJECT.includes(type)) return { singular: true, stripNulls };
    if (ARRAY.includes(type)) return { singular: false, stripNulls };
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`, null, null);
}

/** Accept-Profile / Content-Profile may only name the exposed schema. */
export function checkProfile(headers: Headers): void {
  for (const name of ['accept-profile', 'content-profile']) {
    const value = headers.get(name);
    if (value !== null && value !== EXPOSED_SCHEMA) {
      throw new RestError(406, 'PGRST106', `The schema must be one of the following: ${EXPOSED_SCHEMA}`, null, null);
    }
  }
}

export interface RowRange {
  offset: number;
  limit?: number;
}

/** Intersects the Range header (`0-9`, unit items) with limit/offset, as PostgREST does. */
export function rowRange(rangeHeader: string | null, limit: number | undefined, offset: number | undefined): RowRange {
  let start = offset ?? 0;
  let end = limit === undefined ? Infinity : start + limit - 1;
  if (rangeHeader !== null && rangeHeader.trim() !== '') {
    const match = /^(?:items=)?(\d{1,15})-(\d{0,15})$/.exec(rangeHeader.trim());
    if (!match) throw parseError('range', rangeHeader, 'expecting "from-to", e.g. "0-9"');
    const from = Number(match[1]);
    const to = match[2] === '' ? Infinity : Number(match[2]);
    if (to < from) {
      throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', `The lower boundary must be lower than or equal to the upper boundary in the Range header.`, null);
    }
    start = Math.max(start, from);
    end = Math.min(end, to);
  }
  return end === Infinity ? { offset: start } : { offset: start, limit: Math.max(0, end - start + 1) };
}

/** Reads a JSON body; anything but JSON (or an empty body, when allowed) is PGRST102. */
export async function readJsonBody(request: Request, emptyAs: unknown): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (type !== null && !/^application\/json\b/i.test(type.trim())) {
    throw new RestError(415, 'PGRST107', `Content-Type not acceptable: ${type}`, null, null);
  }
  const text = await request.text();
  if (text.trim() === '') {
    if (emptyAs !== undefined) return emptyAs;
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', null, null);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', error instanceof Error ? error.message : null, null);
  }
}
