import { errors } from './auth-error';

/**
 * Limits on parsed JSON bodies, checked before anything reaches Postgres (which would answer 5xx):
 * no NUL character in any string or key (text and jsonb cannot store it), and no nesting past
 * MAX_JSON_DEPTH (Postgres' jsonb parser and JSON.stringify recurse; a 5,000-deep value overflows them).
 */
export const MAX_JSON_DEPTH = 32;

/** Walks the value without recursion, so the check itself cannot overflow the stack. */
export function assertSafeJson(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) throw errors.validation('Text may not contain the NUL character (\\u0000)');
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
      if (key.includes('\u0000')) throw errors.validation('Text may not contain the NUL character (\\u0000)');
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
