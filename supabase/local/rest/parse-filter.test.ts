import { describe, expect, it } from 'vitest';
import { parseCondition, parseList, parseLogic } from './parse-filter';
import { RestError } from './rest-error';

describe('parseCondition', () => {
  it('reads operator and value, keeping dots in the value', () => {
    expect(parseCondition('price', 'gte.10.5')).toEqual({ kind: 'condition', column: 'price', negate: false, op: 'gte', value: '10.5' });
  });

  it('reads not. and an empty value', () => {
    expect(parseCondition('name', 'not.eq.')).toMatchObject({ negate: true, op: 'eq', value: '' });
  });

  it('splits in-lists with quoted values containing commas and parentheses', () => {
    expect(parseCondition('name', 'in.(a,"b,c","d(e)",f)').value).toEqual(['a', 'b,c', 'd(e)', 'f']);
    expect(parseCondition('name', 'in.()').value).toEqual([]);
    expect(parseCondition('name', 'in.("say \\"hi\\"")').value).toEqual(['say "hi"']);
  });

  it('accepts is.null / is.true and rejects other is values', () => {
    expect(parseCondition('x', 'is.NULL').value).toBe('null');
    expect(parseCondition('x', 'not.is.true')).toMatchObject({ negate: true, value: 'true' });
    expect(() => parseCondition('x', 'is.maybe')).toThrow(RestError);
  });

  it('reads (any)/(all) lists and fts configurations', () => {
    expect(parseCondition('x', 'like(any).{a*,"b,c"}')).toMatchObject({ op: 'like', quantifier: 'any', value: ['a*', 'b,c'] });
    expect(parseCondition('body', 'fts(english).cat')).toMatchObject({ op: 'fts', ftsConfig: 'english', value: 'cat' });
  });

  it('rejects unknown operators and hostile modifiers with PGRST100', () => {
    for (const raw of ['xx.1', 'eq', 'eq;drop table x', 'fts(english;drop).x', 'eq(any).1', 'in.1,2', 'in.(a"b)']) {
      let caught: unknown;
      try {
        parseCondition('x', raw);
      } catch (error) {
        caught = error;
      }
      expect(caught, raw).toBeInstanceOf(RestError);
      expect((caught as RestError).code, raw).toBe('PGRST100');
      expect((caught as RestError).status, raw).toBe(400);
    }
  });
});

describe('parseList', () => {
  it('needs the brackets it was asked for', () => {
    expect(parseList('{1,2}', '{', 'filter')).toEqual(['1', '2']);
    expect(() => parseList('(1,2)', '{', 'filter')).toThrow(RestError);
  });
});

describe('parseLogic', () => {
  it('parses or with nested and/not and quoted values', () => {
    const tree = parseLogic('or', false, '(a.eq.1,and(b.gt.2,c.is.null),not.and(d.eq."x,y",e.in.(1,"2,3")),f.not.like.*z*)');
    expect(tree).toEqual({
      kind: 'logic', op: 'or', negate: false, children: [
        { kind: 'condition', column: 'a', negate: false, op: 'eq', value: '1' },
        { kind: 'logic', op: 'and', negate: false, children: [
          { kind: 'condition', column: 'b', negate: false, op: 'gt', value: '2' },
          { kind: 'condition', column: 'c', negate: false, op: 'is', value: 'null' },
        ] },
        { kind: 'logic', op: 'and', negate: true, children: [
          { kind: 'condition', column: 'd', negate: false, op: 'eq', value: 'x,y' },
          { kind: 'condition', column: 'e', negate: false, op: 'in', value: ['1', '2,3'] },
        ] },
        { kind: 'condition', column: 'f', negate: true, op: 'like', value: '*z*' },
      ],
    });
  });

  it('keeps the negation of not.or', () => {
    expect(parseLogic('or', true, '(a.eq.1)').negate).toBe(true);
  });

  it('rejects unbalanced or hostile trees', () => {
    for (const raw of ['(a.eq.1', 'a.eq.1', '(a.eq.1))', '(a.eq.1;drop table x,b.eq.2', '(a;drop.eq.1)', '()', '(a.zz.1)']) {
      expect(() => parseLogic('or', false, raw), raw).toThrow(RestError);
    }
  });
});
