/**
 * admin_billing_overview() over HTTP with supabase-js: its figures equal an independent SQL computation on the
 * seed plus a generated set with known totals, and only admins may call it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from './support/seed-ids';

let stack: StackHandle;
let admin: SupabaseClient;

interface Overview {
  mrr: number;
  at_risk_mrr: number;
  trial_mrr: number;
  paying_subscriptions: number;
  total_subscriptions: number;
  days: number;
  groups: { plan_name: string; status: string; billing_cycle: string; subscriptions: number; monthly_value: number }[];
  trials_ending_count: number;
  trials_ending: { user_id: string; plan_name: string; trial_ends_at: string }[];
}

/** Plans added on top of the seed: [plan, price, cycle, status, next billing in days from now]. */
const generated: [string, number, string, string, number][] = [
  ['Pro', 99.99, 'monthly', 'active', 20],
  ['Pro', 99.99, 'annual', 'past_due', -3],
  ['Starter', 9.99, 'monthly', 'trialing', 1],
  ['Growth', 29.99, 'annual', 'trialing', 6.5],
  ['Growth', 29.99, 'annual', 'trialing', 8], // ends after the 7-day window
  ['Starter', 9.99, 'annual', 'trialing', -1], // already ended, not "ending"
  ['Enterprise', 500, 'annual', 'canceled', 10],
  ['Starter', 9.99, 'monthly', 'expired', -30],
];

const genId = (i: number) => `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`;

async function signIn(email: string, password: string): Promise<SupabaseClient> {
  const client = createTestClient(stack);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(error.message);
  return client;
}

async function overview(client: SupabaseClient, days?: number) {
  return client.rpc('admin_billing_overview', days === undefined ? {} : { _days: days });
}

beforeAll(async () => {
  stack = await startStack();
  for (const [i, [plan, price, cycle, status, days]] of generated.entries()) {
    await stack.db.query(
      `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
               '{"provider":"email","providers":["email"]}', '{"full_name":"Billing Test"}', now(), now())`,
      [genId(i), `billing${i}@storewise.test`],
    );
    await stack.db.query(
      `insert into public.user_plans (user_id, plan_name, price, billing_cycle, status, next_billing_date)
       values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::float8 * 86400))`,
      [genId(i), plan, price, cycle, status, days],
    );
  }
  admin = await signIn(seedUsers.admin.email, seedUsers.admin.password);
});

afterAll(async () => {
  await stack?.stop();
});

describe('admin_billing_overview', () => {
  it('gives the known totals of the seed plus the generated plans', async () => {
    const { data, error } = await overview(admin);
    expect(error).toBeNull();
    const o = data as Overview;
    // Seed: owner1 Growth 29.99 active; owner2 Starter 9.99 trialing, ends in 5 days.
    // Prices are per month for both cycles: MRR = 29.99 (owner1) + 99.99 (active) + 99.99 (past_due).
    expect(o.mrr).toBeCloseTo(229.97, 2);
    expect(o.at_risk_mrr).toBeCloseTo(99.99, 2);
    expect(o.trial_mrr).toBeCloseTo(9.99 + 9.99 + 29.99 + 29.99 + 9.99, 2);
    expect(o.paying_subscriptions).toBe(3);
    expect(o.total_subscriptions).toBe(10);
    expect(o.days).toBe(7);
    // Ending within 7 days: generated #2 (1 day), owner2 (5 days), generated #3 (6.5 days), soonest first.
    expect(o.trials_ending_count).toBe(3);
    expect(o.trials_ending.map((t) => t.user_id)).toEqual([genId(2), seedUsers.owner2.id, genId(3)]);
  });

  it('equals an independent SQL computation', async () => {
    const o = (await overview(admin)).data as Overview;
    const { rows: groups } = await stack.db.query<Record<string, unknown>>(
      `select plan_name, status, billing_cycle, count(*)::int as subscriptions, sum(price)::float8 as monthly_value
         from public.user_plans group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(o.groups.map((g) => ({ ...g, monthly_value: Number(g.monthly_value) }))).toEqual(groups);
    const { rows: [sums] = [] } = await stack.db.query<{ mrr: number; ending: number }>(
      `select (select sum(price) from public.user_plans where status in ('active', 'past_due'))::float8 as mrr,
              (select count(*) from public.user_plans where status = 'trialing'
                  and next_billing_date between now() and now() + interval '7 days')::int as ending`,
    );
    expect(Number(o.mrr)).toBeCloseTo(Number(sums?.mrr), 2);
    expect(o.trials_ending_count).toBe(sums?.ending);
  });

  it('widens the trial window on request and clamps it to 1..90 days', async () => {
    expect(((await overview(admin, 30)).data as Overview).trials_ending_count).toBe(4);
    expect(((await overview(admin, 100000)).data as Overview).days).toBe(90);
    expect(((await overview(admin, -5)).data as Overview).days).toBe(1);
  });

  it('refuses a signed-in shop owner with 42501', async () => {
    const owner = await signIn(seedUsers.owner1.email, seedUsers.owner1.password);
    const { data, error } = await overview(owner);
    expect(data).toBeNull();
    expect(error?.code).toBe('42501');
  });

  it('refuses the anonymous key', async () => {
    const { data, error } = await overview(createTestClient(stack));
    expect(data).toBeNull();
    expect(error).not.toBeNull();
  });
});
