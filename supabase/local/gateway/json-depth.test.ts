import { describe, expect, it } from 'vitest';
import { jsonDeeperThan } from './json-depth';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('jsonDeeperThan', () => {
  it('counts object and array nesting, not brackets inside strings', () => {
    expect(jsonDeeperThan(bytes('[[[]]]'), 3)).toBe(false);
    expect(jsonDeeperThan(bytes('[[[[]]]]'), 3)).toBe(true);
    expect(jsonDeeperThan(bytes('{"a":{"b":[1]}}'), 3)).toBe(false);
    expect(jsonDeeperThan(bytes('{"a":{"b":[{}]}}'), 3)).toBe(true);
    expect(jsonDeeperThan(bytes(JSON.stringify({ text: '[[[[{{{{' })), 1)).toBe(false);
    // An escaped quote does not end the string.
    expect(jsonDeeperThan(bytes(JSON.stringify({ text: '"[[[[' })), 1)).toBe(false);
  });

  it('measures depth, not the number of brackets', () => {
    expect(jsonDeeperThan(bytes('[' + '[],'.repeat(10_000) + '[]]'), 2)).toBe(false);
  });
});
