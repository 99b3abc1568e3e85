import { describe, expect, it } from 'vitest';
import { siteStateSchema } from './site-state';
import { parseLegalVersion, parseSiteState, versionFromQuery } from './site-state-guards';

const good = {
  banner: { text: 'Maintenance', severity: 'warning', ends_at: null },
  read_only: null,
  announcement: { text: 'New', link: '/pricing' },
  status: { level: 'ok', text: 'All Systems Operational' },
  support: { response_hours: 24, email: 'support@storewise.app' },
  faq: [{ question: 'Q', answer: 'A' }],
  legal: { 'terms-of-service': { version: 2, effective_at: '2026-12-01T00:00:00Z' } },
};

describe('the live script guards agree with the dashboard zod schema', () => {
  const bad: Record<string, unknown>[] = [
    { ...good, banner: { text: 'x', severity: 'loud', ends_at: null } },
    { ...good, status: { level: 'ok' } },
    { ...good, support: { response_hours: '24', email: 'x' } },
    { ...good, faq: [{ question: 1, answer: 'A' }] },
    { ...good, legal: { x: { version: 1.5, effective_at: '2026-12-01' } } },
  ];
  it('accepts a good answer', () => {
    expect(parseSiteState(good)).toEqual(siteStateSchema.parse(good));
  });
  it.each(bad.map((value, index) => [index, value] as const))('refuses bad answer %i like zod does', (_index, value) => {
    expect(() => parseSiteState(value)).toThrow(/Unexpected answer/);
    expect(siteStateSchema.safeParse(value).success).toBe(false);
  });
  it('reads one legal version or none, and only positive whole versions from the address', () => {
    expect(parseLegalVersion([])).toBeUndefined();
    expect(() => parseLegalVersion([{ slug: 'x' }])).toThrow();
    expect(versionFromQuery('?version=3')).toBe(3);
    expect(versionFromQuery('?version=0')).toBeUndefined();
    expect(versionFromQuery('?version=1e3')).toBeUndefined();
    expect(versionFromQuery('')).toBeUndefined();
  });
});
