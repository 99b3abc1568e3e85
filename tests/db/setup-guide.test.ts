/**
 * The Overview's setup guide (issue 25): setup_progress ticks each first-day step from the database, the sample
 * catalog of the business's type is added once and counts against the plan, and only the owner sees or hides it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

let stack: StackHandle;
let owner3: SupabaseClient;
let owner1: SupabaseClient;
let business3 = '';

async function signIn(email: string): Promise<SupabaseClient> {
  const client = createTestClient(stack);
  const { error } = await client.auth.signInWithPassword({ email, password: 'storewise-owner' });
  if (error) throw new Error(error.message);
  return client;
}

beforeAll(async () => {
  stack = await startStack();
  owner3 = await signIn('owner3@storewise.local');
  owner1 = await signIn('owner1@storewise.local');
  const { data } = await owner3.rpc('my_workspaces');
  business3 = (data as { id: string; role: string }[]).find((w) => w.role === 'owner')?.id ?? '';
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const progress = async () => (await owner3.rpc('setup_progress', { _business_id: business3 })).data as Record<string, unknown>;

describe('setup_progress', () => {
  it('starts with nothing done for a new pharmacy, and only its owner may read it', async () => {
    expect(await progress()).toMatchObject({ business_type: 'Medical', dismissed: false, store: false, register: false,
      products: false, team: false, sale: false });
    expect((await owner1.rpc('setup_progress', { _business_id: business3 })).error?.code).toBe('42501');
  });

  it('ticks products when the sample catalog of the business type is added, once', async () => {
    const added = await owner3.rpc('add_sample_catalog', { _business_id: business3 });
    expect(added.error).toBeNull();
    expect(added.data).toBe(8);
    const names = await stack.db.query<{ name: string }>(
      `select p.name from public.products p where p.business_id = $1 order by p.name`, [business3]);
    expect(names.rows.map((r) => r.name)).toContain('Paracetamol 500 mg, 16 tablets');
    expect(await progress()).toMatchObject({ products: true });
    expect((await owner3.rpc('add_sample_catalog', { _business_id: business3 })).error?.code).toBe('23505');
    expect((await owner1.rpc('add_sample_catalog', { _business_id: business3 })).error?.code).toBe('42501');
    // The trail records each sample product, as any product added by hand.
    const trail = await stack.db.query<{ n: number }>(
      `select count(*)::int as n from public.activity where business_id = $1 and kind like 'product.%'`, [business3]);
    expect(trail.rows[0]?.n).toBeGreaterThanOrEqual(8);
  });

  it('ticks the store once one is created, and hides when the owner dismisses it', async () => {
    const store = await owner3.from('stores').insert({ business_id: business3, name: 'CarePlus Main Street', time_zone: 'UTC',
      currency: 'USD' }).select('id').single();
    expect(store.error).toBeNull();
    expect(await progress()).toMatchObject({ store: true, register: false });
    expect((await owner3.rpc('dismiss_setup', { _business_id: business3 })).error).toBeNull();
    expect(await progress()).toMatchObject({ dismissed: true });
    expect((await owner3.rpc('dismiss_setup', { _business_id: business3, _dismissed: false })).error).toBeNull();
    expect(await progress()).toMatchObject({ dismissed: false });
  });
});
