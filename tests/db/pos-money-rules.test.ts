/**
 * Money and trust inside one business (issue 22, ADR 0171), over HTTP with supabase-js as each person. Every case
 * here was possible before 20261127100000_pos_money_rules.sql: a cashier's refund without a manager by claiming
 * "offline", partial refunds of a weighed line paying back twice its price, weighed lines sold for nothing, any
 * date, a closed shift's Z report changing afterwards, and a manager clearing their own flags.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
const reg: Record<string, string> = {};
let managerShift = '';
let cashierShift = '';

interface Sale { id: string; receipt_number: string; total: number; occurred_at: string; review_reasons: string[];
  lines: { id: string; line_total: number }[] }
interface Refund { id: string; total: number; tender_kind: string; review_reasons: string[]; occurred_at: string; shift_id: string }

async function openShift(client: SupabaseClient, register: string): Promise<string> {
  const { data, error } = await client.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}

/** An online sale paid by one tender of exactly its total (the server's total, read from its refusal's detail). */
async function sell(client: SupabaseClient, register: string, shift: string, lines: Record<string, unknown>[],
  kind = 'card', extra: Record<string, unknown> = {}): Promise<Sale> {
  const payload = { id: randomUUID(), register_id: register, shift_id: shift, lines, ...extra };
  const probe = await client.rpc('post_sale', { _payload: { ...payload, tenders: [{ kind, amount: 0 }] } });
  const total = Number(/total:(\d+)/.exec(probe.error?.details ?? '')?.[1] ?? NaN);
  if (!Number.isFinite(total)) throw new Error(`no total in ${probe.error?.message}`);
  const { data, error } = await client.rpc('post_sale', { _payload: { ...payload, id: randomUUID(), tenders: [{ kind, amount: total }] } });
  if (error) throw new Error(error.message);
  return data as Sale;
}

async function refund(client: SupabaseClient, payload: Record<string, unknown>) {
  const { data, error } = await client.rpc('post_refund', { _payload: { id: randomUUID(), ...payload } });
  return { refund: data as Refund | null, error };
}

beforeAll(async () => {
  w = await startCatalogWorld();
  for (const r of await w.rows<{ id: string; receipt_prefix: string }>(
    `select id, receipt_prefix from public.registers where receipt_prefix in ('DT1', 'DT2')`)) reg[r.receipt_prefix] = r.id;
  managerShift = await openShift(w.clients.manager, reg.DT1 as string);
  cashierShift = await openShift(w.clients.cashier, reg.DT2 as string);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const tee = () => ({ variant_id: w.f.variant, qty: 1 });

describe('offline is a claim: a cashier refunds without a manager only within bounds (finding 1)', () => {
  it('not into another person\'s shift, not to another tender, not above the store\'s limit', async () => {
    const sale = await sell(w.clients.cashier, reg.DT2 as string, cashierShift, [tee()]);
    const line = { sale_line_id: sale.lines[0]?.id, qty: 1 };
    const intoManagers = await refund(w.clients.cashier, { sale_id: sale.id, shift_id: managerShift, offline: true, lines: [line] });
    expect(intoManagers.error?.code).toMatch(/^(42501|22023)$/);
    const toCash = await refund(w.clients.cashier, { sale_id: sale.id, shift_id: cashierShift, offline: true, tender_kind: 'cash',
      lines: [line] });
    expect(toCash.error?.code).toBe('42501');
    expect(toCash.error?.message).toMatch(/original tender \(card\)/);
    const big = await sell(w.clients.cashier, reg.DT2 as string, cashierShift, [{ variant_id: w.f.variant, qty: 10 }]);
    const tooMuch = await refund(w.clients.cashier, { sale_id: big.id, shift_id: cashierShift, offline: true,
      lines: [{ sale_line_id: big.lines[0]?.id, qty: 5 }] });
    expect(tooMuch.error?.code).toBe('42501');
    expect(tooMuch.error?.message).toMatch(/at most 5000/);
    expect(await w.rows('select 1 from public.refunds where sale_id = any($1::uuid[])', [[sale.id, big.id]])).toEqual([]);
  });

  it('an offline sale at an invented price cannot be paid back in cash: the drawer never goes negative', async () => {
    const invented = { id: randomUUID(), register_id: reg.DT2, shift_id: cashierShift, offline: true,
      lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 110_000_000 }], tenders: [{ kind: 'card', amount: 119_762_500 }] };
    const posted = await w.clients.cashier.rpc('post_sale', { _payload: invented });
    expect(posted.error).toBeNull();
    const sale = posted.data as Sale;
    expect(sale.review_reasons).toContain('price_mismatch:1');
    const before = (await w.clients.cashier.rpc('x_report', { _shift_id: cashierShift })).data as { expected_cash: number };
    for (const tender_kind of ['cash', 'card']) {
      const attempt = await refund(w.clients.cashier, { sale_id: sale.id, shift_id: cashierShift, offline: true, tender_kind,
        lines: [{ sale_line_id: sale.lines[0]?.id, qty: 1 }] });
      expect(attempt.error?.code).toBe('42501');
    }
    const after = (await w.clients.cashier.rpc('x_report', { _shift_id: cashierShift })).data as { expected_cash: number };
    expect(after.expected_cash).toBe(before.expected_cash);
    expect(after.expected_cash).toBeGreaterThanOrEqual(0);
  });

  it('a refund taken on offline terms is listed for the manager beside flagged sales, with the sale it refunds', async () => {
    const sale = await sell(w.clients.cashier, reg.DT2 as string, cashierShift, [tee()]);
    const done = await refund(w.clients.cashier, { sale_id: sale.id, shift_id: cashierShift, offline: true,
      lines: [{ sale_line_id: sale.lines[0]?.id, qty: 1 }] });
    expect(done.error).toBeNull();
    expect(done.refund).toMatchObject({ tender_kind: 'card', review_reasons: ['no_approval'], shift_id: cashierShift });
    const listed = await w.clients.manager.rpc('flagged_refunds', { _business_id: w.businessA });
    expect(listed.error).toBeNull();
    const row = (listed.data as { refund_id: string; sale_receipt_number: string; review_reasons: string[] }[])
      .find((r) => r.refund_id === done.refund?.id);
    expect(row).toMatchObject({ sale_receipt_number: sale.receipt_number, review_reasons: ['no_approval'] });
    expect((await w.clients.cashier.rpc('flagged_refunds', { _business_id: w.businessA })).error?.code).toBe('42501');
    const reviewed = await w.clients.manager.rpc('review_refund', { _refund_id: done.refund?.id, _note: 'Customer brought it back; checked' });
    expect(reviewed.error).toBeNull();
    const open = await w.clients.manager.rpc('flagged_refunds', { _business_id: w.businessA });
    expect((open.data as { refund_id: string }[]).some((r) => r.refund_id === done.refund?.id)).toBe(false);
  });
});

describe('partial refunds are priced from cumulative quantities (finding 2)', () => {
  it('0.999 kg refunded by the gram in 34 calls pays back the line, not twice it; each call is one merged line', async () => {
    await w.rows(`insert into public.store_prices (business_id, store_id, variant_id, price) values ($1, $2, $3, 459)
                  on conflict (store_id, variant_id) do update set price = excluded.price`, [w.businessA, downtown, w.f.kgVariant]);
    const sale = await sell(w.clients.manager, reg.DT1 as string, managerShift, [{ variant_id: w.f.kgVariant, qty: 0.999 }]);
    const line = sale.lines[0]!;
    expect(line.line_total).toBe(500);
    let paid = 0;
    // 999 grams in parts of at most 30 lines (the refund's line cap): 33 calls of 30 and one of 9.
    for (let call = 0; call < 34; call++) {
      const n = call < 33 ? 30 : 9;
      const res = await refund(w.clients.manager, { sale_id: sale.id, shift_id: managerShift, tender_kind: 'card',
        lines: Array.from({ length: n }, () => ({ sale_line_id: line.id, qty: 0.001, disposition: 'damaged' })) });
      expect(res.error).toBeNull();
      paid += Number(res.refund?.total);
      expect(paid).toBeLessThanOrEqual(line.line_total);
      expect(await w.rows('select 1 from public.refund_lines where refund_id = $1', [res.refund?.id])).toHaveLength(1);
    }
    expect(paid).toBe(line.line_total);
  });
});

describe('weighed lines that price to nothing (finding 3)', () => {
  it('are refused online and flagged from the offline outbox', async () => {
    const crumbs = Array.from({ length: 500 }, () => ({ variant_id: w.f.kgVariant, qty: 0.001 }));
    const online = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT2,
      shift_id: cashierShift, lines: crumbs, tenders: [{ kind: 'cash', amount: 0 }] } });
    expect(online.error?.code).toBe('22023');
    expect(online.error?.message).toMatch(/too little to charge/);
    const offline = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT2,
      shift_id: cashierShift, offline: true, lines: crumbs.slice(0, 3), tenders: [{ kind: 'cash', amount: 0 }] } });
    expect(offline.error).toBeNull();
    expect((offline.data as Sale).review_reasons).toEqual(expect.arrayContaining(['zero_price_line:1', 'zero_price_line:3']));
  });
});

describe('dates (finding 4)', () => {
  const yearsAgo = '2001-01-01T10:00:00Z';

  it('an online sale or refund takes the server\'s time, whatever the register sends', async () => {
    const sale = await sell(w.clients.cashier, reg.DT2 as string, cashierShift, [tee()], 'card', { occurred_at: yearsAgo });
    expect(Math.abs(Date.parse(sale.occurred_at) - Date.now())).toBeLessThan(120_000);
    const back = await refund(w.clients.manager, { sale_id: sale.id, shift_id: managerShift, occurred_at: yearsAgo,
      lines: [{ line_no: 1, qty: 1 }] });
    expect(back.error).toBeNull();
    expect(Math.abs(Date.parse(back.refund?.occurred_at ?? '') - Date.now())).toBeLessThan(120_000);
  });

  it('an offline entry is kept inside its shift and flagged when moved; -infinity is refused', async () => {
    const opened = (await w.rows<{ opened_at: string }>('select opened_at::text from public.shifts where id = $1', [cashierShift]))[0]?.opened_at;
    const old = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT2, shift_id: cashierShift,
      offline: true, occurred_at: '4713-01-01 00:00:00+00 BC', lines: [tee()], tenders: [{ kind: 'card', amount: 1524 }] } });
    expect(old.error).toBeNull();
    expect(Date.parse((old.data as Sale).occurred_at)).toBe(Date.parse(opened ?? ''));
    expect((old.data as Sale).review_reasons).toContain('time_before_shift');
    const never = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT2, shift_id: cashierShift,
      offline: true, occurred_at: '-infinity', lines: [tee()], tenders: [{ kind: 'card', amount: 1524 }] } });
    expect(never.error?.code).toBe('22023');
  });

  it('a shift opened offline is dated no earlier than its register', async () => {
    const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(
      `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, 'Pop-up till', 'POP')
       returning id`, [w.businessA, downtown]);
    const { data, error } = await w.clients.manager.rpc('open_shift', { _id: randomUUID(), _register_id: register,
      _opening_float: 0, _opened_at: yearsAgo, _offline: true });
    expect(error).toBeNull();
    expect(Date.parse((data as { opened_at: string }).opened_at)).toBeGreaterThan(Date.parse('2026-01-01'));
  });
});

describe('a closed shift stays closed (finding 5)', () => {
  it('the Z report is frozen at the close; a late offline refund shows apart; online nothing goes into it', async () => {
    const shift = cashierShift;
    const sale = await sell(w.clients.cashier, reg.DT2 as string, shift, [{ variant_id: w.f.variant, qty: 2 }]);
    const closed = await w.clients.cashier.rpc('close_shift', { _shift_id: shift, _counted: { 10000: 1 } });
    expect(closed.error).toBeNull();
    const z = (await w.clients.cashier.rpc('z_report', { _shift_id: shift })).data as Record<string, unknown>;
    expect(z.after_close).toBeNull();
    const online = await refund(w.clients.manager, { sale_id: sale.id, shift_id: shift, lines: [{ line_no: 1, qty: 1 }] });
    expect(online.error?.code).toMatch(/^(22023|42501)$/);
    const late = await refund(w.clients.cashier, { sale_id: sale.id, shift_id: shift, offline: true, lines: [{ line_no: 1, qty: 1 }] });
    expect(late.error).toBeNull();
    expect(late.refund?.review_reasons).toEqual(expect.arrayContaining(['after_close', 'no_approval']));
    const again = (await w.clients.cashier.rpc('z_report', { _shift_id: shift })).data as Record<string, unknown>;
    const { after_close: afterClose, ...frozen } = again;
    const { after_close: _none, ...atClose } = z;
    expect(frozen).toEqual(atClose);
    expect(afterClose).toMatchObject({ refunds_count: 1, refunds_total: late.refund?.total });
    cashierShift = await openShift(w.clients.cashier, reg.DT2 as string);
  });

  it('a cashier puts nothing into another person\'s open shift, even with an approval', async () => {
    const sale = await sell(w.clients.cashier, reg.DT2 as string, cashierShift, [tee()]);
    const approval = await w.clients.manager.rpc('approve_discount', { _store_id: downtown, _max_discount_percent: 0, _purpose: 'refund' });
    const res = await refund(w.clients.cashier, { sale_id: sale.id, shift_id: managerShift, approval_id: approval.data,
      lines: [{ line_no: 1, qty: 1 }] });
    expect(res.error?.code).toBe('42501');
    const sold = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT1, shift_id: managerShift,
      lines: [tee()], tenders: [{ kind: 'card', amount: 1524 }] } });
    expect(sold.error?.code).toBe('42501');
  });
});

describe('the smaller holes (finding 12)', () => {
  it('a cashier finds any receipt of the store to refund it, but reads only their own shifts\' sales', async () => {
    const managers = await sell(w.clients.manager, reg.DT1 as string, managerShift, [tee()]);
    const found = await w.clients.cashier.rpc('find_sale_for_refund', { _store_id: downtown, _receipt_number: managers.receipt_number.toLowerCase() });
    expect(found.error).toBeNull();
    expect(found.data).toMatchObject({ id: managers.id, lines: [{ line_no: 1, qty: 1, refunded: 0 }], tenders: [{ kind: 'card' }] });
    expect((await w.clients.cashier.from('sales').select('id').eq('id', managers.id)).data).toEqual([]);
    expect((await w.clients.other.rpc('find_sale_for_refund', { _store_id: downtown, _receipt_number: managers.receipt_number })).error?.code)
      .toBe('42501');
  });

  it('an outbox entry\'s author is a member of the business', async () => {
    const args = { _store_id: downtown, _entry_id: randomUUID(), _kind: 'sale', _action: 'discard', _reason: 'Rung twice', _error: 'x' };
    expect((await w.clients.manager.rpc('pos_outbox_review', { ...args, _author_id: randomUUID() })).error?.code).toBe('22023');
    expect((await w.clients.manager.rpc('pos_outbox_review', { ...args, _author_id: w.userIds.cashier })).error).toBeNull();
  });

  it('a manager does not clear their own flagged sale; the owner does', async () => {
    const mine = await w.clients.manager.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT1, shift_id: managerShift,
      offline: true, lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1 }], tenders: [{ kind: 'card', amount: 1 }] } });
    expect(mine.error).toBeNull();
    const id = (mine.data as Sale).id;
    expect((await w.clients.manager.rpc('review_sale', { _sale_id: id, _note: 'Fine' })).error?.code).toBe('42501');
    expect((await w.clients.owner.rpc('review_sale', { _sale_id: id, _note: 'Checked with the manager' })).error).toBeNull();
  });

  it('a receipt sequence far ahead of the register is not taken', async () => {
    const forged = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: reg.DT2, shift_id: cashierShift,
      receipt_seq: 999_999_999_999, lines: [tee()], tenders: [{ kind: 'card', amount: 1524 }] } });
    expect(forged.error).toBeNull();
    expect((forged.data as Sale).receipt_number).not.toMatch(/999999999999/);
    expect((forged.data as Sale).review_reasons).toContain('receipt_number_reassigned');
    const counter = await w.rows<{ last_seq: string }>('select last_seq::text from private.register_counters where register_id = $1', [reg.DT2]);
    expect(Number(counter[0]?.last_seq)).toBeLessThan(1_000_000);
  });
});

describe('the refund limit without a manager', () => {
  it('is the owner\'s to change, not a manager\'s', async () => {
    const byManager = await w.clients.manager.from('stores').update({ offline_refund_limit: 900_000 }).eq('id', downtown).select('id');
    expect(byManager.error?.code).toBe('42501');
    const sameValue = await w.clients.manager.from('stores').update({ offline_refund_limit: 5000, name: 'Fresh Corner Downtown' }).eq('id', downtown).select('id');
    expect(sameValue.error).toBeNull();
    const byOwner = await w.clients.owner.from('stores').update({ offline_refund_limit: 2000 }).eq('id', downtown).select('offline_refund_limit');
    expect(byOwner.data).toEqual([{ offline_refund_limit: 2000 }]);
    const bad = await w.clients.owner.from('stores').update({ offline_refund_limit: -1 }).eq('id', downtown).select('id');
    expect(bad.error?.code).toBe('23514');
    await w.clients.owner.from('stores').update({ offline_refund_limit: 5000 }).eq('id', downtown);
  });
});

describe('the same date rule in the back office', () => {
  it('a stock entry is dated at most 7 days back and not in the future', async () => {
    const args = { _store_id: downtown, _variant_id: w.f.variant, _qty: 1 };
    for (const at of ['2001-01-01T00:00:00Z', new Date(Date.now() + 86_400_000).toISOString()]) {
      const res = await w.clients.manager.rpc('receive_stock', { ...args, _occurred_at: at });
      expect(res.error?.code, at).toBe('22023');
    }
    const count = await w.clients.manager.rpc('post_count', { _store_id: downtown, _lines: [{ variant_id: w.f.variant, counted: 40 }],
      _occurred_at: '1999-12-31T00:00:00Z' });
    expect(count.error?.code).toBe('22023');
    const yesterday = await w.clients.manager.rpc('receive_stock', { ...args, _occurred_at: new Date(Date.now() - 86_400_000).toISOString() });
    expect(yesterday.error).toBeNull();
  });
});
