import type { MiddlewareHandler } from 'hono';

/**
 * Deeper JSON than any Storewise body needs. Past a few thousand levels JSON.stringify and PostgreSQL's
 * recursive JSON parser overflow their stacks (a 5xx, or a stuck database); 512 keeps far away from both.
 */
export const maxJsonDepth = 512;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text nests objects/arrays deeper than max, by one pass over the bytes (no recursion, no
 * parse): brackets inside strings do not count. Malformed JSON is left to the parser to refuse.
 */
export function jsonDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1;
  }
  return false;
}

/**
 * For /rest/v1: a JSON body nested deeper than maxJsonDepth is PostgREST's 400 PGRST102 before any parsing.
 * Runs after bodyLimit, so the body is already in memory and at most maxBodyBytes long.
 */
export function restJsonDepthLimit(max = maxJsonDepth): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    const type = request.headers.get('content-type');
    if (!request.body || (type !== null && !/json/i.test(type))) return next();
    const bytes = new Uint8Array(await request.clone().arrayBuffer());
    if (!jsonDeeperThan(bytes, max)) return next();
    return c.json({ code: 'PGRST102', message: 'Empty or invalid json', details: `JSON nested deeper than ${max} levels`, hint: null }, 400);
  };
}
