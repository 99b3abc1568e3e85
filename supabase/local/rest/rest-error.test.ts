import { describe, expect, it } from 'vitest';
import { statusForSqlState, toRestError } from './rest-error';

describe('statusForSqlState', () => {
  it('answers PostgREST custom codes PTxyz with HTTP xyz, as mapSQLtoHTTP does', () => {
    expect(statusForSqlState('PT429', 'authenticated')).toBe(429);
    expect(statusForSqlState('PT402', 'anon')).toBe(402);
    expect(statusForSqlState('PTABC', 'authenticated')).toBe(500);
    // Not found is raised as PT404 (ADR 0331): P0002 (no_data_found) is a PL/pgSQL error, a 500 there.
    expect(statusForSqlState('PT404', 'authenticated')).toBe(404);
    expect(statusForSqlState('P0002', 'authenticated')).toBe(500);
  });

  it('keeps the table for other codes', () => {
    expect(statusForSqlState('SW001', 'authenticated')).toBe(400);
    expect(statusForSqlState('P0001', 'authenticated')).toBe(400);
    expect(statusForSqlState('42501', 'anon')).toBe(401);
  });

  it('a raised PT429 becomes a 429 error body with its code and message', () => {
    const e = toRestError({ code: 'PT429', message: 'try again in 5 minutes' }, 'authenticated');
    expect(e.status).toBe(429);
    expect(e.body()).toMatchObject({ code: 'PT429', message: 'try again in 5 minutes' });
  });
});
