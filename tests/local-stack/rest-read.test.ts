/**
 * Data API reads through the official supabase-js over HTTP on the seeded schema: filters, select,
 * order, ranges, counts, HEAD, single/maybeSingle, and row level security deciding what each role sees.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type StackHandle } from '../helpers/stack';
import { anonClient, rawRest, serviceClient, userClient, users } from './rest-test-clients';

let stack: StackHandle;
let owner1: SupabaseClient;
let admin: SupabaseClient;
let service: SupabaseClient;

beforeAll(async () => {
  stack = await startStack();
  owner1 = await userClient(stack, users.owner1);
  admin = await userClient(stack, users.admin);
  service = serviceClient(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('select and filters', () => {
  it('returns only the caller\'s own rows (RLS) with PostgREST types', async () => {
    const { data, error, status } = await owner1.from('billing_history').select('*');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toHaveLength(6);
    for (const row of data ?? []) {
      expect(row.user_id).toBe(users.owner1);
      expect(typeof row.amount).toBe('number');
      expect(row.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/);
    }
  });

  it('selects columns with aliases and casts', async () => {
    const { data, error } = await owner1.from('user_plans').select('plan:plan_name, price, price_text:price::text').single();
    expect(error).toBeNull();
    expect(Object.keys(data ?? {}).sort()).toEqual(['plan', 'price', 'price_text']);
    expect(data?.price_text).toBe(String(data?.price.toFixed(2)));
  });

  it('applies eq, neq, gt, gte, lt, lte', async () => {
    const all = (await owner1.from('billing_history').select('amount')).data?.map((r) => r.amount as number) ?? [];
    const pivot = [...all].sort((a, b) => a - b)[2] as number;
    const count = async (q: PromiseLike<{ data: unknown[] | null }>) => (await q).data?.length;
    expect(await count(owner1.from('billing_history').select('amount').eq('amount', pivot))).toBe(all.filter((a) => a === pivot).length);
    expect(await count(owner1.from('billing_history').select('amount').neq('amount', pivot))).toBe(all.filter((a) => a !== pivot).length);
    expect(await count(owner1.from('billing_history').select('amount').gt('amount', pivot))).toBe(all.filter((a) => a > pivot).length);
    expect(await count(owner1.from('billing_history').select('amount').gte('amount', pivot))).toBe(all.filter((a) => a >= pivot).length);
    expect(await count(owner1.from('billing_history').select('amount').lt('amount', pivot))).toBe(all.filter((a) => a < pivot).length);
    expect(await count(owner1.from('billing_history').select('amount').lte('amount', pivot))).toBe(all.filter((a) => a <= pivot).length);
  });

  it('applies like/ilike with * wildcards, is, in and not', async () => {
    const ilike = await admin.from('profiles').select('full_name').ilike('full_name', '*GROCER*');
    expect(ilike.data).toEqual([{ full_name: 'Olivia Grocer' }]);
    const like = await admin.from('profiles').select('full_name').like('full_name', 'M%');
    expect(like.data).toEqual([{ full_name: 'Marco Tailor' }]);
    const isNull = await owner1.from('active_sessions').select('id').is('location', null);
    const notNull = await owner1.from('active_sessions').select('id').not('location', 'is', null);
    const total = await owner1.from('active_sessions').select('id');
    expect((isNull.data?.length ?? 0) + (notNull.data?.length ?? 0)).toBe(total.data?.length);
    const isTrue = await owner1.from('user_plans').select('auto_renew').is('auto_renew', true);
    expect(isTrue.data).toEqual([{ auto_renew: true }]);
    const inList = await admin.from('profiles').select('business_type').in('business_type', ['Grocery', 'Clothing', 'a,b (c)']).order('business_type');
    expect(inList.data).toEqual([{ business_type: 'Clothing' }, { business_type: 'Grocery' }]);
    const notIn = await admin.from('profiles').select('business_type').not('business_type', 'in', '(Grocery,Clothing)').order('business_type');
    expect(notIn.data?.map((r) => r.business_type)).toEqual(['Electronics', 'Medical', 'Medical', 'Others']);
  });

  it('applies or() with nested and()', async () => {
    const { data, error } = await admin
      .from('profiles')
      .select('full_name')
      .or('full_name.ilike.*olivia*,and(business_type.eq.Clothing,full_name.like.Marco*)')
      .order('full_name');
    expect(error).toBeNull();
    expect(data).toEqual([{ full_name: 'Marco Tailor' }, { full_name: 'Olivia Grocer' }]);
  });
});

describe('order, ranges and counts', () => {
  it('orders by several columns with nulls placement', async () => {
    const { data } = await admin.from('profiles').select('business_type, full_name').order('business_type', { ascending: false, nullsFirst: false }).order('full_name');
    const types = data?.map((r) => r.business_type) ?? [];
    // Staff who joined by invitation have no business type (supabase/seed.sql): they come last (nullsFirst: false).
    const nulls = types.filter((t) => t === null);
    expect(nulls.length).toBeGreaterThan(0);
    expect(types).toEqual([...types.filter((t) => t !== null).sort().reverse(), ...nulls]);
  });

  it('pages with range() and reports count=exact in Content-Range with 206', async () => {
    const page = await owner1.from('billing_history').select('id, date', { count: 'exact' }).order('date', { ascending: false }).range(1, 2);
    expect(page.error).toBeNull();
    expect(page.status).toBe(206);
    expect(page.count).toBe(6);
    expect(page.data).toHaveLength(2);
    const all = await owner1.from('billing_history').select('id').order('date', { ascending: false });
    expect(page.data?.map((r) => r.id)).toEqual(all.data?.slice(1, 3).map((r) => r.id));
    const full = await owner1.from('billing_history').select('id', { count: 'planned' });
    expect(full.status).toBe(200);
    expect(full.count).toBe(6);
  });

  it('honours limit, offset and the Range header', async () => {
    const limited = await owner1.from('billing_history').select('id').limit(4);
    expect(limited.data).toHaveLength(4);
    const res = await rawRest(stack, 'billing_history?select=id&order=date', { headers: { Range: '2-3', 'Range-Unit': 'items', Prefer: 'count=exact' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('2-3/9');
    expect(await res.json()).toHaveLength(2);
  });

  it('answers HEAD with a count and no body', async () => {
    const { data, count, error, status } = await admin.from('support_tickets').select('*', { count: 'exact', head: true }).eq('status', 'open');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toBeNull();
    expect(count).toBe(2);
  });
});

describe('single and maybeSingle', () => {
  it('single() returns one object, or 406 PGRST116 with the row count', async () => {
    const one = await owner1.from('profiles').select('full_name').single();
    expect(one.data).toEqual({ full_name: 'Olivia Grocer' });
    const many = await owner1.from('billing_history').select('id').single();
    expect(many.status).toBe(406);
    expect(many.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 6 rows' });
    const none = await owner1.from('billing_history').select('id').eq('status', 'nope-nothing').single();
    expect(none.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows' });
  });

  it('maybeSingle() returns null for no row and the object for one', async () => {
    const none = await owner1.from('user_plans').select('plan_name').eq('plan_name', 'Enterprise').maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
    const one = await owner1.from('user_plans').select('plan_name').maybeSingle();
    expect(one.data).toEqual({ plan_name: 'Growth' });
  });
});

describe('roles', () => {
  it('anon is refused with 401 and a PostgREST error body', async () => {
    const { error, status } = await anonClient(stack).from('profiles').select('*');
    expect(status).toBe(401);
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table profiles' });
  });

  it('the service role reads everything (it bypasses RLS)', async () => {
    const { count } = await service.from('profiles').select('*', { count: 'exact', head: true });
    expect(count).toBe(8); // the admin, five owners, owner1's manager and cashier (supabase/seed.sql)
  });

  it('another owner sees none of owner1\'s tickets', async () => {
    const owner3 = await userClient(stack, users.owner3);
    const { data } = await owner3.from('support_tickets').select('id').eq('user_id', users.owner1);
    expect(data).toEqual([]);
  });
});
