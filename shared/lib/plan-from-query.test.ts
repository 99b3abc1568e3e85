import { describe, expect, it } from 'vitest';
import { currentQuery, planFromQuery } from './plan-from-query';

describe('planFromQuery (the landing links /signup?plan=<name>, docs/adr/0167)', () => {
  it('reads each self-service plan', () => {
    expect(planFromQuery('?plan=Starter')).toBe('Starter');
    expect(planFromQuery('?plan=Growth')).toBe('Growth');
    expect(planFromQuery('?utm_source=x&plan=Pro')).toBe('Pro');
  });

  it('rejects Enterprise, unknown or differently spelled names, and a missing plan', () => {
    for (const search of ['?plan=Enterprise', '?plan=pro', '?plan=Pro%20', '?plan=', '?plan=__proto__', '', '?other=Pro']) {
      expect(planFromQuery(search)).toBeNull();
    }
  });

  it("finds the query in the URL, or in the desktop hash router's address", () => {
    expect(currentQuery({ search: '?plan=Pro', hash: '' })).toBe('?plan=Pro');
    expect(currentQuery({ search: '', hash: '#/signup?plan=Growth' })).toBe('?plan=Growth');
    expect(currentQuery({ search: '', hash: '#pricing' })).toBe('');
  });
});
