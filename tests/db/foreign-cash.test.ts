/**
 * Foreign cash at a manager's rate (issue 29, ADR 0395), over HTTP with supabase-js as each person: rates set by
 * owners and managers only, read only within the business, versioned and in the trail; post_sale accepts a foreign
 * cash tender at the rate it names and refuses a made-up rate or a wrong conversion with a 400 (an offline one is
 * kept and flagged; one at a rate replaced since is accepted); the drawer counted per currency at the close; a
 * refund of a foreign-cash sale pays back store currency. The conversion is the register's (shared/lib/exchange-rate).
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foreignChange, foreignDue, foreignValue } from '../../shared/lib/exchange-rate';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let register = '';
let shift = '';
let eur = { id: '', rate: '' };
let demoRates: string[] = [];

interface Sale { id: string; total: number; review_reasons: string[]; lines: { id: string; qty: number }[] }
interface Foreign { currency: string; tenders: number; expected: number; paid: number; change: number; counted: number | null; difference: number | null }
interface Figures { expected_cash: number; foreign_cash: Foreign[]; counted_total: number | null; difference: number | null }

const tee = { variant_id: '', qty: 1 };

async function post(client: SupabaseClient, payload: Record<string, unknown>) {
  return client.rpc('post_sale', { _payload: { id: randomUUID(), register_id: register, shift_id: shift, lines: [tee], ...payload } });
}

/** A euro tender for what the tee costs (1400 US cents), `given` euro cents handed over, as the register builds it. */
function euroTender(given: number, rate = eur, amount = 1400) {
  const value = foreignValue(given, rate.rate, 'EUR', 'USD');
  const change = foreignChange(value, amount, 0);
  return { kind: 'cash', amount, tendered: amount + change, currency: 'EUR', rate_id: rate.id, rate: rate.rate, foreign_tendered: given };
}

async function setRate(client: SupabaseClient, currency: string, rate: number | string, base = 'USD') {
  return client.rpc('set_exchange_rate', { _business_id: w.businessA, _currency: currency, _base_currency: base, _rate: rate });
}

beforeAll(async () => {
  w = await startCatalogWorld();
  tee.variant_id = w.f.variant;
  [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`);
  await w.rows('update public.stores set default_tax_rate = 0, tax_inclusive = true where id = $1', [downtown]);
  await w.rows('update public.products set tax_rate = 0 where id = $1', [w.f.product]);
  const opened = await w.clients.cashier.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (opened.error) throw new Error(opened.error.message);
  shift = (opened.data as { id: string }).id;
  // The demo's own rates (euros and Canadian dollars at Fresh Corner) are there before any test sets one.
  demoRates = (await w.rows<{ id: string }>('select id from public.exchange_rates where business_id = $1', [w.businessA]))
    .map((r) => r.id);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('exchange rates', () => {
  it('a manager sets a rate; a cashier and another business cannot; bad rates are a 400', async () => {
    const set = await setRate(w.clients.manager, 'EUR', '1.0825');
    expect(set.error).toBeNull();
    const row = set.data as { id: string; rate: number; currency: string; base_currency: string };
    expect([row.currency, row.base_currency, Number(row.rate)]).toEqual(['EUR', 'USD', 1.0825]);
    eur = { id: row.id, rate: '1.0825' };

    const cashier = await setRate(w.clients.cashier, 'EUR', '2');
    expect(cashier.error?.code).toBe('42501');
    const other = await setRate(w.clients.other, 'EUR', '2');
    expect(other.error?.code).toBe('42501');
    const anon = await setRate(w.clients.anon, 'EUR', '2');
    expect(anon.error).not.toBeNull();
    for (const [currency, rate, base] of [['EUR', 0, 'USD'], ['EUR', '1.00000000001', 'USD'], ['USD', 1, 'USD'],
      ['EUR', 1, 'CHF'], ['XXQ', 1, 'USD'], ['EUR', -1, 'USD']] as const) {
      const bad = await setRate(w.clients.owner, currency, rate, base);
      expect({ currency, rate, base, code: bad.error?.code }).toEqual({ currency, rate, base, code: '22023' });
    }
    // Nothing but the one good rate was written, and the cashier reads it (the register caches it).
    const seen = await w.clients.cashier.from('exchange_rates').select('id, currency, rate');
    expect(seen.data?.map((r) => r.id).sort()).toEqual([...demoRates, eur.id].sort());
    // Another business reads none of them; rows are never changed directly.
    const foreign = await w.clients.other.from('exchange_rates').select('id');
    expect(foreign.data).toEqual([]);
    const edit = await w.clients.owner.from('exchange_rates').update({ rate: 5 }).eq('id', eur.id).select();
    expect(edit.error?.code ?? (edit.data?.length === 0 ? 'none' : 'changed')).not.toBe('changed');
  });

  it('a new rate is a new row, the old is kept, and both are in the trail', async () => {
    const second = await setRate(w.clients.owner, 'GBP', '1.27');
    expect(second.error).toBeNull();
    const again = await setRate(w.clients.owner, 'GBP', '1.2725');
    expect(again.error).toBeNull();
    const rows = await w.rows<{ rate: string }>(`select rate::text from public.exchange_rates where business_id = $1 and currency = 'GBP'
      order by created_at, rate`, [w.businessA]);
    expect(rows.map((r) => Number(r.rate))).toEqual([1.27, 1.2725]);
    const trail = await w.rows<{ kind: string }>(`select kind from public.activity where business_id = $1 and entity_type = 'exchange_rate'`,
      [w.businessA]);
    expect(trail.map((t) => t.kind)).toEqual(Array(demoRates.length + 3).fill('exchange_rate.created'));
  });
});

describe('a sale paid in euros', () => {
  it('is accepted at the rate it names and records the rate, the euros and the dollars', async () => {
    // USD 14.00 at 1.0825 asks EUR 12.94; the customer hands EUR 20.00 (worth USD 21.65): change USD 7.65.
    expect(foreignDue(1400, eur.rate, 'EUR', 'USD')).toBe(1294);
    const sale = await post(w.clients.cashier, { tenders: [euroTender(2000)] });
    expect(sale.error).toBeNull();
    const [tender] = await w.rows<{ currency: string; rate_id: string; rate: string; foreign_tendered: string; amount: string; tendered: string; change: string }>(
      `select currency, rate_id, rate::text, foreign_tendered, amount, tendered, change from public.sale_tenders where sale_id = $1`,
      [(sale.data as Sale).id]);
    expect(tender && { ...tender, rate: Number(tender.rate), foreign_tendered: Number(tender.foreign_tendered), amount: Number(tender.amount),
      tendered: Number(tender.tendered), change: Number(tender.change) })
      .toEqual({ currency: 'EUR', rate_id: eur.id, rate: 1.0825, foreign_tendered: 2000, amount: 1400, tendered: 2165, change: 765 });

    // The reprint and the emailed receipt say what was handed over, as the printed one does (ADR 0410).
    const reprint = await w.clients.cashier.rpc('sale_receipt', { _sale_id: (sale.data as Sale).id });
    expect((reprint.data as { tenders: unknown[] }).tenders).toEqual([{ kind: 'cash', amount: 1400, tendered: 2165, change: 765,
      currency: 'EUR', rate: 1.0825, foreign_tendered: 2000 }]);
    const emailed = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: (sale.data as Sale).id, _email: 'eur@receipt.storewise.test' });
    expect(emailed.error).toBeNull();
    const [queued] = await w.rows<{ params: { tenders: unknown[] } }>(
      `select params from public.email_outbox where to_email = 'eur@receipt.storewise.test'`);
    expect(queued?.params.tenders).toEqual((reprint.data as { tenders: unknown[] }).tenders);
  });

  it('a made-up rate, a rate not its own, a wrong conversion or too few euros is a 400', async () => {
    const made = await post(w.clients.cashier, { tenders: [{ ...euroTender(2000), rate_id: randomUUID() }] });
    expect([made.error?.code, made.error?.message]).toEqual(['22023', 'no such EUR to USD exchange rate in this business']);
    const wrongValue = await post(w.clients.cashier, { tenders: [{ ...euroTender(2000), rate: '1.2' }] });
    expect(wrongValue.error?.code).toBe('22023');
    const moreChange = await post(w.clients.cashier, { tenders: [{ ...euroTender(2000), tendered: 2200 }] });
    expect(moreChange.error?.code).toBe('22023');
    expect(moreChange.error?.message).toMatch(/gives 765 change, not 800/);
    const short = await post(w.clients.cashier, { tenders: [euroTender(1293)] });
    expect(short.error?.code).toBe('22023');
    const card = await post(w.clients.cashier, { tenders: [{ ...euroTender(2000), kind: 'card' }] });
    expect(card.error?.code).toBe('22023');
    const [gbp] = await w.rows<{ id: string }>(`select id from public.exchange_rates where currency = 'GBP' limit 1`);
    const otherPair = await post(w.clients.cashier, { tenders: [{ ...euroTender(2000), rate_id: gbp?.id }] });
    expect(otherPair.error?.code).toBe('22023');
    const [{ n } = { n: '' }] = await w.rows<{ n: string }>(`select count(*) as n from public.sales where shift_id = $1`, [shift]);
    expect(Number(n)).toBe(1);
  });

  it('offline: a rate replaced since is accepted at the rate it names; a made-up one is kept and flagged', async () => {
    const replaced = await setRate(w.clients.manager, 'EUR', '1.1');
    expect(replaced.error).toBeNull();
    const late = await post(w.clients.cashier, { offline: true, occurred_at: new Date().toISOString(), tenders: [euroTender(1500)] });
    expect(late.error).toBeNull();
    expect((late.data as Sale).review_reasons).toEqual([]);
    const made = await post(w.clients.cashier, { offline: true, tenders: [{ ...euroTender(1500), rate_id: randomUUID() }] });
    expect(made.error).toBeNull();
    expect((made.data as Sale).review_reasons).toContain('foreign_cash_mismatch');
    const [kept] = await w.rows<{ rate_id: string | null; foreign_tendered: string }>(
      'select rate_id, foreign_tendered from public.sale_tenders where sale_id = $1', [(made.data as Sale).id]);
    expect(kept && { rate_id: kept.rate_id, foreign_tendered: Number(kept.foreign_tendered) }).toEqual({ rate_id: null, foreign_tendered: 1500 });
    // Online the replaced rate still names a real rate in effect before: post_sale takes it as well (ADR 0395).
    eur = { id: (replaced.data as { id: string }).id, rate: '1.1' };
  });

  it('a refund of a foreign-cash sale pays back store currency', async () => {
    const sale = await post(w.clients.cashier, { tenders: [euroTender(1300)] }); // EUR 13.00 at 1.1 = USD 14.30
    expect(sale.error).toBeNull();
    const s = sale.data as Sale;
    const refund = await w.clients.manager.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: s.id, shift_id: shift,
      tender_kind: 'cash', lines: [{ sale_line_id: s.lines[0]?.id, qty: 1 }] } });
    expect(refund.error).toBeNull();
    expect((refund.data as { total: number }).total).toBe(1400);
  });
});

describe('the drawer per currency', () => {
  it('expects the euros handed over, counts them at the close and shows the difference', async () => {
    const x = await w.clients.cashier.rpc('x_report', { _shift_id: shift });
    expect(x.error).toBeNull();
    const figures = x.data as Figures;
    const [sums] = await w.rows<{ euros: string; local: string; change: string; refunds: string }>(`
      select (select sum(t.foreign_tendered) from public.sale_tenders t join public.sales s on s.id = t.sale_id
               where s.shift_id = $1 and t.currency = 'EUR') as euros,
             (select coalesce(sum(t.amount), 0) from public.sale_tenders t join public.sales s on s.id = t.sale_id
               where s.shift_id = $1 and t.kind = 'cash' and t.currency is null) as local,
             (select sum(t.change) from public.sale_tenders t join public.sales s on s.id = t.sale_id
               where s.shift_id = $1 and t.currency is not null) as change,
             (select sum(total + cash_rounding) from public.refunds where shift_id = $1) as refunds`, [shift]);
    // EUR 20.00 + 15.00 + 15.00 + 13.00 handed over; the dollars went out as change and as the refund.
    expect(Number(sums?.euros)).toBe(6300);
    expect(figures.foreign_cash).toEqual([expect.objectContaining({ currency: 'EUR', tenders: 4, expected: 6300, counted: null })]);
    expect(figures.expected_cash).toBe(10000 + Number(sums?.local) - Number(sums?.change) - Number(sums?.refunds));

    const bad = await w.clients.cashier.rpc('close_shift', { _shift_id: shift, _counted: { 100: 1, foreign: { USD: 5 } } });
    expect(bad.error?.code).toBe('22023');
    const negative = await w.clients.cashier.rpc('close_shift', { _shift_id: shift, _counted: { foreign: { EUR: -5 } } });
    expect(negative.error?.code).toBe('22023');

    const closed = await w.clients.cashier.rpc('close_shift', { _shift_id: shift, _counted: { 100: 50, foreign: { EUR: 6250, GBP: 0 } } });
    expect(closed.error).toBeNull();
    const z = closed.data as Figures;
    expect(z.foreign_cash).toEqual([
      { currency: 'EUR', tenders: 4, expected: 6300, paid: 5600, change: expect.any(Number) as number, counted: 6250, difference: -50 },
      { currency: 'GBP', tenders: 0, expected: 0, paid: 0, change: 0, counted: 0, difference: 0 },
    ]);
    expect(z.counted_total).toBe(5000);
    expect(z.difference).toBe(5000 - figures.expected_cash);
    const again = await w.clients.cashier.rpc('z_report', { _shift_id: shift });
    expect((again.data as Figures).foreign_cash).toEqual(z.foreign_cash);
  });
});

describe('the database converts as the register does', () => {
  it.each([
    [500, '1.0825', 'EUR', 'USD'], [10000, '0.0067', 'JPY', 'USD'], [1000, '3.2525', 'KWD', 'USD'], [2000, '162.37', 'USD', 'JPY'],
    [2000, '0.3075', 'USD', 'KWD'], [5000, '0.33', 'EUR', 'KWD'], [7, '1454.3', 'KWD', 'KRW'], [123_457, '0.0000123457', 'VND', 'BHD'],
  ] as const)('%i %s at %s into %s', async (foreign, rate, currency, base) => {
    const [row] = await w.rows<{ v: string; c: string }>(
      'select private.foreign_cash_value($1, $2::numeric, $3, $4) as v, private.foreign_cash_change(private.foreign_cash_value($1, $2::numeric, $3, $4), 100, 5) as c',
      [foreign, rate, currency, base]);
    const value = foreignValue(foreign, rate, currency, base);
    expect({ v: Number(row?.v), c: Number(row?.c) }).toEqual({ v: value, c: foreignChange(value, 100, 5) });
  });
});
