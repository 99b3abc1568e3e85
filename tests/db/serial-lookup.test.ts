/**
 * The serial lookup (issue 29, ADR 0365) over HTTP with supabase-js as each person: a unit received on a purchase
 * order, sold with a customer, returned, sold again; the warranty counted from the selling store's day, in warranty
 * or expired; what a cashier sees at the counter (no customer, order or sale id); a manager of one store sees no
 * customer of another store's sale; another business's serial is never found; the receipt link's sale_receipt.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let phone = '';
let poDowntown = '';
const shifts: Record<string, { register: string; shift: string }> = {};

interface Unit {
  serial: string; product: string; status: string; store: string; details: boolean;
  received: { store: string; purchase_order_id: string | null; supplier: string | null } | null;
  sales: { sale_id: string | null; customer: string | null; receipt_number: string; store: string; sold_on: string;
    refunds: { disposition: string; returned_on: string }[] }[];
  warranty: string; warranty_ends_on: string | null; warranty_months: number | null;
}

function luhn(body: string): number {
  let sum = 0;
  [...body].reverse().forEach((d, i) => {
    const n = Number(d) * (i % 2 === 0 ? 2 : 1);
    sum += n > 9 ? n - 9 : n;
  });
  return (10 - (sum % 10)) % 10;
}
const imei = (body: string) => body + String(luhn(body));
const A = imei('35693803564380');
const B = imei('35693803564381');
const C = imei('35693803564382');

async function sell(client: SupabaseClient, store: 'downtown' | 'riverside', serial: string, customerId?: string) {
  const s = shifts[store];
  const { data, error } = await client.rpc('post_sale', { _payload: { id: randomUUID(), register_id: s?.register, shift_id: s?.shift,
    customer_id: customerId, lines: [{ variant_id: phone, qty: 1, serial }], tenders: [{ kind: 'card', amount: 49900 }] } });
  if (error) throw new Error(error.message);
  return data as { id: string; receipt_number: string; lines: { id: string }[] };
}

async function find(client: SupabaseClient, serial: string, business = w.businessA) {
  return client.rpc('find_serial', { _business_id: business, _serial: serial });
}

/** The store-local date of a sale plus months, as the database should count the warranty. */
async function warrantyEnd(saleId: string, months: number) {
  const [row] = await w.rows<{ ends: string }>(
    `select to_char(((s.occurred_at at time zone st.time_zone)::date + make_interval(months => $2))::date, 'YYYY-MM-DD') as ends
       from public.sales s join public.stores st on st.id = s.store_id where s.id = $1`, [saleId, months]);
  return row?.ends;
}

beforeAll(async () => {
  w = await startCatalogWorld();
  const [p] = await w.rows<{ id: string }>(`insert into public.products (business_id, name, serial_tracking, warranty_months, tax_rate)
    values ($1, 'Lookup Phone 12', 'imei', 12, 0) returning id`, [w.businessA]);
  const [v] = await w.rows<{ id: string }>(`insert into public.variants (business_id, product_id, sku, price)
    values ($1, $2, 'LOOKUP-12', 49900) returning id`, [w.businessA, p?.id]);
  phone = v?.id ?? '';
  for (const store of [downtown, riverside]) {
    await w.rows(`select private.apply_movement($1, $2, $3, null, 'opening', 5)`, [w.businessA, store, phone]);
    await w.rows('update public.stores set default_tax_rate = 0 where id = $1', [store]);
  }
  poDowntown = w.f.poOrdered;
  await w.rows(`insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
    values ($1, $2, $3, 2, 30000)`, [w.businessA, poDowntown, phone]);
  for (const [store, prefix, client] of [['downtown', 'DT1', w.clients.manager], ['riverside', 'RS1', w.clients.owner]] as const) {
    const [reg] = await w.rows<{ id: string }>('select id from public.registers where receipt_prefix = $1', [prefix]);
    const opened = await client.rpc('open_shift', { _register_id: reg?.id, _opening_float: 0 });
    if (opened.error) throw new Error(opened.error.message);
    shifts[store] = { register: reg?.id ?? '', shift: (opened.data as { id: string }).id };
  }
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('receiving a serial on a purchase order', () => {
  it('ties the unit to an order of the same store with the item, and refuses any other order', async () => {
    const wrongStore = await w.clients.owner.rpc('receive_serials', { _store_id: downtown, _variant_id: phone, _serials: [A],
      _purchase_order_id: w.f.poRiverside });
    expect(wrongStore.error?.code).toBe('22023');
    const noSuchLine = await w.clients.owner.rpc('receive_serials', { _store_id: downtown, _variant_id: phone, _serials: [A],
      _purchase_order_id: w.f.poDowntown });
    expect(noSuchLine.error?.code).toBe('22023');
    const ok = await w.clients.manager.rpc('receive_serials', { _store_id: downtown, _variant_id: phone, _serials: [A, B],
      _purchase_order_id: poDowntown });
    expect(ok.error).toBeNull();
    // Without an order, as before (the fourth argument is optional).
    const plain = await w.clients.owner.rpc('receive_serials', { _store_id: riverside, _variant_id: phone, _serials: [C] });
    expect(plain.error).toBeNull();
    expect(await w.rows('select serial, purchase_order_id from public.serial_numbers where variant_id = $1 order by serial', [phone]))
      .toEqual([{ serial: A, purchase_order_id: poDowntown }, { serial: B, purchase_order_id: poDowntown }, { serial: C, purchase_order_id: null }]);
  });
});

describe('find_serial', () => {
  let firstSale = { id: '', receipt_number: '', lines: [{ id: '' }] };
  let resale = { id: '', receipt_number: '', lines: [{ id: '' }] };

  beforeAll(async () => {
    const [cust] = await w.rows<{ id: string }>(`insert into public.customers (business_id, name) values ($1, 'Dana Warranty') returning id`,
      [w.businessA]);
    firstSale = await sell(w.clients.manager, 'downtown', A, cust?.id);
    const refund = await w.clients.manager.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: firstSale.id,
      shift_id: shifts.downtown?.shift, lines: [{ sale_line_id: firstSale.lines[0]?.id, qty: 1 }] } });
    if (refund.error) throw new Error(refund.error.message);
    resale = await sell(w.clients.manager, 'downtown', A, cust?.id);
    await sell(w.clients.owner, 'riverside', C, cust?.id);
  });

  it('shows the owner where the unit came from, each sale and return, and the warranty in force', async () => {
    const { data, error } = await find(w.clients.owner, ` ${A} `);
    expect(error).toBeNull();
    const [unit, ...rest] = data as Unit[];
    expect(rest).toEqual([]);
    expect(unit).toMatchObject({ serial: A, product: 'Lookup Phone 12', status: 'sold', details: true, warranty_months: 12,
      warranty: 'in_warranty', received: { purchase_order_id: poDowntown } });
    expect(unit?.received?.supplier).toEqual(expect.any(String));
    expect(unit?.sales.map((s) => [s.receipt_number, s.sale_id, s.customer, s.refunds.map((r) => r.disposition)])).toEqual([
      [firstSale.receipt_number, firstSale.id, 'Dana Warranty', ['restock']],
      [resale.receipt_number, resale.id, 'Dana Warranty', []],
    ]);
    expect(unit?.warranty_ends_on).toBe(await warrantyEnd(resale.id, 12));
  });

  it('says expired once the warranty months have passed, and not sold for a returned unit', async () => {
    await w.rows(`update public.sales set occurred_at = now() - interval '13 months' where id = $1`, [resale.id]);
    const expired = (await find(w.clients.owner, A)).data as Unit[];
    expect(expired[0]?.warranty).toBe('expired');
    expect(expired[0]?.warranty_ends_on).toBe(await warrantyEnd(resale.id, 12));
    const inStock = (await find(w.clients.owner, B)).data as Unit[];
    expect(inStock[0]).toMatchObject({ status: 'in_stock', warranty: 'not_sold', warranty_ends_on: null, sales: [] });
  });

  it('finds a serial sold offline that was never received, as not received, with its warranty', async () => {
    const D = imei('35693803564383');
    const s = shifts.downtown;
    const sold = await w.clients.manager.rpc('post_sale', { _payload: { id: randomUUID(), register_id: s?.register, shift_id: s?.shift,
      offline: true, lines: [{ variant_id: phone, qty: 1, serial: D }], tenders: [{ kind: 'card', amount: 49900 }] } });
    expect(sold.error).toBeNull();
    const [unit, ...rest] = (await find(w.clients.owner, D)).data as Unit[];
    expect(rest).toEqual([]);
    expect(unit).toMatchObject({ serial: D, status: 'not_received', received: null, warranty: 'in_warranty' });
    expect(unit?.sales).toHaveLength(1);
  });

  it('gives a cashier the dates, stores and receipt number for a warranty claim, without the customer or the order', async () => {
    const { data, error } = await find(w.clients.cashier, A);
    expect(error).toBeNull();
    const [unit] = data as Unit[];
    expect(unit).toMatchObject({ status: 'sold', warranty: 'expired', details: false, received: { purchase_order_id: null, supplier: null } });
    // Oldest first: the resale was dated 13 months back above.
    expect(unit?.sales.map((s) => [s.receipt_number, s.sale_id, s.customer])).toEqual([
      [resale.receipt_number, null, null], [firstSale.receipt_number, null, null],
    ]);
    expect(unit?.sales[1]?.refunds).toHaveLength(1);
  });

  it('shows a manager of Downtown the Riverside sale without its customer or sale id', async () => {
    const [unit] = (await find(w.clients.manager, C)).data as Unit[];
    expect(unit).toMatchObject({ status: 'sold', warranty: 'in_warranty', details: false });
    expect(unit?.sales).toHaveLength(1);
    expect(unit?.sales[0]).toMatchObject({ sale_id: null, customer: null });
    const [own] = (await find(w.clients.manager, A)).data as Unit[];
    expect(own?.sales[0]?.customer).toBe('Dana Warranty');
  });

  it('never finds another business\'s serial, and refuses a business the caller is not in', async () => {
    // The same IMEI received by owner2's business: each business finds only its own unit.
    const [other] = await w.rows<{ id: string }>(`insert into public.products (business_id, name, serial_tracking)
      values ($1, 'Other Phone', 'imei') returning id`, [w.businessB]);
    const [ov] = await w.rows<{ id: string }>(`insert into public.variants (business_id, product_id, sku, price)
      values ($1, $2, 'OTHER-PHONE', 100) returning id`, [w.businessB, other?.id]);
    await w.rows(`insert into public.serial_numbers (business_id, variant_id, serial, store_id)
      select $1, $2, $3, s.id from public.stores s where s.business_id = $1 limit 1`, [w.businessB, ov?.id, A]);

    const mine = (await find(w.clients.owner, A)).data as Unit[];
    expect(mine.map((u) => u.product)).toEqual(['Lookup Phone 12']);
    const theirs = (await find(w.clients.other, A, w.businessB)).data as Unit[];
    expect(theirs.map((u) => [u.product, u.sales.length])).toEqual([['Other Phone', 0]]);
    expect((await find(w.clients.other, C, w.businessB)).data).toEqual([]);
    expect((await find(w.clients.other, A)).error?.code).toBe('42501');
    expect((await find(w.clients.anon, A)).error).not.toBeNull();
    expect((await find(w.clients.owner, '')).error?.code).toBe('22023');
    expect((await find(w.clients.owner, 'x'.repeat(65))).error?.code).toBe('22023');
  });

  it('sale_receipt gives the receipt with the serial to readers of the sale only', async () => {
    const { data, error } = await w.clients.owner.rpc('sale_receipt', { _sale_id: resale.id });
    expect(error).toBeNull();
    const receipt = data as { receipt_number: string; customer: string; lines: { serial: string | null; description: string }[] };
    expect(receipt.receipt_number).toBe(resale.receipt_number);
    expect(receipt.customer).toBe('Dana Warranty');
    expect(receipt.lines.map((l) => l.serial)).toEqual([A]);
    for (const [client, sale] of [[w.clients.cashier, resale.id], [w.clients.manager, (await w.rows<{ id: string }>(
      `select s.id from public.sales s join public.sale_line_serials ss on ss.sale_id = s.id where ss.serial = $1`, [C]))[0]?.id],
    [w.clients.other, resale.id]] as const) {
      const refused = await client.rpc('sale_receipt', { _sale_id: sale });
      expect(refused.status).toBe(404);
      expect(refused.data).toBeNull();
    }
  });
});
