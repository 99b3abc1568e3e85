/**
 * The summary tables of ADR 0162 (stock_movements_daily, inventory_value, shift_totals) cell by cell over HTTP with
 * supabase-js: owners read every store of their business, a manager of Downtown only Downtown, a cashier, another
 * business's owner, the platform admin and anon nothing of business A (the rows carry cost); nobody inserts,
 * updates or deletes through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, who, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

// A narrow read under the data API's 1,000-row cap: the movements of the last two weeks, every valuation row.
const tables = [
  { table: 'stock_movements_daily', filter: `and day >= current_date - 14`, recent: true },
  { table: 'inventory_value', filter: '', recent: false },
  { table: 'shift_totals', filter: '', recent: false },
] as const;

describe.each(tables)('$table', ({ table, filter, recent }) => {
  const read = async (name: keyof CatalogWorld['clients']) => {
    const query = w.clients[name].from(table).select('business_id, store_id').eq('business_id', w.businessA);
    const since = (await w.rows<{ d: string }>(`select (current_date - 14)::text as d`))[0]?.d ?? '';
    return recent ? query.gte('day', since) : query;
  };

  it('owners read every store, a Downtown manager Downtown only', async () => {
    const all = await w.rows<{ store_id: string }>(
      `select store_id from public.${table} where business_id = $1 ${filter}`, [w.businessA]);
    expect(new Set(all.map((r) => r.store_id))).toEqual(new Set([downtown, riverside]));
    const owner = await read('owner');
    expect(owner.error).toBeNull();
    expect(owner.data).toHaveLength(all.length);
    const manager = await read('manager');
    expect(manager.error).toBeNull();
    expect((manager.data ?? []).length).toBeGreaterThan(0);
    expect(new Set((manager.data ?? []).map((r) => r.store_id))).toEqual(new Set([downtown]));
  });

  it.each(['cashier', 'other', 'admin'] as const)('%s reads nothing of business A', async (name) => {
    const result = await read(name);
    expect(result.error).toBeNull();
    expect(result.data).toEqual([]);
  });

  it('anon is refused', async () => {
    expect((await w.actors.anon.select(table)).error?.code).toBe('42501');
  });

  it.each(who)('%s cannot insert, update or delete', async (name) => {
    const snapshot = () => w.rows(`select * from public.${table} where business_id = $1 order by 1, 2, 3`, [w.businessA]);
    const before = await snapshot();
    const shift = (await w.rows<{ id: string }>('select id from public.shifts where business_id = $1 limit 1', [w.businessA]))[0]?.id;
    const inserted = await w.actors[name].insert(table, table === 'inventory_value'
      ? { business_id: w.businessA, store_id: downtown, category_id: '00000000-0000-0000-0000-000000000001', units: 1 }
      : table === 'shift_totals' ? { business_id: w.businessA, store_id: downtown, shift_id: shift, gross: 1 }
        : { business_id: w.businessA, store_id: downtown, day: '2020-01-01', kind: 'receive', movements: 1 });
    expect(inserted.error?.code).toBe('42501');
    await w.clients[name].from(table).update(table === 'inventory_value' ? { variants: 99 } : table === 'shift_totals' ? { gross: 99 } : { movements: 99 })
      .eq('business_id', w.businessA);
    await w.clients[name].from(table).delete().eq('business_id', w.businessA);
    expect(await snapshot()).toEqual(before);
  });
});
