/**
 * The register's offline events (issue 13, migration 20261124140000_pos_offline_events.sql, ADR 0155) over HTTP
 * with supabase-js: create_customer, cash_in_out and close_shift with the register's ids, each written once however
 * often it is retried (an answer lost on the way back), refused for another business or store, audited once, the
 * register's clock kept within the shift; a matrix of who may call them; and the real outbox (sendSale) syncing a
 * customer, the sale naming them, cash out and the close, twice over, exactly once.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, openPosDb, pendingEntries, syncOutbox } from '../../shared/features/pos/outbox';
import { sendSale } from '../../shared/features/pos/pos-api';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { startCatalogWorld, who, type CatalogWorld, type Who } from './support/catalog-world';

let w: CatalogWorld;
const reg: Record<string, string> = {};

beforeAll(async () => {
  w = await startCatalogWorld();
  for (const r of await w.rows<{ id: string; receipt_prefix: string }>(
    `select id, receipt_prefix from public.registers where receipt_prefix in ('DT1', 'DT2', 'RS1')`)) reg[r.receipt_prefix] = r.id;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

async function openShift(client: SupabaseClient, register: string, float = 10000): Promise<{ id: string; opened_at: string }> {
  const { data, error } = await client.rpc('open_shift', { _register_id: register, _opening_float: float });
  if (error) throw new Error(error.message);
  return data as { id: string; opened_at: string };
}

const activity = async (entityId: string, kind?: string) => Number((await w.rows<{ n: string }>(
  `select count(*) as n from public.activity where (entity_id = $1 or after ->> 'movement_id' = $1::text) and ($2::text is null or kind = $2)`,
  [entityId, kind ?? null]))[0]?.n);

const customer = (id: string, name = 'Ada Counter', business = w.businessA) =>
  ({ _id: id, _business_id: business, _name: name, _phone: '+1 555 010 4242', _email: null });

describe('create_customer', () => {
  it('a retry with the same id returns the first row and writes (and audits) one', async () => {
    const id = randomUUID();
    const first = await w.clients.cashier.rpc('create_customer', customer(id));
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ id, business_id: w.businessA, name: 'Ada Counter', phone: '+1 555 010 4242', email: null });
    const again = await w.clients.cashier.rpc('create_customer', customer(id, 'Another Name'));
    expect(again.error).toBeNull();
    expect(again.data).toMatchObject({ id, name: 'Ada Counter' });
    expect(await w.rows('select 1 from public.customers where id = $1', [id])).toHaveLength(1);
    expect(await activity(id)).toBe(1);
  });

  it('ten concurrent copies write one row and all answer it', async () => {
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => w.clients.manager.rpc('create_customer', customer(id))));
    expect(answers.map((a) => a.error)).toEqual(Array(10).fill(null));
    expect(new Set(answers.map((a) => (a.data as { id: string }).id))).toEqual(new Set([id]));
    expect(await w.rows('select 1 from public.customers where id = $1', [id])).toHaveLength(1);
  });

  it('an id of another business is refused and reveals nothing; no customer is planted in another business', async () => {
    const id = randomUUID();
    expect((await w.clients.owner.rpc('create_customer', customer(id, 'Ours'))).error).toBeNull();
    const stolen = await w.clients.other.rpc('create_customer', customer(id, 'Theirs', w.businessB));
    expect(stolen.error?.code).toBe('42501');
    expect(stolen.data).toBeNull();
    const planted = await w.clients.other.rpc('create_customer', customer(randomUUID(), 'Planted', w.businessA));
    expect(planted.error?.code).toBe('42501');
    expect(await w.rows(`select name from public.customers where id = $1`, [id])).toEqual([{ name: 'Ours' }]);
    expect(await w.rows(`select 1 from public.customers where name = 'Planted'`)).toHaveLength(0);
  });

  it('bad input is a plain 400', async () => {
    const short = await w.clients.cashier.rpc('create_customer', customer(randomUUID(), 'A'));
    expect(short.error?.code).toBe('22023');
    const phone = await w.clients.cashier.rpc('create_customer', { ...customer(randomUUID()), _phone: '123' });
    expect(phone.error?.code).toBe('22023');
    const noId = await w.clients.cashier.rpc('create_customer', { ...customer(randomUUID()), _id: null } as never);
    expect(noId.error?.code).toBe('22023');
  });
});

describe('cash_in_out with the register id', () => {
  it('a retry writes nothing twice; the register time is kept within the shift; the old signature still works', async () => {
    const shift = await openShift(w.clients.cashier, reg.DT2 as string);
    const id = randomUUID();
    const args = { _id: id, _shift_id: shift.id, _kind: 'out', _amount: 700, _reason: 'Bank run', _at: '2000-01-01T00:00:00Z' };
    const first = await w.clients.cashier.rpc('cash_in_out', args);
    expect(first.error).toBeNull();
    expect(first.data).toBe(id);
    expect((await w.clients.cashier.rpc('cash_in_out', { ...args, _amount: 9999 })).data).toBe(id);
    const rows = await w.rows<{ amount: string; at: Date }>('select amount, at from public.cash_movements where id = $1', [id]);
    expect(rows.map((r) => Number(r.amount))).toEqual([700]);
    // Before the shift opened: moved to the opening.
    expect(rows[0]?.at.toISOString()).toBe(new Date(shift.opened_at).toISOString());
    expect(await activity(id, 'cash.out')).toBe(1);

    const ahead = randomUUID();
    const future = await w.clients.cashier.rpc('cash_in_out', { ...args, _id: ahead, _kind: 'in', _at: '2999-01-01T00:00:00Z' });
    expect(future.error).toBeNull();
    const [{ at } = { at: new Date(0) }] = await w.rows<{ at: Date }>('select at from public.cash_movements where id = $1', [ahead]);
    expect(at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const old = await w.clients.cashier.rpc('cash_in_out', { _shift_id: shift.id, _kind: 'in', _amount: 100, _reason: 'Old way' });
    expect(old.error).toBeNull();
    const x = await w.clients.cashier.rpc('x_report', { _shift_id: shift.id });
    expect(x.data).toMatchObject({ cash_in: 800, cash_out: 700 });
    await w.clients.cashier.rpc('close_shift', { _shift_id: shift.id, _counted: {} });
  });

  it('refused in a store the caller may not use, for a shift of another business, and an id reused on another shift', async () => {
    const rs = await openShift(w.clients.owner, reg.RS1 as string);
    const args = { _id: randomUUID(), _shift_id: rs.id, _kind: 'in', _amount: 100, _reason: 'Float top-up', _at: new Date().toISOString() };
    expect((await w.clients.manager.rpc('cash_in_out', args)).error?.code).toBe('42501');
    expect((await w.clients.cashier.rpc('cash_in_out', args)).error?.code).toBe('42501');
    expect((await w.clients.other.rpc('cash_in_out', args)).error?.code).toBe('42501');
    expect((await w.clients.anon.rpc('cash_in_out', args)).error?.code).toMatch(/^(42501|PGRST202)$/);
    expect(await w.rows('select 1 from public.cash_movements where id = $1', [args._id])).toHaveLength(0);
    expect((await w.clients.owner.rpc('cash_in_out', args)).error).toBeNull();
    const dt = await openShift(w.clients.owner, reg.DT1 as string);
    const reused = await w.clients.owner.rpc('cash_in_out', { ...args, _shift_id: dt.id });
    expect(reused.error?.code).toBe('42501');
    expect(await w.rows('select shift_id from public.cash_movements where id = $1', [args._id])).toEqual([{ shift_id: rs.id }]);
    for (const s of [rs.id, dt.id]) await w.clients.owner.rpc('close_shift', { _shift_id: s, _counted: {} });
  });
});

describe('close_shift with the register id and time', () => {
  it('a retry of the same close returns the figures; another close is "already closed"; audited once', async () => {
    const shift = await openShift(w.clients.cashier, reg.DT1 as string, 5000);
    const closeId = randomUUID();
    // The register's clock: just after the opening (kept as sent, being within the shift and not ahead of the server).
    const closedAt = new Date(new Date(shift.opened_at).getTime() + 5).toISOString();
    // The server's clock must have passed that time, or the close is kept at the server's now (a fast machine closes
    // within 5 ms of the opening).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const args = { _shift_id: shift.id, _counted: { 2000: 2, 500: 1 }, _close_id: closeId, _closed_at: closedAt };
    const first = await w.clients.cashier.rpc('close_shift', args);
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ expected_cash: 5000, counted_total: 4500, difference: -500 });
    const again = await w.clients.cashier.rpc('close_shift', args);
    expect(again.error).toBeNull();
    expect(again.data).toEqual(first.data);
    const other = await w.clients.cashier.rpc('close_shift', { ...args, _close_id: randomUUID() });
    expect(other.error?.code).toBe('22023');
    expect(other.error?.message).toContain('already closed');
    const [row] = await w.rows<{ closed_at: Date; close_id: string }>('select closed_at, close_id from public.shifts where id = $1', [shift.id]);
    expect(row?.closed_at.toISOString()).toBe(new Date(closedAt).toISOString());
    expect(row?.close_id).toBe(closeId);
    expect(await activity(shift.id, 'shift.closed')).toBe(1);
  });

  it('the register time is bounded: never after the server now, never before the shift opened', async () => {
    const ahead = await openShift(w.clients.cashier, reg.DT1 as string);
    expect((await w.clients.cashier.rpc('close_shift', { _shift_id: ahead.id, _counted: {}, _close_id: randomUUID(),
      _closed_at: '2999-01-01T00:00:00Z' })).error).toBeNull();
    const behind = await openShift(w.clients.cashier, reg.DT1 as string);
    expect((await w.clients.cashier.rpc('close_shift', { _shift_id: behind.id, _counted: {}, _close_id: randomUUID(),
      _closed_at: '2000-01-01T00:00:00Z' })).error).toBeNull();
    const rows = await w.rows<{ id: string; opened_at: Date; closed_at: Date }>(
      'select id, opened_at, closed_at from public.shifts where id = any($1::uuid[])', [[ahead.id, behind.id]]);
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[ahead.id]?.closed_at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(byId[behind.id]?.closed_at.toISOString()).toBe(byId[behind.id]?.opened_at.toISOString());
  });

  it('refused for a store the caller may not use, another business, and a cashier closing a shift they did not open', async () => {
    const rs = await openShift(w.clients.owner, reg.RS1 as string);
    const args = { _shift_id: rs.id, _counted: {}, _close_id: randomUUID(), _closed_at: new Date().toISOString() };
    for (const name of ['manager', 'cashier', 'other', 'admin'] as const) {
      expect((await w.clients[name].rpc('close_shift', args)).error?.code).toBe('42501');
    }
    const dt = await openShift(w.clients.manager, reg.DT1 as string);
    expect((await w.clients.cashier.rpc('close_shift', { ...args, _shift_id: dt.id })).error?.code).toBe('42501');
    expect(await w.rows('select 1 from public.shifts where id = any($1::uuid[]) and closed_at is null', [[rs.id, dt.id]])).toHaveLength(2);
    expect((await w.clients.owner.rpc('close_shift', args)).error).toBeNull();
    expect((await w.clients.manager.rpc('close_shift', { ...args, _shift_id: dt.id, _close_id: randomUUID() })).error).toBeNull();
  });
});

describe('who may call the new functions (business A, Downtown)', () => {
  const allowed: Who[] = ['owner', 'manager', 'cashier'];
  it.each(who)('%s', async (name) => {
    const customerResult = await w.clients[name].rpc('create_customer', customer(randomUUID(), `Matrix ${name}`));
    const shift = await openShift(w.clients.owner, reg.DT2 as string);
    const cash = await w.clients[name].rpc('cash_in_out', { _id: randomUUID(), _shift_id: shift.id, _kind: 'in', _amount: 1,
      _reason: 'Matrix', _at: new Date().toISOString() });
    // A cashier moves cash in and closes only a shift they opened: the owner opened this one (ADR 0171).
    const close = await w.clients[name].rpc('close_shift', { _shift_id: shift.id, _counted: {}, _close_id: randomUUID(),
      _closed_at: new Date().toISOString() });
    if (allowed.includes(name)) {
      expect(customerResult.error).toBeNull();
      expect(cash.error?.code ?? null).toBe(name === 'cashier' ? '42501' : null);
      expect(close.error?.code ?? null).toBe(name === 'cashier' ? '42501' : null);
    } else {
      for (const r of [customerResult, cash, close]) expect(r.error?.code).toMatch(/^(42501|PGRST202)$/);
    }
    if (close.error) await w.clients.owner.rpc('close_shift', { _shift_id: shift.id, _counted: {} });
  });
});

describe("the register's outbox", () => {
  it('syncs a customer made offline, the sale naming them, cash out and the close, sent twice, exactly once', async () => {
    const cashier = w.clients.cashier as unknown as StorewiseClient;
    const shift = await openShift(w.clients.cashier, reg.DT1 as string, 2000);
    const db = await openPosDb(`offline-events-${randomUUID()}`);
    const customerId = randomUUID();
    const saleId = randomUUID();
    const cashId = randomUUID();
    const closeId = randomUUID();
    await enqueue(db, 'customer', { id: customerId, business_id: w.businessA, name: 'Offline Olga', phone: null, email: 'olga@example.com' });
    await enqueue(db, 'sale', { id: saleId, register_id: reg.DT1, shift_id: shift.id, customer_id: customerId, offline: true,
      lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1400 }], tenders: [{ kind: 'cash', amount: 1524, tendered: 2000 }] });
    await enqueue(db, 'cash', { id: cashId, shift_id: shift.id, kind: 'out', amount: 300, reason: 'Window cleaner', at: new Date().toISOString() });
    await enqueue(db, 'close', { id: closeId, shift_id: shift.id, counted: { 1000: 3 }, closed_at: new Date().toISOString() });
    const entries = await pendingEntries(db);
    // Every entry sent once more first, as when the answer was lost on the way back.
    for (const e of entries) expect((await sendSale(cashier, e)).status).toBe('done');
    expect(await syncOutbox(db, (e) => sendSale(cashier, e))).toEqual({ sent: 4, waiting: 0, rejected: 0 });

    expect(await w.rows('select name from public.customers where id = $1', [customerId])).toEqual([{ name: 'Offline Olga' }]);
    const sales = await w.rows<{ customer_id: string; review_reasons: string[] }>(
      'select customer_id, review_reasons from public.sales where id = $1', [saleId]);
    expect(sales).toEqual([{ customer_id: customerId, review_reasons: [] }]);
    expect(await w.rows('select amount::int, reason from public.cash_movements where id = $1', [cashId]))
      .toEqual([{ amount: 300, reason: 'Window cleaner' }]);
    const [closed] = await w.rows<{ close_id: string; expected_cash: string; difference: string }>(
      'select close_id, expected_cash, difference from public.shifts where id = $1', [shift.id]);
    // 2000 float + 1524 cash sale - 300 out = 3224 expected; 3000 counted.
    expect(closed).toMatchObject({ close_id: closeId });
    expect([Number(closed?.expected_cash), Number(closed?.difference)]).toEqual([3224, -224]);
    expect(await activity(shift.id, 'shift.closed')).toBe(1);
    expect(await activity(cashId, 'cash.out')).toBe(1);
  });
});
