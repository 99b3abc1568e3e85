/**
 * Data API writes and rpc through supabase-js over HTTP: insert/update/delete with each Prefer return,
 * upsert (merge and ignore), missing=default, column privileges, RLS on writes, tx=rollback, and rpc
 * for every return shape (row, scalar, set, void, json).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchema } from '../../supabase/local/rest/schema-cache';
import { startStack, type StackHandle } from '../helpers/stack';
import { anonClient, rawRest, serviceClient, userClient, users } from './rest-test-clients';

let stack: StackHandle;
let owner1: SupabaseClient;
let owner2: SupabaseClient;
let service: SupabaseClient;

beforeAll(async () => {
  stack = await startStack();
  owner1 = await userClient(stack, users.owner1);
  owner2 = await userClient(stack, users.owner2);
  service = serviceClient(stack);
  // Functions of every return shape, to prove rpc answers them as PostgREST does.
  await stack.db.exec(`
    create table public.rest_fixture_counters (name text primary key, hits int not null default 0, note text default 'fresh');
    grant select, insert, update, delete on public.rest_fixture_counters to authenticated, service_role;
    create function public.rest_fixture_add(a int, b int default 10) returns int language sql immutable as $$ select a + b $$;
    create function public.rest_fixture_series(n int) returns setof int language sql stable as $$ select generate_series(1, n) $$;
    create function public.rest_fixture_rows(min_hits int) returns setof public.rest_fixture_counters language sql stable
      as $$ select * from public.rest_fixture_counters where hits >= min_hits $$;
    create function public.rest_fixture_table() returns table (label text, doubled int) language sql stable
      as $$ select name, hits * 2 from public.rest_fixture_counters $$;
    create function public.rest_fixture_touch(_name text) returns void language sql
      as $$ update public.rest_fixture_counters set hits = hits + 1 where name = _name $$;
    create function public.rest_fixture_echo(payload jsonb, tags text[]) returns json language sql immutable
      as $$ select json_build_object('payload', payload, 'tags', tags) $$;
  `);
  await reloadSchema(stack.db);
});

afterAll(async () => {
  await stack?.stop();
});

describe('insert', () => {
  it('files a ticket with return=minimal: 201 and no body', async () => {
    const { data, error, status } = await owner1.from('support_tickets').insert({ user_id: users.owner1, subject: 'Printer', message: 'It jams' });
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toBeNull();
  });

  it('returns the inserted rows with select() (return=representation)', async () => {
    const { data, error, status } = await owner1
      .from('support_tickets')
      .insert([{ user_id: users.owner1, subject: 'A', message: 'one' }, { user_id: users.owner1, subject: 'B', message: 'two' }])
      .select('subject, status, priority');
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([
      { subject: 'A', status: 'open', priority: 'medium' },
      { subject: 'B', status: 'open', priority: 'medium' },
    ]);
  });

  it('lets RLS refuse a ticket for someone else or with a forced status (403 42501)', async () => {
    const forged = await owner1.from('support_tickets').insert({ user_id: users.owner2, subject: 'x', message: 'y' });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe('42501');
    const escalated = await owner1.from('support_tickets').insert({ user_id: users.owner1, subject: 'x', message: 'y', priority: 'urgent' });
    expect(escalated.error?.code).toBe('42501');
  });

  it('refuses a column the role may not insert (column privileges)', async () => {
    const { error, status } = await owner1.from('support_tickets').insert({ user_id: users.owner1, subject: 'x', message: 'y', created_at: '2020-01-01T00:00:00Z' });
    expect(status).toBe(403);
    expect(error?.code).toBe('42501');
  });

  it('maps check and not-null violations to 400 and unknown columns to PGRST204', async () => {
    const check = await owner1.from('support_tickets').insert({ user_id: users.owner1, subject: ' ', message: 'y' });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe('23514');
    const notNull = await owner1.from('support_tickets').insert({ user_id: users.owner1, subject: 'x' });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe('23502');
    const unknown = await owner1.from('support_tickets').insert({ user_id: users.owner1, subject: 'x', message: 'y', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({ code: 'PGRST204', message: "Could not find the 'colour' column of 'support_tickets' in the schema cache" });
  });

  it('fills missing keys with null, or with defaults when defaultToNull is false', async () => {
    const rows = [{ name: 'n1', hits: 1 }, { name: 'n2' }];
    const asNull = await service.from('rest_fixture_counters').insert(rows.map((r) => ({ ...r, note: 'x' })).slice(0, 1)).select();
    expect(asNull.data).toEqual([{ name: 'n1', hits: 1, note: 'x' }]);
    const withDefaults = await service.from('rest_fixture_counters').insert([{ name: 'd1', hits: 5 }, { name: 'd2' }], { defaultToNull: false }).select().order('name');
    expect(withDefaults.error).toBeNull();
    expect(withDefaults.data).toEqual([{ name: 'd1', hits: 5, note: 'fresh' }, { name: 'd2', hits: 0, note: 'fresh' }]);
    const nulls = await service.from('rest_fixture_counters').insert([{ name: 'z1', hits: 2, note: 'a' }, { name: 'z2', hits: 3 }]).select('note').order('name');
    expect(nulls.data).toEqual([{ note: 'a' }, { note: null }]);
  });

  it('reports 409 23505 for a duplicate key', async () => {
    const { error, status } = await service.from('rest_fixture_counters').insert({ name: 'n1' });
    expect(status).toBe(409);
    expect(error?.code).toBe('23505');
  });
});

describe('upsert', () => {
  it('merges duplicates on the primary key and on on_conflict', async () => {
    const merged = await service.from('rest_fixture_counters').upsert([{ name: 'u1', hits: 1 }, { name: 'n1', hits: 99 }]).select().order('name');
    expect(merged.error).toBeNull();
    expect(merged.data?.map((r) => [r.name, r.hits])).toEqual([['n1', 99], ['u1', 1]]);
    const byColumn = await service.from('rest_fixture_counters').upsert({ name: 'u1', hits: 7 }, { onConflict: 'name' }).select('hits').single();
    expect(byColumn.data).toEqual({ hits: 7 });
  });

  it('ignores duplicates with ignoreDuplicates', async () => {
    const ignored = await service.from('rest_fixture_counters').upsert({ name: 'u1', hits: 1000 }, { ignoreDuplicates: true }).select();
    expect(ignored.error).toBeNull();
    expect(ignored.data).toEqual([]);
    const { data } = await service.from('rest_fixture_counters').select('hits').eq('name', 'u1').single();
    expect(data).toEqual({ hits: 7 });
  });
});

describe('update and delete', () => {
  it('updates own profile columns the role may update: 204, or 200 with select()', async () => {
    const minimal = await owner1.from('profiles').update({ phone: '+1 555 010 9999' }).eq('id', users.owner1);
    expect(minimal.status).toBe(204);
    const rep = await owner1.from('profiles').update({ full_name: 'Olivia G. Grocer' }).eq('id', users.owner1).select('full_name, phone');
    expect(rep.status).toBe(200);
    expect(rep.data).toEqual([{ full_name: 'Olivia G. Grocer', phone: '+1 555 010 9999' }]);
  });

  it('refuses to update a column without the UPDATE privilege (42501, nothing changes)', async () => {
    const { error, status } = await owner1.from('profiles').update({ business_name: 'Taken Over' }).eq('id', users.owner1);
    expect(status).toBe(403);
    expect(error?.code).toBe('42501');
    const { data } = await owner1.from('profiles').select('business_name').single();
    expect(data).toEqual({ business_name: 'Fresh Corner Market' });
  });

  it('cannot update another user\'s row (RLS: zero rows, no error)', async () => {
    const { data, error } = await owner2.from('profiles').update({ full_name: 'Hacked Name' }).eq('id', users.owner1).select();
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  it('counts updated rows and rolls back a single() that does not match one row', async () => {
    const counted = await service.from('rest_fixture_counters').update({ note: 'bulk' }, { count: 'exact' }).like('name', 'z*');
    expect(counted.count).toBe(2);
    const tooMany = await service.from('rest_fixture_counters').update({ note: 'oops' }).like('name', 'z*').select().single();
    expect(tooMany.status).toBe(406);
    const { data } = await service.from('rest_fixture_counters').select('note').like('name', 'z*');
    expect(data).toEqual([{ note: 'bulk' }, { note: 'bulk' }]);
  });

  it('refuses an update or delete without filters, as Supabase does', async () => {
    const update = await service.from('rest_fixture_counters').update({ note: 'all' });
    expect(update.status).toBe(400);
    expect(update.error?.code).toBe('21000');
    const del = await service.from('rest_fixture_counters').delete();
    expect(del.error?.code).toBe('21000');
  });

  it('deletes with 204, or 200 and the rows with select()', async () => {
    const minimal = await service.from('rest_fixture_counters').delete().eq('name', 'z1');
    expect(minimal.status).toBe(204);
    const rep = await service.from('rest_fixture_counters').delete().eq('name', 'z2').select('name');
    expect(rep.status).toBe(200);
    expect(rep.data).toEqual([{ name: 'z2' }]);
  });

  it('owners cannot delete tickets (no DELETE grant)', async () => {
    const { error } = await owner1.from('support_tickets').delete().eq('user_id', users.owner1);
    expect(error?.code).toBe('42501');
    const { count } = await owner1.from('support_tickets').select('*', { count: 'exact', head: true });
    expect(count).toBeGreaterThan(0);
  });

  it('undoes the work with Prefer: tx=rollback but still answers it', async () => {
    const res = await rawRest(stack, 'rest_fixture_counters?select=name', {
      method: 'POST',
      headers: { Prefer: 'return=representation,tx=rollback' },
      body: JSON.stringify({ name: 'ghost' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ name: 'ghost' }]);
    const { data } = await service.from('rest_fixture_counters').select('name').eq('name', 'ghost');
    expect(data).toEqual([]);
  });
});

describe('rpc', () => {
  it('choose_plan returns the plan row as one object; an unknown plan is P0001 400 with the hint', async () => {
    const { data, error } = await owner2.rpc('choose_plan', { _plan_name: 'Pro' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ user_id: users.owner2, plan_name: 'Pro', price: 99.99, status: 'trialing' });
    const bad = await owner2.rpc('choose_plan', { _plan_name: 'Gold' });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'P0001', message: 'unknown plan: Gold', hint: 'Choose Starter, Growth or Pro; Enterprise is sold by our sales team.' });
  });

  it('anon may not execute choose_plan (401) and unknown functions are 404 PGRST202', async () => {
    const anon = await anonClient(stack).rpc('choose_plan', { _plan_name: 'Pro' });
    expect(anon.status).toBe(401);
    expect(anon.error?.code).toBe('42501');
    const missing = await owner1.rpc('no_such_function', {});
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe('PGRST202');
    const wrongArgs = await owner1.rpc('choose_plan', { plan: 'Pro' });
    expect(wrongArgs.error?.code).toBe('PGRST202');
  });

  it('returns scalars, sets of scalars, rows, tables, json and void', async () => {
    expect((await owner1.rpc('is_admin', { _user_id: users.owner1 })).data).toBe(false);
    expect((await owner1.rpc('rest_fixture_add', { a: 1, b: 2 })).data).toBe(3);
    expect((await owner1.rpc('rest_fixture_add', { a: 1 })).data).toBe(11);
    expect((await owner1.rpc('rest_fixture_series', { n: 3 })).data).toEqual([1, 2, 3]);
    const rows = await owner1.rpc('rest_fixture_rows', { min_hits: 5 }).select('name').order('name');
    expect(rows.data).toEqual([{ name: 'd1' }, { name: 'n1' }, { name: 'u1' }]);
    const filtered = await owner1.rpc('rest_fixture_table', {}, { count: 'exact' }).gt('doubled', 20);
    expect(filtered.data).toEqual([{ label: 'n1', doubled: 198 }]);
    expect(filtered.count).toBe(1);
    const json = await owner1.rpc('rest_fixture_echo', { payload: { a: [1, 'x'] }, tags: ['p', 'q,r'] });
    expect(json.data).toEqual({ payload: { a: [1, 'x'] }, tags: ['p', 'q,r'] });
    const touched = await owner1.rpc('rest_fixture_touch', { _name: 'u1' });
    expect(touched.error).toBeNull();
    expect(touched.status).toBe(204);
    expect(touched.data).toBeNull();
    expect((await service.from('rest_fixture_counters').select('hits').eq('name', 'u1').single()).data).toEqual({ hits: 8 });
  });

  it('calls stable functions with GET and refuses volatile ones (read-only transaction, 405)', async () => {
    const get = await owner1.rpc('rest_fixture_add', { a: 4, b: 5 }, { get: true });
    expect(get.data).toBe(9);
    const volatile = await owner1.rpc('rest_fixture_touch', { _name: 'u1' }, { get: true });
    expect(volatile.status).toBe(405);
    expect(volatile.error?.code).toBe('25006');
  });
});
