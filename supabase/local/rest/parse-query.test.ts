import { describe, expect, it } from 'vitest';
import { parseQuery } from './parse-query';
import { parsePrefer } from './parse-prefer';
import { negotiate, rowRange } from './negotiate';
import { RestError } from './rest-error';

describe('parseQuery', () => {
  it('routes filters, order and limit to the root and to embeds', () => {
    const query = parseQuery(new URLSearchParams(
      'select=*,tickets(*)&status=eq.open&tickets.priority=in.(high,urgent)&tickets.order=created_at.desc&tickets.limit=2&not.or=(a.eq.1,b.eq.2)&order=id&limit=10&offset=20&columns="a",b&on_conflict=user_id&apikey=secret',
    ));
    const root = query.nodes.get('');
    expect(root?.filters).toHaveLength(2);
    expect(root?.filters[1]).toMatchObject({ kind: 'logic', op: 'or', negate: true });
    expect(root).toMatchObject({ order: [{ column: 'id' }], limit: 10, offset: 20 });
    expect(query.nodes.get('tickets')).toMatchObject({ limit: 2, order: [{ column: 'created_at', direction: 'desc' }], filters: [{ column: 'priority', op: 'in', value: ['high', 'urgent'] }] });
    expect(query.columns).toEqual(['a', 'b']);
    expect(query.onConflict).toEqual(['user_id']);
  });

  it('takes function arguments out of the filters for GET /rpc', () => {
    const query = parseQuery(new URLSearchParams('_plan_name=Pro&status=eq.x'), new Set(['_plan_name']));
    expect(query.rpcArgs.get('_plan_name')).toBe('Pro');
    expect(query.nodes.get('')?.filters).toHaveLength(1);
  });

  it('rejects bad limits and offsets', () => {
    expect(() => parseQuery(new URLSearchParams('limit=-1'))).toThrow(RestError);
    expect(() => parseQuery(new URLSearchParams('offset=1;drop'))).toThrow(RestError);
    expect(() => parseQuery(new URLSearchParams('limit=1e3'))).toThrow(RestError);
  });
});

describe('parsePrefer', () => {
  it('reads comma-joined preferences and ignores unknown ones', () => {
    const prefs = parsePrefer('return=representation, count=exact,resolution=merge-duplicates,missing=default,foo=bar,tx=rollback');
    expect(prefs).toMatchObject({ return: 'representation', count: 'exact', resolution: 'merge-duplicates', missing: 'default', tx: 'rollback' });
    expect(prefs.applied).not.toContain('foo=bar');
  });
});

describe('negotiate and rowRange', () => {
  it('understands the media types supabase-js sends', () => {
    expect(negotiate('application/vnd.pgrst.object+json')).toEqual({ singular: true, stripNulls: false });
    expect(negotiate('application/vnd.pgrst.array+json;nulls=stripped')).toEqual({ singular: false, stripNulls: true });
    expect(negotiate('application/json, text/plain, */*')).toEqual({ singular: false, stripNulls: false });
    expect(() => negotiate('text/csv')).toThrow(RestError);
  });

  it('intersects Range with limit/offset', () => {
    expect(rowRange('0-9', undefined, undefined)).toEqual({ offset: 0, limit: 10 });
    expect(rowRange('5-', 3, undefined)).toEqual({ offset: 5, limit: 0 });
    expect(rowRange('0-9', 5, 2)).toEqual({ offset: 2, limit: 5 });
    expect(rowRange(null, undefined, 4)).toEqual({ offset: 4 });
    expect(() => rowRange('9-0', undefined, undefined)).toThrow(RestError);
    expect(() => rowRange('0-9;drop', undefined, undefined)).toThrow(RestError);
  });
});
