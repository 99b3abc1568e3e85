/**
 * ADR 0331: the SQLSTATE of a RAISE is the HTTP status the person gets, through PostgREST's mapSQLtoHTTP. Every
 * P0xxx code but P0001 is a 500 there, so "not found" is raised as PT404 (HTTP 404), never as P0002
 * (no_data_found, which erase_customer and 20 others used to answer an unknown id with a server error).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { statusForSqlState } from '../../supabase/local/rest/rest-error';

function raisedCodes(): { file: string; code: string }[] {
  const dir = 'supabase/schemas';
  return readdirSync(dir).filter((f) => f.endsWith('.sql')).flatMap((file) =>
    [...readFileSync(`${dir}/${file}`, 'utf8').matchAll(/errcode\s*=\s*'([0-9A-Z]{5})'/g)].map((m) => ({ file, code: m[1] ?? '' })));
}

describe('the error codes the database raises', () => {
  const raised = raisedCodes();

  it('finds the schema\'s raised codes, not found among them', () => {
    expect(raised.length).toBeGreaterThan(200);
    expect(raised.filter((r) => r.code === 'PT404').length).toBeGreaterThanOrEqual(21);
  });

  it('raises none that PostgREST answers with a 500', () => {
    expect(raised.filter((r) => statusForSqlState(r.code, 'authenticated') >= 500 && r.code !== 'PT503')).toEqual([]);
  });
});
