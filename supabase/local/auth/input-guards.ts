import { errors } from './auth-error';

/**
 * Limits on parsed JSON bodies, checked before anything reaches Postgres (which would answer 5xx):
 * no NUL character and no lone UTF-16 surrogate ("\ud800") in any string or key (text and jsonb cannot
 * store either), and no nesting past MAX_JSON_DEPTH (Postgres' jsonb parser and JSON.stringify recurse;
 * a 5,000-deep value overflows them).
 */
export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function assertStorableText(text: string): void {
  if (text.includes('\u0000')) throw errors.validation('Text may not contain the NUL character (\\u0000)');
  if (LONE_SURROGATE.test(text)) throw errors.validation('Text may not contain a lone UTF-16 surrogate (invalid Unicode)');
}

/** Walks the value without recursion, so the check itself cannot overflow the stack. */
export function assertSafeJson(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      assertStorableText(current);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw errors.badJson(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    if (Array.isArray(current)) {
      for (const item of current) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      assertStorableText(key);
      stack.push({ value: item, depth: depth + 1 });
    }
  }
}

/** Query-string values (tokens, hashes) that cannot be stored as text: refused as not found, never passed on. */
export function hasControlCharacter(value: string): boolean {
  // Matching control characters is the point here.
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(value);
}
