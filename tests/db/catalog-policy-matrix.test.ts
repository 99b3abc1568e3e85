/**
 * The catalog and stock rows of docs/permissions.md, cell by cell over HTTP with supabase-js: every catalog and
 * inventory table x (select, insert, update, delete) x (anon, owner, manager of Downtown, cashier of Downtown,
 * owner of another business, platform admin). Cashiers never receive a cost; nobody writes the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, who, type CatalogWorld, type Who } from './support/catalog-world';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 180_000);

afterAll(async () => {
  await w?.stack.stop();
});

const tables = ['categories', 'products', 'variants', 'variant_costs', 'barcodes', 'store_prices', 'lots', 'suppliers',
  'purchase_orders', 'purchase_order_lines', 'transfers', 'transfer_lines', 'reorder_points', 'stock_movements',
  'stock_balances'] as const;
type Table = (typeof tables)[number];

/** Who reads which rows: everyone in the business, owners and managers, and whether store access narrows it. */
const readers: Record<Table, { roles: Who[]; scope: 'business' | 'store' | 'po' | 'transfer' }> = {
  categories: { roles: ['owner', 'manager', 'cashier'], scope: 'business' },
  products: { roles: ['owner', 'manager', 'cashier'], scope: 'business' },
  variants: { roles: ['owner', 'manager', 'cashier'], scope: 'business' },
  barcodes: { roles: ['owner', 'manager', 'cashier'], scope: 'business' },
  lots: { roles: ['owner', 'manager', 'cashier'], scope: 'business' },
  variant_costs: { roles: ['owner', 'manager'], scope: 'business' },
  suppliers: { roles: ['owner', 'manager'], scope: 'business' },
  store_prices: { roles: ['owner', 'manager', 'cashier'], scope: 'store' },
  stock_balances: { roles: ['owner', 'manager', 'cashier'], scope: 'store' },
  reorder_points: { roles: ['owner', 'manager'], scope: 'store' },
  purchase_orders: { roles: ['owner', 'manager'], scope: 'store' },
  stock_movements: { roles: ['owner', 'manager'], scope: 'store' },
  purchase_order_lines: { roles: ['owner', 'manager'], scope: 'po' },
  transfers: { roles: ['owner', 'manager'], scope: 'transfer' },
  transfer_lines: { roles: ['owner', 'manager'], scope: 'transfer' },
};

function keyOf(table: Table, row: Record<string, unknown>): string {
  if (table === 'variant_costs') return String(row.variant_id);
  if (table === 'store_prices' || table === 'reorder_points') return `${String(row.store_id)}/${String(row.variant_id)}`;
  return String(row.id);
}
const keys = (table: Table, rows: Record<string, unknown>[]) => rows.map((row) => keyOf(table, row)).sort();

async function rowsOfA(table: Table): Promise<Record<string, unknown>[]> {
  const extra = table === 'purchase_order_lines'
    ? ', (select to_jsonb(po.store_id) from public.purchase_orders po where po.id = t.purchase_order_id) as store'
    : table === 'transfer_lines'
      ? ', (select jsonb_build_array(x.from_store_id, x.to_store_id) from public.transfers x where x.id = t.transfer_id) as store'
      : table === 'transfers' ? ', jsonb_build_array(t.from_store_id, t.to_store_id) as store' : ', to_jsonb(null::text) as store';
  const found = await w.rows<{ r: Record<string, unknown>; store: unknown }>(
    `select to_jsonb(t) as r ${extra} from public.${table} t where t.business_id = $1`, [w.businessA]);
  return found.map(({ r, store }) => ({ ...r, __stores: Array.isArray(store) ? store : [store ?? r.store_id] }));
}

async function expectedRead(table: Table, name: Who): Promise<string[]> {
  const rule = readers[table];
  if (!rule.roles.includes(name)) return [];
  const all = await rowsOfA(table);
  if (name === 'owner' || rule.scope === 'business') return keys(table, all);
  return keys(table, all.filter((row) => (row.__stores as unknown[]).includes(downtown)));
}

describe.each(tables)('%s', (table) => {
  it('anon is refused', async () => {
    const result = await w.actors.anon.select(table);
    expect(result.error?.code).toBe('42501');
  });

  it.each(who.filter((name) => name !== 'anon'))('%s reads exactly its share of business A', async (name) => {
    // Paged like a client must: the data API returns at most 1,000 rows per request (the demo ledger is longer).
    const rows: Record<string, unknown>[] = [];
    for (let from = 0; ; from += 1000) {
      const { data, error } = await w.clients[name].from(table).select('*').range(from, from + 999);
      expect(error).toBeNull();
      rows.push(...((data ?? []) as Record<string, unknown>[]));
      if ((data ?? []).length < 1000) break;
    }
    const ofA = rows.filter((row) => row.business_id === w.businessA);
    expect(keys(table, ofA)).toEqual(await expectedRead(table, name));
  });

  it.each(who.filter((name) => name !== 'owner'))('%s cannot delete business A\'s rows outside its rights', async (name) => {
    const before = await rowsOfA(table);
    expect(before.length).toBeGreaterThan(0);
    // A manager of Downtown may delete some things there: aim it at Riverside's rows and at the ledger.
    const match: Record<string, string> = { business_id: w.businessA };
    if (name === 'manager' && readers[table].scope === 'store') match.store_id = riverside;
    const managerMayDeleteAll = name === 'manager'
      && ['categories', 'products', 'variants', 'barcodes', 'suppliers'].includes(table);
    if (managerMayDeleteAll) return; // covered by the owner/manager write tests below
    await w.clients[name].from(table).delete().match(match);
    expect(await rowsOfA(table)).toEqual(before);
  });
});

describe('cost prices never reach a cashier', () => {
  it('a cashier reads variants and prices but no cost table, ledger, order line or supplier', async () => {
    for (const table of ['variant_costs', 'stock_movements', 'purchase_order_lines', 'suppliers', 'purchase_orders']) {
      const { data, error } = await w.clients.cashier.from(table).select('*');
      expect(error).toBeNull();
      expect(data).toEqual([]);
    }
    const { data } = await w.clients.cashier.from('variants').select('*').eq('id', w.f.variant);
    expect(Object.keys(data?.[0] ?? {})).not.toContain('cost');
    expect(data?.[0]).toMatchObject({ price: 1500 });
  });

  it('a cashier cannot read the stock history (which carries unit costs)', async () => {
    const { error } = await w.clients.cashier.rpc('stock_history', { _store_id: downtown, _variant_id: w.f.variant });
    expect(error?.code).toBe('42501');
  });
});

describe('inserts', () => {
  const catalogRow: Record<string, () => Record<string, unknown>> = {
    categories: () => ({ business_id: w.businessA, name: `Aisle ${Math.random().toString(36).slice(2, 8)}` }),
    products: () => ({ business_id: w.businessA, name: 'Inserted product' }),
    variants: () => ({ business_id: w.businessA, product_id: w.f.product, option1: 'XL', sku: '', price: 100 }),
    barcodes: () => ({ business_id: w.businessA, variant_id: w.f.variant2, code: `2${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`, kind: 'internal' }),
    suppliers: () => ({ business_id: w.businessA, name: 'Inserted Supplier' }),
  };
  // An internal code needs its check digit: compute it like the database does.
  const withCheckDigit = (body: string) => {
    const sum = [...body].reverse().reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
    return body + String((10 - (sum % 10)) % 10);
  };
  const row = (table: string) => {
    const make = catalogRow[table];
    if (!make) throw new Error(`no row for ${table}`);
    const r = make();
    if (table === 'barcodes') r.code = withCheckDigit(String(r.code).slice(0, 12));
    return r;
  };

  it.each(Object.keys(catalogRow).flatMap((t) => who.map((name) => [t, name] as const)))(
    '%s: %s', async (table, name) => {
      const result = await w.actors[name].insert(table, row(table));
      if (name === 'owner' || name === 'manager') {
        expect(result.error).toBeNull();
        expect(result.rows).toHaveLength(1);
      } else {
        expect(result.error?.code).toBe('42501');
      }
    });

  it.each(['store_prices', 'reorder_points'] as const)('%s: a manager writes in Downtown, not in Riverside', async (table) => {
    const extra = table === 'store_prices' ? { price: 999 } : { reorder_point: 1, target_level: 2 };
    const at = (store: string) => ({ business_id: w.businessA, store_id: store, variant_id: w.f.variant2, ...extra });
    expect((await w.actors.manager.insert(table, at(riverside))).error?.code).toBe('42501');
    expect((await w.actors.cashier.insert(table, at(downtown))).error?.code).toBe('42501');
    expect((await w.actors.other.insert(table, at(downtown))).error?.code).toBe('42501');
    expect((await w.actors.manager.insert(table, at(downtown))).error).toBeNull();
    expect((await w.actors.owner.insert(table, at(riverside))).error).toBeNull();
  });

  it('variant_costs: owners and managers set a cost, cashiers cannot', async () => {
    const cost = { variant_id: w.f.variant2, business_id: w.businessA, cost: 450 };
    expect((await w.actors.cashier.insert('variant_costs', cost)).error?.code).toBe('42501');
    expect((await w.actors.other.insert('variant_costs', cost)).error?.code).toBe('42501');
    expect((await w.actors.manager.insert('variant_costs', cost)).error).toBeNull();
  });

  it('purchase orders: a manager drafts in Downtown only; lines only through the audited functions', async () => {
    const draft = (store: string) => ({ business_id: w.businessA, store_id: store, supplier_id: w.f.supplier });
    expect((await w.actors.manager.insert('purchase_orders', draft(riverside))).error?.code).toBe('42501');
    expect((await w.actors.cashier.insert('purchase_orders', draft(downtown))).error?.code).toBe('42501');
    const created = await w.actors.manager.insert('purchase_orders', draft(downtown));
    expect(created.error).toBeNull();
    const line = (po: string) => ({ business_id: w.businessA, purchase_order_id: po, variant_id: w.f.variant2, qty_ordered: 3, unit_cost: 100 });
    // Even on the manager's own draft: lines are written by create_purchase_order and the other audited functions.
    expect((await w.actors.manager.insert('purchase_order_lines', line(String(created.rows[0]?.id)))).error?.code).toBe('42501');
    expect((await w.actors.manager.insert('purchase_order_lines', line(w.f.poOrdered))).error?.code).toBe('42501');
    expect((await w.actors.manager.insert('purchase_order_lines', line(w.f.poRiverside))).error?.code).toBe('42501');
    // A status set by hand cannot skip receiving.
    const { error } = await w.clients.owner.from('purchase_orders').update({ status: 'received' }).eq('id', w.f.poOrdered);
    expect(error?.code).toBe('22023');
  });

  it.each(['lots', 'transfers', 'transfer_lines', 'stock_movements', 'stock_balances'] as const)(
    '%s: nobody inserts through the API (only the stock functions write it)', async (table) => {
      const attempt: Record<string, unknown> = {
        lots: { business_id: w.businessA, variant_id: w.f.lotVariant, lot_number: 'FORGED', expires_on: '2030-01-01' },
        transfers: { business_id: w.businessA, from_store_id: downtown, to_store_id: riverside },
        transfer_lines: { business_id: w.businessA, transfer_id: w.f.transferToRiverside, variant_id: w.f.variant, qty_sent: 1 },
        stock_movements: { business_id: w.businessA, store_id: downtown, variant_id: w.f.variant, kind: 'receive', qty: 100 },
        stock_balances: { business_id: w.businessA, store_id: downtown, variant_id: w.f.variant2, qty: 100 },
      }[table] as Record<string, unknown>;
      for (const name of who) {
        const before = await rowsOfA(table);
        expect((await w.actors[name].insert(table, attempt)).error?.code).toBe('42501');
        expect(await rowsOfA(table)).toEqual(before);
      }
    });
});

describe('updates', () => {
  const patches: Record<Table, Record<string, unknown>> = {
    categories: { name: 'Renamed aisle' }, products: { name: 'Renamed' }, variants: { price: 1 },
    variant_costs: { cost: 1 }, barcodes: { code: '96385074' }, store_prices: { price: 1 }, lots: { lot_number: 'X' },
    suppliers: { name: 'Renamed Supplier' }, purchase_orders: { notes: 'changed' }, purchase_order_lines: { unit_cost: 1 },
    transfers: { note: 'changed' }, transfer_lines: { qty_sent: 99 }, reorder_points: { target_level: 99 },
    stock_movements: { qty: 1000 }, stock_balances: { qty: 1000 },
  };

  it.each(tables.flatMap((t) => (['anon', 'cashier', 'other', 'admin'] as const).map((name) => [t, name] as const)))(
    '%s: %s changes nothing', async (table, name) => {
      const before = await rowsOfA(table);
      await w.clients[name].from(table).update(patches[table]).match({ business_id: w.businessA });
      expect(await rowsOfA(table)).toEqual(before);
    });

  it.each(['barcodes', 'lots', 'purchase_order_lines', 'transfers', 'transfer_lines', 'stock_movements', 'stock_balances'] as const)(
    '%s: even the owner cannot update it through the API', async (table) => {
      const before = await rowsOfA(table);
      const { error } = await w.clients.owner.from(table).update(patches[table]).match({ business_id: w.businessA });
      expect(error?.code).toBe('42501');
      expect(await rowsOfA(table)).toEqual(before);
    });

  it('purchase order lines change only through edit_purchase_order_draft (audited): owners, managers in their stores', async () => {
    const before = await rowsOfA('purchase_order_lines');
    expect((await w.clients.owner.from('purchase_order_lines').delete().eq('purchase_order_id', w.f.poDowntown)).error?.code).toBe('42501');
    expect(await rowsOfA('purchase_order_lines')).toEqual(before);
    const edit = (name: Who, po: string) => w.clients[name].rpc('edit_purchase_order_draft', {
      _purchase_order_id: po, _lines: [{ variant_id: w.f.variant, qty: 10, unit_cost: 700 }],
    });
    for (const name of ['anon', 'cashier', 'other', 'admin'] as const) expect((await edit(name, w.f.poDowntown)).error?.code).toBe('42501');
    expect((await edit('manager', w.f.poRiverside)).error?.code).toBe('42501');
    expect((await edit('manager', w.f.poDowntown)).error).toBeNull();
    expect((await edit('owner', w.f.poRiverside)).error).toBeNull();
  });

  it('the ledger refuses update and delete even to the database owner', async () => {
    await expect(w.rows('update public.stock_movements set qty = 1 where business_id = $1', [w.businessA]))
      .rejects.toThrow(/append-only/);
    await expect(w.rows('delete from public.stock_movements where business_id = $1', [w.businessA]))
      .rejects.toThrow(/append-only/);
  });

  it('a manager changes prices of its store only; the owner any', async () => {
    await w.clients.manager.from('store_prices').update({ price: 1111 }).match({ store_id: riverside, variant_id: w.f.variant });
    const [{ price } = { price: 0 }] = await w.rows<{ price: string }>(
      'select price from public.store_prices where store_id = $1 and variant_id = $2', [riverside, w.f.variant]);
    expect(Number(price)).toBe(1400);
    const { data } = await w.clients.owner.from('store_prices').update({ price: 1111 })
      .match({ store_id: riverside, variant_id: w.f.variant }).select('price');
    expect(data).toEqual([{ price: 1111 }]);
  });

  it('a product that has stock movements cannot be deleted: it is archived', async () => {
    const { error } = await w.clients.owner.from('products').delete().eq('id', w.f.product);
    expect(error?.code).toBe('23503');
    const archived = await w.clients.owner.from('products').update({ archived_at: new Date().toISOString() })
      .eq('id', w.f.product).select('id');
    expect(archived.error).toBeNull();
    expect(archived.data).toHaveLength(1);
    await w.rows('update public.products set archived_at = null where id = $1', [w.f.product]);
  });
});
