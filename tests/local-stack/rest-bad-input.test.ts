/**
 * Hostile and malformed requests to /rest/v1: each gets a 4xx JSON error in PostgREST's shape, no data
 * changes, and the server keeps answering normal requests.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type StackHandle } from '../helpers/stack';
import { rawRest, userClient, userToken, users } from './rest-test-clients';

let stack: StackHandle;
let owner1: SupabaseClient;
let ownerToken: string;

const tables = ['profiles', 'user_plans', 'billing_history', 'payment_methods', 'login_activity', 'active_sessions', 'support_tickets'];

/** Row counts and a digest of every exposed table, read as the database owner. */
async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await stack.db.query<{ digest: string }>(`select count(*)::text || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as digest from public.${table} t`);
    parts.push(`${table}=${rows[0]?.digest}`);
  }
  const roles = await stack.db.query<{ n: string }>('select count(*)::text as n from private.user_roles');
  parts.push(`user_roles=${roles.rows[0]?.n}`);
  return parts.join(' ');
}

function asOwner(path: string, init: RequestInit = {}): Promise<Response> {
  return rawRest(stack, path, { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${ownerToken}`, apikey: stack.anonKey } });
}

async function expectError(res: Response, status: number, code: string): Promise<void> {
  expect(res.status, `${res.url} -> ${res.status}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
  expect(body.code).toBe(code);
}

let before: string;

beforeAll(async () => {
  stack = await startStack();
  owner1 = await userClient(stack, users.owner1);
  ownerToken = await userToken(stack, users.owner1);
  before = await snapshot();
});

afterAll(async () => {
  await stack?.stop();
});

describe('malformed bodies and headers', () => {
  it('malformed JSON is 400 PGRST102', async () => {
    await expectError(await asOwner('support_tickets', { method: 'POST', body: '{"subject": "x",' }), 400, 'PGRST102');
    await expectError(await asOwner('profiles?id=eq.' + users.owner1, { method: 'PATCH', body: '[1,2' }), 400, 'PGRST102');
    await expectError(await asOwner('profiles?id=eq.' + users.owner1, { method: 'PATCH', body: '["not", "an object"]' }), 400, 'PGRST102');
    await expectError(await asOwner('support_tickets', { method: 'POST', body: '"just a string"' }), 400, 'PGRST102');
    await expectError(await asOwner('rpc/choose_plan', { method: 'POST', body: '{bad json' }), 400, 'PGRST102');
  });

  it('rejects other content types, media types and schemas', async () => {
    await expectError(await asOwner('support_tickets', { method: 'POST', body: 'subject=x', headers: { 'content-type': 'text/plain' } }), 415, 'PGRST107');
    await expectError(await asOwner('profiles', { headers: { accept: 'text/csv' } }), 406, 'PGRST107');
    await expectError(await asOwner('user_roles', { headers: { 'accept-profile': 'private' } }), 406, 'PGRST106');
    await expectError(await asOwner('profiles', { method: 'PUT', body: '{}' }), 405, 'PGRST117');
  });
});

describe('unknown names', () => {
  it('unknown tables are 404 PGRST205, private ones included', async () => {
    const { error, status } = await owner1.from('no_such_table').select('*');
    expect(status).toBe(404);
    expect(error).toMatchObject({ code: 'PGRST205', message: "Could not find the table 'public.no_such_table' in the schema cache" });
    await expectError(await asOwner('user_roles'), 404, 'PGRST205');
    await expectError(await asOwner('private.user_roles'), 404, 'PGRST205');
    await expectError(await asOwner('pg_catalog.pg_authid'), 404, 'PGRST205');
    await expectError(await asOwner(encodeURIComponent('profiles; drop table profiles')), 404, 'PGRST205');
  });

  it('unknown columns are 400 42703 in select, filters and order', async () => {
    const select = await owner1.from('profiles').select('id, secret_column');
    expect(select.status).toBe(400);
    expect(select.error).toMatchObject({ code: '42703', message: 'column profiles.secret_column does not exist' });
    expect((await owner1.from('profiles').select('id').eq('nope', 1)).error?.code).toBe('42703');
    expect((await owner1.from('profiles').select('id').order('nope')).error?.code).toBe('42703');
  });

  it('unknown operators are 400 PGRST100', async () => {
    const { error, status } = await owner1.from('profiles').select('id').filter('full_name', 'sounds_like', 'x');
    expect(status).toBe(400);
    expect(error?.code).toBe('PGRST100');
    await expectError(await asOwner('profiles?full_name=xyz'), 400, 'PGRST100');
  });
});

describe('injection attempts', () => {
  it('in filter values: bound as values, so a typed column rejects them and a text column matches nothing', async () => {
    await expectError(await asOwner(`profiles?id=eq.${encodeURIComponent('1;drop table profiles')}`), 400, '22P02');
    const text = await owner1.from('profiles').select('id').eq('full_name', "x' or '1'='1");
    expect(text.error).toBeNull();
    expect(text.data).toEqual([]);
    const inList = await owner1.from('profiles').select('id').in('full_name', ["a') or true --", 'b']);
    expect(inList.data).toEqual([]);
    const like = await owner1.from('support_tickets').select('id').like('subject', "%'; delete from support_tickets; --");
    expect(like.data).toEqual([]);
  });

  it('in order, select, logic trees and keys: parse errors, never SQL', async () => {
    await expectError(await asOwner('profiles?order=id;select'), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?order=${encodeURIComponent('id desc; drop table profiles')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?order=${encodeURIComponent('(select 1)')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?select=${encodeURIComponent('id;drop table profiles')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?select=${encodeURIComponent('id,(select secret from x)')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?select=${encodeURIComponent('id::text;--')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?select=${encodeURIComponent('"id""; drop table profiles; --"')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?select=${encodeURIComponent('"id\\"; drop table profiles; --"')}`), 400, '42703');
    await expectError(await asOwner(`profiles?or=${encodeURIComponent('(id.eq.1);drop table profiles')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?or=${encodeURIComponent('(id;drop.eq.1)')}`), 400, 'PGRST100');
    await expectError(await asOwner(`profiles?${encodeURIComponent('id;drop table profiles')}=eq.1`), 400, '42703');
    await expectError(await asOwner('profiles?limit=1;drop'), 400, 'PGRST100');
    await expectError(await asOwner('profiles?select=id', { headers: { Range: '0-1;drop' } }), 400, 'PGRST100');
  });

  it('in bodies: keys must be columns, values are data', async () => {
    const key = await owner1.from('profiles').update({ 'full_name" = \'x\'; --': 'y' }).eq('id', users.owner1);
    expect(key.error?.code).toBe('PGRST204');
    // Stored literally (seen in the representation), then rolled back so the data check below holds.
    const bobby = "Robert'); DROP TABLE profiles;--";
    const value = await asOwner(`profiles?id=eq.${users.owner1}&select=full_name`, {
      method: 'PATCH',
      headers: { Prefer: 'return=representation,tx=rollback' },
      body: JSON.stringify({ full_name: bobby }),
    });
    expect(await value.json()).toEqual([{ full_name: bobby }]);
    const rpcKey = await owner1.rpc('choose_plan', { '_plan_name := null) --': 'x' });
    expect(rpcKey.error?.code).toBe('PGRST202');
  });
});

describe('afterwards', () => {
  it('changed no data and still serves normal requests, also under a burst of bad ones', async () => {
    expect(await snapshot()).toBe(before);
    const burst = await Promise.all([
      ...Array.from({ length: 10 }, () => asOwner('support_tickets', { method: 'POST', body: '{oops' }).then((r) => r.status)),
      ...Array.from({ length: 10 }, () => asOwner('profiles?order=x;y').then((r) => r.status)),
      ...Array.from({ length: 10 }, () => owner1.from('profiles').select('full_name').single().then((r) => r.data?.full_name)),
    ]);
    expect(burst.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(burst.slice(20)).toEqual(Array.from({ length: 10 }, () => 'Olivia Grocer'));
    expect(await snapshot()).toBe(before);
  });
});
