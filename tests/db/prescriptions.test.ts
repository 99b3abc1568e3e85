/**
 * Pharmacy (issue 29, ADR 0390), over HTTP with supabase-js as each person: a prescription-only item is sold only
 * with its prescription on the line (refused online, flagged offline, kept in sale_line_prescriptions and read only
 * inside the business); refunds need none; the controlled register's running balance equals the ledger and the
 * balances, names the sale's prescription number, and is for owners and managers; a destruction needs a witness who
 * is another member of the store and confirms with their PIN.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let register = '';
let shift = '';
let rxVariant = '';

const rx = { prescriber: 'Dr. Ana Ruiz', number: 'RX-20261', written_on: '2026-11-30', refills_authorised: 2, refills_remaining: 1 };
const line = (extra: Record<string, unknown> = {}) => ({ variant_id: rxVariant, qty: 1, ...extra });

async function post(client: SupabaseClient, payload: Record<string, unknown>) {
  return client.rpc('post_sale', { _payload: { id: randomUUID(), register_id: register, shift_id: shift,
    tenders: [{ kind: 'card', amount: 1250 }], ...payload } });
}

interface RegisterRow { id: number; kind: string; qty: number; balance: number; actor_name: string | null;
  witness_name: string | null; prescription_number: string | null; receipt_number: string | null }

beforeAll(async () => {
  w = await startCatalogWorld();
  [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`);
  const opened = await w.clients.manager.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (opened.error) throw new Error(opened.error.message);
  shift = (opened.data as { id: string }).id;
  await w.rows('update public.stores set default_tax_rate = 0, tax_inclusive = true where id = $1', [downtown]);
  // The owner marks the product on its page (the columns are in the members' update grant; RLS: owners and managers).
  const [{ id: product } = { id: '' }] = await w.rows<{ id: string }>(`insert into public.products (business_id, name, tax_rate)
    values ($1, 'Oxycodone 5 mg', 0) returning id`, [w.businessA]);
  const marked = await w.clients.owner.from('products').update({ prescription_only: true, controlled: true }).eq('id', product);
  expect(marked.error).toBeNull();
  [{ id: rxVariant } = { id: '' }] = await w.rows<{ id: string }>(`insert into public.variants (business_id, product_id, sku, price)
    values ($1, $2, 'RX-OXY-5', 1250) returning id`, [w.businessA, product]);
  const received = await w.clients.manager.rpc('receive_stock', { _store_id: downtown, _variant_id: rxVariant, _qty: 30 });
  expect(received.error).toBeNull();
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('prescription-only items', () => {
  it('a cashier cannot mark a product prescription-only', async () => {
    const { data } = await w.clients.cashier.from('products').update({ prescription_only: false })
      .eq('id', (await w.rows<{ id: string }>('select product_id as id from public.variants where id = $1', [rxVariant]))[0]?.id ?? '')
      .select('id');
    expect(data ?? []).toEqual([]);
    expect(await w.rows('select prescription_only from public.products p join public.variants v on v.product_id = p.id where v.id = $1',
      [rxVariant])).toEqual([{ prescription_only: true }]);
  });

  it('refuses a sale without a prescription online, and a bad one, with a clear 22023', async () => {
    const none = await post(w.clients.manager, { lines: [line()] });
    expect(none.error?.code).toBe('22023');
    expect(none.error?.message).toMatch(/line 1 \(Oxycodone 5 mg\): record the prescription/);
    const future = await post(w.clients.manager, { lines: [line({ prescription: { ...rx, written_on: '2099-01-01' } })] });
    expect(future.error?.code).toBe('22023');
    const refills = await post(w.clients.manager, { lines: [line({ prescription: { ...rx, refills_remaining: 3 } })] });
    expect(refills.error?.message).toMatch(/refills remaining no more than/);
    const badDate = await post(w.clients.manager, { lines: [line({ prescription: { ...rx, written_on: '2026-02-31' } })] });
    expect(badDate.error?.code).toBe('22023');
    expect(await w.rows('select 1 from public.sale_lines where variant_id = $1', [rxVariant])).toEqual([]);
  });

  it('accepts one with its prescription and stores it; the business reads it, another business does not', async () => {
    const sold = await post(w.clients.manager, { lines: [line({ prescription: rx })] });
    expect(sold.error).toBeNull();
    const saleId = (sold.data as { id: string }).id;
    expect(await w.rows(`select prescriber, prescription_number, written_on::text, refills_authorised, refills_remaining
                           from public.sale_line_prescriptions where sale_id = $1`, [saleId]))
      .toEqual([{ prescriber: 'Dr. Ana Ruiz', prescription_number: 'RX-20261', written_on: '2026-11-30', refills_authorised: 2,
        refills_remaining: 1 }]);
    for (const who of ['owner', 'manager'] as const) {
      const { data } = await w.clients[who].from('sale_line_prescriptions').select('prescription_number').eq('sale_id', saleId);
      expect(data).toEqual([{ prescription_number: 'RX-20261' }]);
    }
    // A cashier reads the prescriptions of the sales they rang only (this one is the manager's).
    const cashier = await w.clients.cashier.from('sale_line_prescriptions').select('prescription_number').eq('sale_id', saleId);
    expect(cashier.data).toEqual([]);
    const other = await w.clients.other.from('sale_line_prescriptions').select('prescription_number').eq('sale_id', saleId);
    expect(other.data).toEqual([]);
    const anon = await w.clients.anon.from('sale_line_prescriptions').select('prescription_number');
    expect(anon.data ?? []).toEqual([]);
  });

  it('an offline sale without one is kept and flagged for the manager', async () => {
    const offline = await post(w.clients.manager, { offline: true, lines: [line()] });
    expect(offline.error).toBeNull();
    const [sale] = await w.rows<{ review_reasons: string[] }>('select review_reasons from public.sales where id = $1',
      [(offline.data as { id: string }).id]);
    expect(sale?.review_reasons).toContain('prescription_missing:1');
  });

  it('a refund needs no prescription', async () => {
    const sold = await post(w.clients.manager, { lines: [line({ prescription: { ...rx, number: 'RX-REFUND' } })] });
    const sale = sold.data as { id: string; lines: { id: string }[] };
    const refund = await w.clients.manager.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: sale.id, shift_id: shift,
      tender_kind: 'card', lines: [{ sale_line_id: sale.lines[0]?.id, qty: 1 }] } });
    expect(refund.error).toBeNull();
  });
});

describe('the controlled register', () => {
  const read = async (client: SupabaseClient) =>
    client.rpc('controlled_register', { _store_id: downtown, _variant_id: rxVariant });

  it('runs a balance equal to the ledger and the stock, with the sale\'s prescription number', async () => {
    const { data, error } = await read(w.clients.manager);
    expect(error).toBeNull();
    const rows = data as RegisterRow[];
    const [{ ledger, balance } = { ledger: NaN, balance: NaN }] = await w.rows<{ ledger: number; balance: number }>(`
      select (select sum(qty)::float from public.stock_movements where store_id = $1 and variant_id = $2) as ledger,
             (select sum(qty)::float from public.stock_balances where store_id = $1 and variant_id = $2) as balance`,
    [downtown, rxVariant]);
    expect(Number(rows[0]?.balance)).toBe(ledger);
    expect(ledger).toBe(balance);
    // Newest first: each balance is the one below it plus its own quantity.
    rows.slice(0, -1).forEach((r, i) => expect(Number(r.balance)).toBeCloseTo(Number(rows[i + 1]?.balance) + Number(r.qty)));
    expect(rows.map((r) => r.kind)).toEqual(['refunded', 'sold', 'sold', 'sold', 'received']);
    expect(rows.filter((r) => r.kind === 'sold').map((r) => r.prescription_number)).toEqual(['RX-REFUND', null, 'RX-20261']);
    expect(rows.at(-1)?.actor_name).toBe('Member manager');
  });

  it('is for owners and managers of the business only', async () => {
    expect((await read(w.clients.owner)).error).toBeNull();
    expect((await read(w.clients.cashier)).error?.code).toBe('42501');
    expect((await read(w.clients.other)).error?.code).toBe('42501');
    const plain = await w.clients.manager.rpc('controlled_register', { _store_id: downtown, _variant_id: w.f.variant });
    expect(plain.error?.code).toBe('22023');
  });
});

describe('destruction before a witness', () => {
  const destroy = (client: SupabaseClient, args: Record<string, unknown>) =>
    client.rpc('destroy_controlled_stock', { _store_id: downtown, _variant_id: rxVariant, _qty: 2, _witness_pin: '4826',
      _note: 'expired, returned to the wholesaler', ...args });

  beforeAll(async () => {
    for (const who of ['cashier', 'manager'] as const) {
      const { error } = await w.clients[who].rpc('set_my_pin', { _business_id: w.businessA, _pin: '4826' });
      if (error) throw new Error(error.message);
    }
  });

  it('is refused without a witness, with oneself, with someone outside the store, or by a cashier', async () => {
    expect((await destroy(w.clients.manager, { _witness_id: null })).error?.code).toBe('22023');
    const self = await destroy(w.clients.manager, { _witness_id: w.userIds.manager });
    expect(self.error?.code).toBe('22023');
    expect(self.error?.message).toMatch(/another member of staff/);
    expect((await destroy(w.clients.manager, { _witness_id: w.userIds.other })).error?.code).toBe('22023');
    expect((await destroy(w.clients.cashier, { _witness_id: w.userIds.manager })).error?.code).toBe('42501');
    const plain = await destroy(w.clients.manager, { _variant_id: w.f.variant, _witness_id: w.userIds.cashier });
    expect(plain.error?.code).toBe('22023');
  });

  it('a wrong witness PIN moves nothing; the right one destroys, recorded with the witness, audited', async () => {
    const before = await w.rows<{ n: number }>('select count(*)::int as n from public.stock_movements where variant_id = $1', [rxVariant]);
    const wrong = await destroy(w.clients.manager, { _witness_id: w.userIds.cashier, _witness_pin: '1357' });
    expect(wrong.error).toBeNull();
    expect(wrong.data).toMatchObject({ ok: false, reason: 'wrong_pin' });
    expect(await w.rows('select count(*)::int as n from public.stock_movements where variant_id = $1', [rxVariant])).toEqual(before);

    const done = await destroy(w.clients.manager, { _witness_id: w.userIds.cashier });
    expect(done.error).toBeNull();
    expect(done.data).toMatchObject({ ok: true, balance: 26 });
    const { data } = await w.clients.manager.rpc('controlled_register', { _store_id: downtown, _variant_id: rxVariant });
    const top = (data as RegisterRow[])[0];
    expect(top).toMatchObject({ kind: 'destroyed', witness_name: 'Member cashier', actor_name: 'Member manager' });
    expect([Number(top?.qty), Number(top?.balance)]).toEqual([-2, 26]);
    expect(await w.rows(`select kind, after ->> 'witness_id' as witness from public.activity
                          where business_id = $1 and kind = 'controlled.destroyed'`, [w.businessA]))
      .toEqual([{ kind: 'controlled.destroyed', witness: w.userIds.cashier }]);
    // The destruction rows are the managers' reading, not the cashier's.
    expect((await w.clients.cashier.from('controlled_destructions').select('id')).data).toEqual([]);
    expect((await w.clients.manager.from('controlled_destructions').select('id')).data).toHaveLength(1);
  });
});
