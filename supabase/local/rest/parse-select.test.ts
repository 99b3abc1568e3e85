import { describe, expect, it } from 'vitest';
import { parseSelect } from './parse-select';
import { parseOrder } from './parse-order';
import { RestError } from './rest-error';

describe('parseSelect', () => {
  it('reads columns, aliases, casts and star', () => {
    expect(parseSelect('id,name:full_name,price::text,*')).toEqual([
      { kind: 'column', name: 'id' },
      { kind: 'column', name: 'full_name', alias: 'name' },
      { kind: 'column', name: 'price', cast: 'text' },
      { kind: 'star' },
    ]);
  });

  it('treats an empty select as *', () => {
    expect(parseSelect('')).toEqual([{ kind: 'star' }]);
  });

  it('reads nested embeds with hints, !inner and aliases', () => {
    expect(parseSelect('*,owner:profiles!tickets_user_fkey!inner(full_name,plans:user_plans(*)),notes()')).toEqual([
      { kind: 'star' },
      {
        kind: 'embed', name: 'profiles', alias: 'owner', hint: 'tickets_user_fkey', joinType: 'inner', items: [
          { kind: 'column', name: 'full_name' },
          { kind: 'embed', name: 'user_plans', alias: 'plans', joinType: 'left', items: [{ kind: 'star' }] },
        ],
      },
      { kind: 'embed', name: 'notes', joinType: 'left', items: [] },
    ]);
  });

  it('accepts quoted names', () => {
    expect(parseSelect('"odd,name"')).toEqual([{ kind: 'column', name: 'odd,name' }]);
  });

  it('rejects hostile or malformed selects with PGRST100', () => {
    for (const raw of ['id;drop table x', 'id,(select 1)', 'id::text;--', 'id::regclass', 'a(b', 'a)', 'id,,name', 'x->>y', '...p(a)']) {
      let caught: unknown;
      try {
        parseSelect(raw);
      } catch (error) {
        caught = error;
      }
      expect(caught, raw).toBeInstanceOf(RestError);
      expect((caught as RestError).code, raw).toBe('PGRST100');
    }
  });
});

describe('parseOrder', () => {
  it('reads several terms with direction and nulls', () => {
    expect(parseOrder('created_at.desc.nullslast,id,name.asc')).toEqual([
      { column: 'created_at', direction: 'desc', nulls: 'last' },
      { column: 'id' },
      { column: 'name', direction: 'asc' },
    ]);
  });

  it('rejects injection attempts', () => {
    for (const raw of ['id;select', 'id desc; drop table x', 'id.sideways', 'id.desc.nullsmiddle', '(select 1)', 'id,']) {
      expect(() => parseOrder(raw), raw).toThrow(RestError);
    }
  });
});
