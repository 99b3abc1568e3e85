import { describe, expect, it } from 'vitest';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { fetchShopPlan } from './shop-plan';

const ws = (id: string, role: string, plan: string, suspended_at: string | null = null) =>
  ({ id, name: `Shop ${id}`, role, plan, suspended_at });
const client = (rows: unknown[]) => ({ rpc: async () => ({ data: rows, error: null }) }) as unknown as StorewiseClient;

describe('the plan staff see', () => {
  it('is the shop\'s plan for a member who owns no business, and none for an owner in their own business', async () => {
    expect(await fetchShopPlan(client([ws('a', 'cashier', 'Growth')]), 'u', null)).toEqual({ business: 'Shop a', plan: 'Growth', role: 'cashier' });
    expect(await fetchShopPlan(client([ws('own', 'owner', 'Free'), ws('a', 'manager', 'Growth')]), 'u', null)).toBeNull();
  });

  it('follows the workspace chosen on this device, skipping a suspended one', async () => {
    const list = [ws('own', 'owner', 'Free'), ws('a', 'manager', 'Pro'), ws('b', 'cashier', 'Starter', '2026-11-30T00:00:00Z')];
    expect(await fetchShopPlan(client(list), 'u', 'a')).toEqual({ business: 'Shop a', plan: 'Pro', role: 'manager' });
    expect(await fetchShopPlan(client(list), 'u', 'b')).toBeNull();
    expect(await fetchShopPlan(client([]), 'u', null)).toBeNull();
  });
});
