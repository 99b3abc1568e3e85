/**
 * The point of sale's tables cell by cell over HTTP with supabase-js: each table x (select, insert, update,
 * delete) x (anon, owner, manager of Downtown, cashier of Downtown, owner of another business, platform admin).
 * Owners and managers read sales, shifts, cash and refunds of the stores they may use; a cashier only their own
 * shifts and what was rung in them (ADR 0171); costs and approvals only owners and managers; customers are the one
 * table written through the API (members create, owners and managers edit and delete); everything else is written
 * only by the functions.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, who, type CatalogWorld, type Who } from './support/catalog-world';

let w: CatalogWorld;

const tables = ['shifts', 'cash_movements', 'customers', 'pos_approvals', 'sales', 'sale_lines', 'sale_line_costs',
  'sale_tenders', 'refunds', 'refund_lines'] as const;
type Table = (typeof tables)[number];

// ownShift: a cashier reads only rows of their own shifts (or sales they rang), as SQL on the row t.
const readers: Record<Table, { roles: Who[]; scope: 'business' | 'store'; ownShift?: string }> = {
  shifts: { roles: ['owner', 'manager', 'cashier'], scope: 'store', ownShift: 't.cashier_id' },
  cash_movements: { roles: ['owner', 'manager', 'cashier'], scope: 'store',
    ownShift: '(select s.cashier_id from public.shifts s where s.id = t.shift_id)' },
  customers: { roles: ['owner', 'manager', 'cashier'], scope: 'business' },
  pos_approvals: { roles: ['owner', 'manager'], scope: 'store' },
  sales: { roles: ['owner', 'manager', 'cashier'], scope: 'store', ownShift: 't.cashier_id' },
  sale_lines: { roles: ['owner', 'manager', 'cashier'], scope: 'store',
    ownShift: '(select x.cashier_id from public.sales x where x.id = t.sale_id)' },
  sale_line_costs: { roles: ['owner', 'manager'], scope: 'store' },
  sale_tenders: { roles: ['owner', 'manager', 'cashier'], scope: 'store',
    ownShift: '(select x.cashier_id from public.sales x where x.id = t.sale_id)' },
  refunds: { roles: ['owner', 'manager', 'cashier'], scope: 'store',
    ownShift: '(select s.cashier_id from public.shifts s where s.id = t.shift_id)' },
  refund_lines: { roles: ['owner', 'manager', 'cashier'], scope: 'store',
    ownShift: '(select s.cashier_id from public.refunds f join public.shifts s on s.id = f.shift_id where f.id = t.refund_id)' },
};

async function must<T>(promise: PromiseLike<{ data: T; error: { message: string } | null }>): Promise<T> {
  const { data, error } = await promise;
  if (error) throw new Error(error.message);
  return data;
}

/** A shift, a sale, a refund, cash out and an approval in each store, through the functions, as the owner. */
async function trade(owner: SupabaseClient, store: string, prefix: string) {
  const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>('select id from public.registers where receipt_prefix = $1', [prefix]);
  const shift = await must(owner.rpc('open_shift', { _register_id: register, _opening_float: 5000 })) as { id: string };
  const sale = await must(owner.rpc('post_sale', { _payload: {
    id: randomUUID(), register_id: register, shift_id: shift.id,
    lines: [{ variant_id: w.f.variant, qty: 1 }], tenders: [{ kind: 'cash', amount: 1524, tendered: 2000 }],
  } })) as { id: string; lines: { id: string }[] };
  await must(owner.rpc('post_refund', { _payload: {
    id: randomUUID(), sale_id: sale.id, shift_id: shift.id, lines: [{ sale_line_id: sale.lines[0]?.id, qty: 1 }],
  } }));
  await must(owner.rpc('cash_in_out', { _shift_id: shift.id, _kind: 'out', _amount: 100, _reason: 'Change run' }));
  await must(owner.rpc('approve_discount', { _store_id: store, _max_discount_percent: 20 }));
}

/** The cashier's own shift at Downtown: a sale, a refund a manager approved and cash out (what the cashier reads). */
async function tradeAsCashier() {
  const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>('select id from public.registers where receipt_prefix = $1', ['DT2']);
  const cashier = w.clients.cashier;
  const shift = await must(cashier.rpc('open_shift', { _register_id: register, _opening_float: 5000 })) as { id: string };
  const sale = await must(cashier.rpc('post_sale', { _payload: {
    id: randomUUID(), register_id: register, shift_id: shift.id,
    lines: [{ variant_id: w.f.variant, qty: 2 }], tenders: [{ kind: 'cash', amount: 3049, tendered: 3049 }],
  } })) as { id: string; lines: { id: string }[] };
  const approval = await must(w.clients.manager.rpc('approve_discount', { _store_id: downtown, _max_discount_percent: 0, _purpose: 'refund' }));
  await must(cashier.rpc('post_refund', { _payload: {
    id: randomUUID(), sale_id: sale.id, shift_id: shift.id, approval_id: approval, lines: [{ sale_line_id: sale.lines[0]?.id, qty: 1 }],
  } }));
  await must(cashier.rpc('cash_in_out', { _shift_id: shift.id, _kind: 'out', _amount: 100, _reason: 'Change run' }));
}

beforeAll(async () => {
  w = await startCatalogWorld();
  // The demo history (over 1,000 sale lines) would be cut by max_rows; the matrix compares complete reads.
  await w.rows('delete from public.sales where business_id = $1', [w.businessA]);
  await w.rows('delete from public.shifts where business_id = $1', [w.businessA]);
  await trade(w.clients.owner, downtown, 'DT1');
  await trade(w.clients.owner, riverside, 'RS1');
  await tradeAsCashier();
  await w.rows(`insert into public.customers (business_id, name, phone) values ($1, 'Matrix Customer', '+1 555 010 9999')`, [w.businessA]);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const keyOf = (table: Table, row: Record<string, unknown>) => String(table === 'sale_line_costs' ? row.sale_line_id : row.id);

async function rowsOfA(table: Table): Promise<Record<string, unknown>[]> {
  const store = table === 'refund_lines'
    ? '(select f.store_id from public.refunds f where f.id = t.refund_id)'
    : table === 'customers' ? 'null::uuid' : 't.store_id';
  const own = readers[table].ownShift ?? 'null::uuid';
  const found = await w.rows<{ r: Record<string, unknown>; store: string | null; own: string | null }>(
    `select to_jsonb(t) as r, ${store} as store, ${own} as own from public.${table} t where t.business_id = $1`, [w.businessA]);
  return found.map(({ r, store: s, own: o }) => ({ ...r, __store: s, __own: o }));
}

async function expectedRead(table: Table, name: Who): Promise<string[]> {
  const rule = readers[table];
  if (!rule.roles.includes(name)) return [];
  const all = await rowsOfA(table);
  const mine = name === 'owner' || rule.scope === 'business' ? all : all.filter((row) => row.__store === downtown);
  const seen = name === 'cashier' && rule.ownShift ? mine.filter((row) => row.__own === w.userIds.cashier) : mine;
  return seen.map((row) => keyOf(table, row)).sort();
}

describe.each(tables)('%s', (table) => {
  it('has rows of business A in both stores (the matrix is not vacuous)', async () => {
    const all = await rowsOfA(table);
    expect(all.length).toBeGreaterThan(0);
    if (readers[table].scope === 'store') expect(new Set(all.map((row) => row.__store))).toEqual(new Set([downtown, riverside]));
    // Rows of the cashier's own shift and of others' at Downtown: the cashier's share is neither all nor nothing.
    if (readers[table].ownShift) {
      const downtownRows = all.filter((row) => row.__store === downtown);
      expect(downtownRows.some((row) => row.__own === w.userIds.cashier)).toBe(true);
      expect(downtownRows.some((row) => row.__own !== w.userIds.cashier)).toBe(true);
    }
  });

  it('anon is refused', async () => {
    expect((await w.actors.anon.select(table)).error?.code).toBe('42501');
  });

  it.each(who.filter((name) => name !== 'anon'))('%s reads exactly its share of business A', async (name) => {
    const result = await w.actors[name].select(table);
    expect(result.error).toBeNull();
    const ofA = result.rows.filter((row) => row.business_id === w.businessA);
    expect(ofA.map((row) => keyOf(table, row)).sort()).toEqual(await expectedRead(table, name));
  });

  it.each(who)('%s cannot update or delete what it may not', async (name) => {
    if (table === 'customers' && (name === 'owner' || name === 'manager')) return; // the write tests below
    const before = await rowsOfA(table);
    const patch: Record<string, unknown> = table === 'customers' ? { name: 'Renamed' }
      : table === 'sales' ? { total: 1 } : table === 'shifts' ? { opening_float: 1 } : { business_id: w.businessB };
    await w.clients[name].from(table).update(patch).match({ business_id: w.businessA });
    await w.clients[name].from(table).delete().match({ business_id: w.businessA });
    expect(await rowsOfA(table)).toEqual(before);
  });

  it.each(who)('%s inserts only where allowed', async (name) => {
    const row: Record<string, unknown> = table === 'customers'
      ? { business_id: w.businessA, name: `Walk-in ${name}` }
      : table === 'refund_lines' ? { business_id: w.businessA, id: randomUUID() }
        : table === 'sale_line_costs' ? { business_id: w.businessA, store_id: downtown, sale_line_id: randomUUID(), unit_cost: 1 }
          : { business_id: w.businessA, store_id: downtown, id: randomUUID() };
    const result = await w.actors[name].insert(table, row);
    if (table === 'customers' && ['owner', 'manager', 'cashier'].includes(name)) {
      expect(result.error).toBeNull();
      expect(result.rows).toHaveLength(1);
    } else {
      expect(result.error?.code).toBe('42501');
    }
  });
});

describe('customers', () => {
  it('owners and managers edit and delete; a cashier and another business cannot', async () => {
    const [{ id } = { id: '' }] = await w.rows<{ id: string }>(
      `insert into public.customers (business_id, name) values ($1, 'Edit Me') returning id`, [w.businessA]);
    const name = async () => (await w.rows<{ name: string }>('select name from public.customers where id = $1', [id]))[0]?.name;
    await w.clients.cashier.from('customers').update({ name: 'Cashier edit' }).eq('id', id);
    await w.clients.other.from('customers').update({ name: 'Other edit' }).eq('id', id);
    expect(await name()).toBe('Edit Me');
    expect((await w.clients.manager.from('customers').update({ name: 'Manager edit' }).eq('id', id).select('id')).data).toHaveLength(1);
    expect(await name()).toBe('Manager edit');
    // Another business cannot create a customer in business A.
    expect((await w.actors.other.insert('customers', { business_id: w.businessA, name: 'Planted' })).error?.code).toBe('42501');
    await w.clients.cashier.from('customers').delete().eq('id', id);
    expect(await name()).toBe('Manager edit');
    expect((await w.clients.owner.from('customers').delete().eq('id', id).select('id')).data).toHaveLength(1);
    expect(await name()).toBeUndefined();
  });
});

describe('functions', () => {
  it.each(['open_shift', 'post_sale', 'post_refund', 'close_shift', 'x_report', 'approve_discount', 'pos_outbox_review'])(
    'anon cannot call %s', async (fn) => {
      const { error } = await w.clients.anon.rpc(fn, {});
      expect(error).not.toBeNull();
      expect(['42501', 'PGRST202']).toContain(error?.code);
    });

  it('a manager of Downtown cannot open a shift, approve or report in Riverside', async () => {
    const [{ id: rs1 } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'RS1'`, []);
    const [{ id: shift } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.shifts where store_id = $1`, [riverside]);
    expect((await w.clients.manager.rpc('open_shift', { _register_id: rs1 })).error?.code).toBe('42501');
    expect((await w.clients.manager.rpc('approve_discount', { _store_id: riverside })).error?.code).toBe('42501');
    expect((await w.clients.manager.rpc('x_report', { _shift_id: shift })).error?.code).toBe('42501');
    expect((await w.clients.cashier.rpc('close_shift', { _shift_id: shift, _counted: {} })).error?.code).toBe('42501');
    expect((await w.clients.other.rpc('x_report', { _shift_id: shift })).error?.code).toBe('42501');
  });
});

// The refund lines policy admits an owner's or a full-access manager's business before it builds the set of visible
// refunds (ADR 0438): the roles' shares must be what the refunds say, with every store in the membership too.
describe('refund lines with every store in the membership', () => {
  it('a manager of every store reads every line; a cashier of every store still only those of their shifts', async () => {
    const members = [w.userIds.manager, w.userIds.cashier];
    await w.rows('update public.business_members set all_stores = true where business_id = $1 and user_id = any ($2)', [w.businessA, members]);
    try {
      const all = await rowsOfA('refund_lines');
      const read = async (name: Who) => (await w.actors[name].select('refund_lines')).rows
        .filter((row) => row.business_id === w.businessA).map((row) => keyOf('refund_lines', row)).sort();
      expect(await read('manager')).toEqual(all.map((row) => keyOf('refund_lines', row)).sort());
      const own = all.filter((row) => row.__own === w.userIds.cashier).map((row) => keyOf('refund_lines', row)).sort();
      expect(own.length).toBeGreaterThan(0);
      expect(own.length).toBeLessThan(all.length);
      expect(await read('cashier')).toEqual(own);
      expect(await read('other')).toEqual([]);
    } finally {
      await w.rows('update public.business_members set all_stores = false where business_id = $1 and user_id = any ($2)', [w.businessA, members]);
    }
  });
});
