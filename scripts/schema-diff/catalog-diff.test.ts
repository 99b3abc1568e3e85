import { describe, expect, it } from 'vitest';
import { diffSnapshots } from './catalog-diff';

const base = {
  grants: ['function public.f(): authenticated execute', 'table public.t: authenticated select'],
  functions: ['public.f() returns integer ... body md5 aaa'],
  publications: [],
};

describe('diffSnapshots', () => {
  it('is empty for the same catalog', () => {
    expect(diffSnapshots({ label: 'migrations', snapshot: base }, { label: 'schema', snapshot: structuredClone(base) })).toBe('');
  });

  it('names a grant one side lacks and the first line where a function body differs', () => {
    const other = {
      ...base,
      grants: ['function public.f(): authenticated execute'],
      functions: ['public.f() returns integer ... body md5 bbb'],
    };
    const text = diffSnapshots(
      { label: 'migrations', snapshot: base, bodies: new Map([['public.f()', 'begin\n  return 1;\nend']]) },
      { label: 'schema', snapshot: other, bodies: new Map([['public.f()', 'begin\n  return 2;\nend']]) },
    );
    expect(text).toContain('grants:\n  only in migrations: table public.t: authenticated select');
    expect(text).toContain('only in schema: public.f() returns integer ... body md5 bbb');
    expect(text).toContain('body of public.f() differs at line 2: "  return 1;" vs "  return 2;"');
  });
});
