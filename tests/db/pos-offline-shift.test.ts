/**
 * A shift opened offline and the outbox's authors (issue 13, migration 20261125130000_pos_offline_shift_open.sql,
 * ADR 0165) over HTTP with supabase-js: open_shift with the register's id posts once however often it is retried,
 * refuses another business's register or id, refuses a second open shift online and flags (never drops) one from
 * the offline outbox; the real outbox sends each entry under its author's sign-in (a sale syncs as its cashier's);
 * pos_outbox_review records a manager's retry or discard and refuses everyone else.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, openPosDb, syncOutbox } from '../../shared/features/pos/outbox';
import { sendSale } from '../../shared/features/pos/pos-api';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
const reg: Record<string, string> = {};

beforeAll(async () => {
  w = await startCatalogWorld();
  for (const r of await w.rows<{ id: string; receipt_prefix: string }>(
    `select id, receipt_prefix from public.registers where receipt_prefix in ('DT1', 'DT2', 'RS1')`)) reg[r.receipt_prefix] = r.id;
  // Start from registers with no open shift (the seed may have left one).
  await w.rows(`update public.shifts set closed_at = now(), counted = '{}', counted_total = 0 where closed_at is null`);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const open = (client: SupabaseClient, args: { id?: string; register?: string; float?: number; at?: string; offline?: boolean }) =>
  client.rpc('open_shift', { _id: args.id ?? randomUUID(), _register_id: args.register ?? reg.DT1, _opening_float: args.float ?? 1000,
    _opened_at: args.at ?? new Date().toISOString(), _offline: args.offline ?? false } as never);

const closeAll = async (register: string) =>
  w.rows(`update public.shifts set closed_at = now(), counted = '{}', counted_total = 0 where register_id = $1 and closed_at is null`, [register]);

const activity = async (entityId: string, kind: string) => Number((await w.rows<{ n: string }>(
  'select count(*) as n from public.activity where entity_id = $1 and kind = $2', [entityId, kind]))[0]?.n);

describe('open_shift with the register\'s id', () => {
  it('a retry (and concurrent copies) open one shift and answer it; the float of a retry does not change it', async () => {
    const id = randomUUID();
    const first = await open(w.clients.cashier, { id, float: 2500 });
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ id, register_id: reg.DT1, opening_float: 2500, opened_in_conflict: false, receipt_prefix: 'DT1' });
    const copies = await Promise.all(Array.from({ length: 5 }, () => open(w.clients.cashier, { id, float: 9999 })));
    expect(copies.map((c) => c.error)).toEqual(Array(5).fill(null));
    expect(new Set(copies.map((c) => (c.data as { id: string }).id))).toEqual(new Set([id]));
    expect(await w.rows('select opening_float::int as f from public.shifts where id = $1', [id])).toEqual([{ f: 2500 }]);
    expect(await activity(id, 'shift.opened')).toBe(1);
    await closeAll(reg.DT1 as string);
  });

  it('refuses another business: its register, its id, and says nothing about the shift', async () => {
    const id = randomUUID();
    expect((await open(w.clients.cashier, { id })).error).toBeNull();
    const [{ id: theirRegister } = { id: '' }] = await w.rows<{ id: string }>(
      'select r.id from public.registers r join public.stores s on s.id = r.store_id where s.business_id = $1 limit 1', [w.businessB]);
    const stolen = await open(w.clients.other, { id, register: theirRegister, offline: true });
    expect(stolen.error?.code).toBe('42501');
    expect(stolen.data).toBeNull();
    const planted = await open(w.clients.other, { register: reg.DT2, offline: true });
    expect(planted.error?.code).toBe('42501');
    // The cashier may use Downtown only.
    expect((await open(w.clients.cashier, { register: reg.RS1, offline: true })).error?.code).toBe('42501');
    expect((await w.clients.anon.rpc('open_shift', { _id: randomUUID(), _register_id: reg.DT2, _opening_float: 0,
      _opened_at: new Date().toISOString(), _offline: true } as never)).error?.code).toMatch(/^(42501|PGRST202)$/);
    expect(await w.rows('select 1 from public.shifts where register_id = $1 and closed_at is null', [reg.DT2])).toHaveLength(0);
    await closeAll(reg.DT1 as string);
  });

  it('bad input is a plain 400; the register\'s clock is kept after the last close and before now', async () => {
    expect((await w.clients.cashier.rpc('open_shift', { _id: null, _register_id: reg.DT2, _opening_float: 0,
      _opened_at: null, _offline: false } as never)).error?.code).toBe('22023');
    expect((await open(w.clients.cashier, { register: reg.DT2, float: -1 })).error?.code).toBe('22023');
    const ahead = await open(w.clients.cashier, { register: reg.DT2, at: '2999-01-01T00:00:00Z' });
    expect(new Date((ahead.data as { opened_at: string }).opened_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    await closeAll(reg.DT2 as string);
    const [{ closed } = { closed: new Date(0) }] = await w.rows<{ closed: Date }>(
      'select max(closed_at) as closed from public.shifts where register_id = $1', [reg.DT2]);
    const behind = await open(w.clients.cashier, { register: reg.DT2, at: '2000-01-01T00:00:00Z', offline: true });
    expect(new Date((behind.data as { opened_at: string }).opened_at).getTime()).toBe(closed.getTime());
    await closeAll(reg.DT2 as string);
  });

  it('a second open shift: refused online, flagged from the offline outbox with the shift it met; its sales and close work', async () => {
    const first = await open(w.clients.owner, { register: reg.DT2 });
    expect(first.error).toBeNull();
    const firstId = (first.data as { id: string }).id;
    const online = await open(w.clients.cashier, { register: reg.DT2 });
    expect(online.error?.code).toBe('23505');

    const cashier = w.clients.cashier as unknown as StorewiseClient;
    const db = await openPosDb(`offline-shift-${randomUUID()}`);
    const shiftId = randomUUID();
    const saleId = randomUUID();
    const author = { id: w.userIds.cashier, label: 'Cashier' };
    await enqueue(db, 'open', { id: shiftId, register_id: reg.DT2, opening_float: 500, opened_at: new Date().toISOString(), offline: true }, author);
    await enqueue(db, 'sale', { id: saleId, register_id: reg.DT2, shift_id: shiftId, offline: true,
      lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1400 }], tenders: [{ kind: 'cash', amount: 1524, tendered: 2000 }] }, author);
    await enqueue(db, 'close', { id: randomUUID(), shift_id: shiftId, counted: { 1000: 2 }, closed_at: new Date().toISOString() }, author);
    expect(await syncOutbox(db, (e) => sendSale(cashier, e), undefined, { signedIn: author.id })).toEqual({ sent: 3, waiting: 0, rejected: 0 });

    const [flagged] = await w.rows<{ opened_in_conflict: boolean; review_reasons: string[]; cashier_id: string; difference: string }>(
      'select opened_in_conflict, review_reasons, cashier_id, difference from public.shifts where id = $1', [shiftId]);
    expect(flagged).toMatchObject({ opened_in_conflict: true, review_reasons: [`open_conflict:${firstId}`], cashier_id: w.userIds.cashier });
    // 500 float + 1524 cash sale expected; 2000 counted.
    expect(Number(flagged?.difference)).toBe(-24);
    expect(await activity(shiftId, 'shift.open_conflict')).toBe(1);
    const sales = await w.rows<{ shift_id: string; review_reasons: string[] }>('select shift_id, review_reasons from public.sales where id = $1', [saleId]);
    expect(sales).toEqual([{ shift_id: shiftId, review_reasons: [] }]);
    // The first shift is still the register's one open shift, and the index still refuses another plain open.
    expect(await w.rows('select id from public.shifts where register_id = $1 and closed_at is null', [reg.DT2])).toEqual([{ id: firstId }]);
    expect((await open(w.clients.manager, { register: reg.DT2 })).error?.code).toBe('23505');
    await closeAll(reg.DT2 as string);
  });

  it('while its flagged shift is open, the cashier\'s register finds it; others find the register\'s shift', async () => {
    const first = await open(w.clients.owner, { register: reg.DT1 });
    const mine = await open(w.clients.cashier, { register: reg.DT1, offline: true });
    expect((mine.data as { opened_in_conflict: boolean }).opened_in_conflict).toBe(true);
    expect(((await w.clients.cashier.rpc('current_shift', { _register_id: reg.DT1 })).data as { id: string }).id)
      .toBe((mine.data as { id: string }).id);
    expect(((await w.clients.manager.rpc('current_shift', { _register_id: reg.DT1 })).data as { id: string }).id)
      .toBe((first.data as { id: string }).id);
    await closeAll(reg.DT1 as string);
  });
});

describe('the outbox sends each entry under its author\'s sign-in', () => {
  it('a sale made by the cashier syncs as the cashier\'s even when the manager signed in first', async () => {
    const shift = await open(w.clients.cashier, { register: reg.DT1 });
    const shiftId = (shift.data as { id: string }).id;
    const db = await openPosDb(`authors-${randomUUID()}`);
    const saleId = randomUUID();
    await enqueue(db, 'sale', { id: saleId, register_id: reg.DT1, shift_id: shiftId, offline: true,
      lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1400 }], tenders: [{ kind: 'card', amount: 1524, tendered: 1524 }] },
    { id: w.userIds.cashier, label: 'Cashier' });
    const manager = w.clients.manager as unknown as StorewiseClient;
    const held = await syncOutbox(db, (e) => sendSale(manager, e), undefined, { signedIn: w.userIds.manager });
    expect(held).toEqual({ sent: 0, waiting: 1, rejected: 0, held: { count: 1, authors: ['Cashier'] } });
    expect(await w.rows('select 1 from public.sales where id = $1', [saleId])).toHaveLength(0);
    const cashier = w.clients.cashier as unknown as StorewiseClient;
    expect(await syncOutbox(db, (e) => sendSale(cashier, e), undefined, { signedIn: w.userIds.cashier }))
      .toEqual({ sent: 1, waiting: 0, rejected: 0 });
    expect(await w.rows('select cashier_id from public.sales where id = $1', [saleId])).toEqual([{ cashier_id: w.userIds.cashier }]);
    await closeAll(reg.DT1 as string);
  });
});

describe('pos_outbox_review', () => {
  const review = (client: SupabaseClient, over: Record<string, unknown> = {}) => client.rpc('pos_outbox_review', {
    _store_id: downtown, _entry_id: randomUUID(), _kind: 'sale', _action: 'discard', _reason: 'Duplicate of a paper receipt',
    _error: 'permission denied', _author_id: w.userIds.cashier, ...over } as never);

  it('owners and managers of the store record a retry or a discard with the reason; nobody else', async () => {
    const entry = randomUUID();
    expect((await review(w.clients.manager, { _entry_id: entry })).error).toBeNull();
    expect((await review(w.clients.owner, { _entry_id: entry, _action: 'retry', _reason: 'Access restored' })).error).toBeNull();
    const trail = await w.rows<{ kind: string; actor_id: string; after: { reason: string; kind: string; author_id: string } }>(
      'select kind, actor_id, after from public.activity where entity_id = $1 order by id', [entry]);
    expect(trail.map((t) => [t.kind, t.actor_id, t.after.reason, t.after.author_id])).toEqual([
      ['pos.outbox_discard', w.userIds.manager, 'Duplicate of a paper receipt', w.userIds.cashier],
      ['pos.outbox_retry', w.userIds.owner, 'Access restored', w.userIds.cashier],
    ]);
    expect((await review(w.clients.cashier)).error?.code).toBe('42501');
    expect((await review(w.clients.other)).error?.code).toBe('42501');
    expect((await review(w.clients.manager, { _store_id: riverside })).error?.code).toBe('42501');
    expect((await review(w.clients.anon)).error?.code).toMatch(/^(42501|PGRST202)$/);
    expect((await review(w.clients.manager, { _reason: 'x' })).error?.code).toBe('22023');
    expect((await review(w.clients.manager, { _action: 'delete' })).error?.code).toBe('22023');
  });
});
