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

  it('reads the message where PostgREST does: safe-update refusals, unknown JWT roles, shutdown, xmlagg', () => {
    expect(statusForSqlState('21000', 'authenticated', 'DELETE requires a WHERE clause')).toBe(400);
    expect(statusForSqlState('21000', 'authenticated', 'more than one row returned by a subquery used as an expression')).toBe(500);
    expect(statusForSqlState('22023', 'authenticated', 'role "ghost" does not exist')).toBe(401);
    expect(statusForSqlState('22023', 'authenticated', 'invalid value for parameter "TimeZone"')).toBe(400);
    expect(statusForSqlState('57P01', 'authenticated', 'terminating connection due to administrator command')).toBe(503);
    expect(statusForSqlState('57P02', 'authenticated')).toBe(500);
    expect(statusForSqlState('42883', 'authenticated', 'function xmlagg(integer) does not exist')).toBe(406);
    expect(statusForSqlState('42883', 'authenticated', 'function nope() does not exist')).toBe(404);
    expect(toRestError({ code: '21000', message: 'more than one row returned by a subquery used as an expression' }, 'authenticated').status).toBe(500);
  });

  it('a raised PT429 becomes a 429 error body with its code and message', () => {
    const e = toRestError({ code: 'PT429', message: 'try again in 5 minutes' }, 'authenticated');
    expect(e.status).toBe(429);
    expect(e.body()).toMatchObject({ code: 'PT429', message: 'try again in 5 minutes' });
  });
});
