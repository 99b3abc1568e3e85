/**
 * The sales summary tables (ADR 0143) cell by cell over HTTP with supabase-js: owners read every store of their
 * business, a manager of Downtown only Downtown, a cashier, another business's owner, the platform admin and anon
 * nothing of business A (the rows carry cost); nobody inserts, updates or deletes through the API. The monthly
 * rollups of ADR 0151 likewise, except that the all-stores table is read only by members of every store.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, who, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let since: string;
const tables = ['sales_daily', 'sales_daily_tax', 'sales_daily_variant', 'sales_daily_breakdown'] as const;

beforeAll(async () => {
  w = await startCatalogWorld();
  // The last week of the demo history: under the data API's 1,000-row cap for every table.
  since = (await w.rows<{ d: string }>(`select (current_date - 7)::text as d`))[0]?.d ?? '';
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const read = async (client: SupabaseClient, table: string) =>
  client.from(table).select('business_id, store_id, day').eq('business_id', w.businessA).gte('day', since);

describe.each(tables)('%s', (table) => {
  it('has rows of business A in both stores (the matrix is not vacuous)', async () => {
    const rows = await w.rows<{ store_id: string }>(
      `select distinct store_id from public.${table} where business_id = $1 and day >= $2`, [w.businessA, since]);
    expect(new Set(rows.map((r) => r.store_id))).toEqual(new Set([downtown, riverside]));
  });

  it('owners read every store, a Downtown manager Downtown only', async () => {
    const all = await w.rows<{ n: number }>(
      `select count(*)::int as n from public.${table} where business_id = $1 and day >= $2`, [w.businessA, since]);
    const owner = await read(w.clients.owner, table);
    expect(owner.error).toBeNull();
    expect(owner.data).toHaveLength(all[0]?.n ?? -1);
    const manager = await read(w.clients.manager, table);
    expect(manager.error).toBeNull();
    expect((manager.data ?? []).length).toBeGreaterThan(0);
    expect(new Set((manager.data ?? []).map((r) => r.store_id))).toEqual(new Set([downtown]));
  });

  it.each(['cashier', 'other', 'admin'] as const)('%s reads nothing of business A', async (name) => {
    const result = await read(w.clients[name], table);
    expect(result.error).toBeNull();
    expect(result.data).toEqual([]);
  });

  it('anon is refused', async () => {
    expect((await w.actors.anon.select(table)).error?.code).toBe('42501');
  });

  it.each(who)('%s cannot insert, update or delete', async (name) => {
    const snapshot = () => w.rows(`select * from public.${table} where business_id = $1 order by 1, 2, 3`, [w.businessA]);
    const before = await snapshot();
    const inserted = await w.actors[name].insert(table, { business_id: w.businessA, store_id: downtown, day: '2020-01-01',
      ...(table === 'sales_daily_tax' ? { tax_rate: 1 } : {}),
      ...(table === 'sales_daily_variant' ? { variant_id: w.f.variant, description: 'Planted' } : {}) });
    expect(inserted.error?.code).toBe('42501');
    await w.clients[name].from(table).update({ business_id: w.businessB }).eq('business_id', w.businessA);
    await w.clients[name].from(table).delete().eq('business_id', w.businessA);
    expect(await snapshot()).toEqual(before);
  });
});

// The monthly rollups of ADR 0151: the per-store table as the daily ones; the all-stores table only for members
// who may use every store (a Downtown-only manager reads none of it, since it cannot be split by store).
describe.each(['sales_monthly_variant', 'sales_monthly_variant_business'] as const)('%s', (table) => {
  let sinceMonth: string;
  const readMonthly = async (client: SupabaseClient) =>
    client.from(table).select('business_id, month, variant_id').eq('business_id', w.businessA).gte('month', sinceMonth);
  beforeAll(async () => {
    sinceMonth = (await w.rows<{ m: string }>(`select date_trunc('month', current_date - 7)::date::text as m`))[0]?.m ?? '';
  });

  it('owners read every row of their business; a Downtown manager Downtown only, or nothing of the all-stores table', async () => {
    const all = await w.rows<{ n: number }>(
      `select count(*)::int as n from public.${table} where business_id = $1 and month >= $2`, [w.businessA, sinceMonth]);
    expect(all[0]?.n).toBeGreaterThan(0);
    const owner = await readMonthly(w.clients.owner);
    expect(owner.error).toBeNull();
    expect(owner.data).toHaveLength(all[0]?.n ?? -1);
    if (table === 'sales_monthly_variant') {
      const manager = await w.clients.manager.from(table).select('store_id').eq('business_id', w.businessA).gte('month', sinceMonth);
      expect(manager.error).toBeNull();
      expect((manager.data ?? []).length).toBeGreaterThan(0);
      expect(new Set((manager.data ?? []).map((r) => r.store_id))).toEqual(new Set([downtown]));
    } else {
      const manager = await readMonthly(w.clients.manager);
      expect(manager.error).toBeNull();
      expect(manager.data).toEqual([]);
    }
  });

  it.each(['cashier', 'other', 'admin'] as const)('%s reads nothing of business A', async (name) => {
    const result = await readMonthly(w.clients[name]);
    expect(result.error).toBeNull();
    expect(result.data).toEqual([]);
  });

  it('anon is refused', async () => {
    expect((await w.actors.anon.select(table)).error?.code).toBe('42501');
  });

  it.each(who)('%s cannot insert, update or delete', async (name) => {
    const snapshot = () => w.rows(`select * from public.${table} where business_id = $1 order by 1, 2, 3`, [w.businessA]);
    const before = await snapshot();
    const inserted = await w.actors[name].insert(table, { business_id: w.businessA, month: '2020-01-01', variant_id: w.f.variant,
      ...(table === 'sales_monthly_variant' ? { store_id: downtown } : {}) });
    expect(inserted.error?.code).toBe('42501');
    await w.clients[name].from(table).update({ revenue: 1 }).eq('business_id', w.businessA);
    await w.clients[name].from(table).delete().eq('business_id', w.businessA);
    expect(await snapshot()).toEqual(before);
  });
});
