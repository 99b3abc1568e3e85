/**
 * Packs for each kind of shop (issue 29), over HTTP with supabase-js as each person: packs by business type and
 * switched by the owner only; cash rounding on cash tenders (sales, refunds in parts, the shift's figures); a
 * scale label's weight or price checked by post_sale; serial numbers sold once under concurrency, flagged when an
 * offline sale repeats one, back in stock after a refund, found with their warranty end; and the balances still
 * equal the ledger.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../helpers/stack';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let register = '';
let shift = '';

interface Sale { id: string; total: number; cash_rounding: number; review_reasons: string[]; lines: { id: string; qty: number }[] }

async function post(client: SupabaseClient, payload: Record<string, unknown>) {
  return client.rpc('post_sale', { _payload: { id: randomUUID(), register_id: register, shift_id: shift, ...payload } });
}

/** The amount a tender of this kind must pay, read from the refusal's detail (the server is the arbiter). */
async function due(lines: Record<string, unknown>[], kind: string): Promise<number> {
  const probe = await post(w.clients.manager, { lines, tenders: [{ kind, amount: 0 }] });
  const total = Number(/total:(\d+)/.exec(probe.error?.details ?? '')?.[1] ?? NaN);
  if (!Number.isFinite(total)) throw new Error(`no total in ${probe.error?.message}`);
  return total;
}

async function drift() {
  return w.rows(`
    select b.store_id, b.variant_id, b.qty, coalesce(m.total, 0) as ledger
      from public.stock_balances b
      left join lateral (select sum(qty) as total from public.stock_movements m
                          where m.store_id = b.store_id and m.variant_id = b.variant_id
                            and m.lot_id is not distinct from b.lot_id) m on true
     where b.business_id = $1 and b.qty <> coalesce(m.total, 0)`, [w.businessA]);
}

beforeAll(async () => {
  w = await startCatalogWorld();
  [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`);
  const opened = await w.clients.manager.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (opened.error) throw new Error(opened.error.message);
  shift = (opened.data as { id: string }).id;
  // No tax in these sales, so the totals are plain: 1.234 kg of apples at 3.99 is 4.92.
  await w.rows('update public.stores set default_tax_rate = 0, tax_inclusive = true where id = $1', [downtown]);
  await w.rows('update public.products set tax_rate = 0 where id = (select product_id from public.variants where id = $1)', [w.f.kgVariant]);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('packs', () => {
  it('a new business gets the packs of its type; existing ones got theirs', async () => {
    const service = createTestClient(w.stack, 'service');
    const made = await service.auth.admin.createUser({ email: 'phones@packs.storewise.test', password: 'packs-pw-1234',
      email_confirm: true, user_metadata: { full_name: 'Pat Phones', business_name: 'Pat Phones', business_type: 'Electronics' } });
    expect(made.error).toBeNull();
    const rows = await w.rows<{ packs: string[] }>('select packs from public.businesses where owner_id = $1', [made.data.user?.id]);
    expect(rows).toEqual([{ packs: ['serials'] }]);
    // owner1's Fresh Corner Market is a Grocery in the seed.
    expect(await w.rows('select packs from public.businesses where id = $1', [w.businessA]))
      .toEqual([{ packs: ['scale_barcodes', 'lots_fefo'] }]);
  });

  it('only the owner switches a pack, only to a known pack, and the trail records it', async () => {
    const byManager = await w.clients.manager.rpc('set_business_pack', { _business_id: w.businessA, _pack: 'serials', _enabled: true });
    expect(byManager.error?.code).toBe('42501');
    const direct = await w.clients.owner.from('businesses').update({ packs: ['serials'] }).eq('id', w.businessA);
    expect(direct.error?.code).toBe('42501');
    const unknown = await w.clients.owner.rpc('set_business_pack', { _business_id: w.businessA, _pack: 'casino', _enabled: true });
    expect(unknown.error?.code).toBe('22023');
    const other = await w.clients.other.rpc('set_business_pack', { _business_id: w.businessA, _pack: 'serials', _enabled: true });
    expect(other.error?.code).toBe('42501');

    const on = await w.clients.owner.rpc('set_business_pack', { _business_id: w.businessA, _pack: 'serials', _enabled: true });
    expect(on.error).toBeNull();
    expect(on.data).toEqual(['lots_fefo', 'scale_barcodes', 'serials']);
    const off = await w.clients.owner.rpc('set_business_pack', { _business_id: w.businessA, _pack: 'scale_barcodes', _enabled: false });
    expect(off.data).toEqual(['lots_fefo', 'serials']);
    const { data } = await w.clients.cashier.from('businesses').select('packs').eq('id', w.businessA).single();
    expect(data?.packs).toEqual(['lots_fefo', 'serials']);
    const trail = await w.rows<{ before: string[]; after: string[] }>(`
      select before -> 'packs' as before, after -> 'packs' as after from public.activity
       where business_id = $1 and kind = 'business.updated' and before -> 'packs' is distinct from after -> 'packs'
       order by at, id`, [w.businessA]);
    expect(trail.map((t) => t.after)).toEqual([['lots_fefo', 'scale_barcodes', 'serials'], ['lots_fefo', 'serials']]);
    await w.clients.owner.rpc('set_business_pack', { _business_id: w.businessA, _pack: 'scale_barcodes', _enabled: true });
  });
});

describe('cash rounding', () => {
  const apples = (qty: number) => ({ variant_id: w.f.kgVariant, qty });

  beforeAll(async () => {
    await w.rows('update public.stores set cash_rounding_step = 5 where id = $1', [downtown]);
  });

  it('cash pays the total rounded to the step, card pays exact, and the sale keeps the rounding', async () => {
    // 1.234 kg at 3.99 = 4.92366 -> 492: cash pays 490, card 492.
    expect(await due([apples(1.234)], 'card')).toBe(492);
    expect(await due([apples(1.234)], 'cash')).toBe(490);
    const exact = await post(w.clients.manager, { lines: [apples(1.234)], tenders: [{ kind: 'cash', amount: 492, tendered: 500 }] });
    expect(exact.error?.code).toBe('22023');
    const cash = await post(w.clients.manager, { lines: [apples(1.234)], tenders: [{ kind: 'cash', amount: 490, tendered: 500 }] });
    expect(cash.error).toBeNull();
    const sale = cash.data as Sale;
    expect([sale.total, sale.cash_rounding]).toEqual([492, -2]);
    const card = await post(w.clients.manager, { lines: [apples(1.234)], tenders: [{ kind: 'card', amount: 492 }] });
    expect((card.data as Sale).cash_rounding).toBe(0);
    // Split: card pays 200 exact, cash the rest (292 -> 290).
    const split = await post(w.clients.manager, { lines: [apples(1.234)],
      tenders: [{ kind: 'card', amount: 200 }, { kind: 'cash', amount: 290 }] });
    expect(split.error).toBeNull();
    expect((split.data as Sale).cash_rounding).toBe(-2);
  });

  it('a cash refund in parts pays back together what the whole would, and the drawer counts it', async () => {
    // 1.003 kg -> 400 (3.99 x 1.003 = 4.00197) needs no rounding; 0.758 kg -> 302 (3.02442) pays 300 in cash.
    const cash = await post(w.clients.manager, { lines: [apples(1.003)], tenders: [{ kind: 'cash', amount: 400 }] });
    expect(cash.error).toBeNull();
    const sale = cash.data as Sale;
    expect([sale.total, sale.cash_rounding]).toEqual([400, 0]);
    const three = await post(w.clients.manager, { lines: [apples(0.758)], tenders: [{ kind: 'cash', amount: 300 }] });
    const s3 = three.data as Sale;
    expect([s3.total, s3.cash_rounding]).toEqual([302, -2]);
    const part = async (qty: number) => {
      const { data, error } = await w.clients.manager.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: s3.id,
        shift_id: shift, tender_kind: 'cash', lines: [{ sale_line_id: s3.lines[0]?.id, qty }] } });
      if (error) throw new Error(error.message);
      return data as { total: number; cash_rounding: number };
    };
    const first = await part(0.379);
    const second = await part(0.379);
    expect(first.total + second.total).toBe(302);
    expect(first.total + first.cash_rounding + second.total + second.cash_rounding).toBe(300);

    const before = await w.clients.manager.rpc('x_report', { _shift_id: shift });
    expect(before.error).toBeNull();
    const figures = before.data as { cash_rounding: number; refunds_cash_rounding: number; expected_cash: number; tenders: Record<string, number> };
    const [sums] = await w.rows<{ total: string; rounding: string; cash: string; refunded: string }>(`
      select (select sum(total) from public.sales where shift_id = $1) as total,
             (select sum(cash_rounding) from public.sales where shift_id = $1) as rounding,
             (select sum(t.amount) from public.sale_tenders t join public.sales s on s.id = t.sale_id where s.shift_id = $1 and t.kind = 'cash') as cash,
             (select sum(total + cash_rounding) from public.refunds where shift_id = $1 and tender_kind = 'cash') as refunded`, [shift]);
    expect(figures.cash_rounding).toBe(Number(sums?.rounding));
    expect(figures.refunds_cash_rounding).toBe(first.cash_rounding + second.cash_rounding);
    expect(figures.expected_cash).toBe(10000 + Number(sums?.cash) - Number(sums?.refunded));
  });

  it('a 0-decimal currency rounds in its own units', async () => {
    await w.rows(`update public.stores set currency = 'JPY', cash_rounding_step = 10 where id = $1`, [downtown]);
    try {
      // 3.99 "yen" per kg is 399 yen: 1.234 kg -> 492 yen, cash pays 490.
      expect(await due([apples(1.234)], 'cash')).toBe(490);
      expect(await due([apples(1.236)], 'cash')).toBe(490);
      expect(await due([apples(1.266)], 'cash')).toBe(510);
    } finally {
      await w.rows(`update public.stores set currency = 'USD', cash_rounding_step = 0 where id = $1`, [downtown]);
    }
  });
});

describe('scale labels', () => {
  let appleCode = '';
  beforeAll(async () => {
    await w.rows('update public.stores set cash_rounding_step = 0 where id = $1', [downtown]);
    // Item 00042 under 21.....{NNDDD}: its own barcode is the label with the value zeroed.
    appleCode = '210004200000' + String(gtin('210004200000'));
    // Under the price rule 22.....{NNNDD} the same item has a second base code.
    for (const code of [appleCode, '220004200000' + String(gtin('220004200000'))]) {
      await w.rows(`insert into public.barcodes (business_id, variant_id, code, kind) values ($1, $2, $3, 'ean13')`,
        [w.businessA, w.f.kgVariant, code]);
    }
  });

  it('owners and managers write rules, cashiers read them, bad patterns are refused', async () => {
    const bad = await w.clients.manager.from('scale_barcode_rules').insert({ business_id: w.businessA, name: 'Bad', pattern: '21....{NNDDD}', kind: 'weight' });
    expect(bad.error?.code).toBe('23514');
    const byCashier = await w.clients.cashier.from('scale_barcode_rules').insert({ business_id: w.businessA, name: 'Weight', pattern: '21.....{NNDDD}', kind: 'weight' });
    expect(byCashier.error?.code).toBe('42501');
    // The demo grocer has the weight (21) and price (22) rules already (supabase/seed.sql); a manager adds one.
    const again = await w.clients.manager.from('scale_barcode_rules').insert({ business_id: w.businessA, name: 'Weight',
      pattern: '21.....{NNDDD}', kind: 'weight' });
    expect(again.error?.code).toBe('23505');
    const added = await w.clients.manager.from('scale_barcode_rules').insert({ business_id: w.businessA, name: 'Deli',
      pattern: '2302....{NNDD}', kind: 'weight' });
    expect(added.error).toBeNull();
    const read = await w.clients.cashier.from('scale_barcode_rules').select('pattern, kind').eq('business_id', w.businessA).order('pattern');
    expect(read.data).toEqual([{ pattern: '21.....{NNDDD}', kind: 'weight' }, { pattern: '22.....{NNNDD}', kind: 'price' },
      { pattern: '2302....{NNDD}', kind: 'weight' }]);
    const other = await w.clients.other.from('scale_barcode_rules').select('pattern').eq('business_id', w.businessA);
    expect(other.data).toEqual([]);
  });

  it('post_sale checks the weight or the price a label carries', async () => {
    const weightLabel = label('2100042', '01234'); // 1.234 kg
    const ok = await post(w.clients.manager, { lines: [{ variant_id: w.f.kgVariant, qty: 1.234, scale_label: weightLabel }],
      tenders: [{ kind: 'card', amount: 492 }] });
    expect(ok.error).toBeNull();
    const wrongQty = await post(w.clients.manager, { lines: [{ variant_id: w.f.kgVariant, qty: 1.5, scale_label: weightLabel }],
      tenders: [{ kind: 'card', amount: 599 }] });
    expect(wrongQty.error?.code).toBe('22023');
    expect(wrongQty.error?.message).toMatch(/label says 1.234/);
    const badCheck = weightLabel.slice(0, 12) + String((Number(weightLabel[12]) + 1) % 10);
    const broken = await post(w.clients.manager, { lines: [{ variant_id: w.f.kgVariant, qty: 1.234, scale_label: badCheck }],
      tenders: [{ kind: 'card', amount: 492 }] });
    expect(broken.error?.message).toMatch(/check digit/);
    const otherItem = await post(w.clients.manager, { lines: [{ variant_id: w.f.variant, qty: 1, scale_label: weightLabel }],
      tenders: [{ kind: 'card', amount: 1400 }] });
    expect(otherItem.error?.message).toMatch(/not this one/);
    // Price label 22 00042 004.99 -> 499 / 399 = 1.251 kg (3.99 x 1.251 = 4.99149 -> 499).
    const priceLabel = label('2200042', '00499');
    const priced = await post(w.clients.manager, { lines: [{ variant_id: w.f.kgVariant, qty: 1.251, scale_label: priceLabel }],
      tenders: [{ kind: 'card', amount: 499 }] });
    expect(priced.error).toBeNull();
    // Offline: kept and flagged.
    const offline = await post(w.clients.manager, { offline: true, lines: [{ variant_id: w.f.kgVariant, qty: 2, scale_label: weightLabel }],
      tenders: [{ kind: 'card', amount: 798 }] });
    expect(offline.error).toBeNull();
    expect((offline.data as Sale).review_reasons).toContain('scale_label_mismatch:1');
  });
});

describe('serial numbers', () => {
  let phone = '';
  const imei = (body: string) => body + String(luhn(body));

  beforeAll(async () => {
    const [p] = await w.rows<{ id: string }>(`insert into public.products (business_id, name, serial_tracking, warranty_months, tax_rate)
      values ($1, 'Pocket Phone', 'imei', 24, 0) returning id`, [w.businessA]);
    const [v] = await w.rows<{ id: string }>(`insert into public.variants (business_id, product_id, sku, price)
      values ($1, $2, 'PHONE-1', 19900) returning id`, [w.businessA, p?.id]);
    phone = v?.id ?? '';
    await w.rows(`select private.apply_movement($1, $2, $3, null, 'opening', 5)`, [w.businessA, downtown, phone]);
  });

  it('units are received by owners and managers with valid IMEIs only, once', async () => {
    const byCashier = await w.clients.cashier.rpc('receive_serials', { _store_id: downtown, _variant_id: phone, _serials: [imei('35209900176148')] });
    expect(byCashier.error?.code).toBe('42501');
    const badLuhn = await w.clients.manager.rpc('receive_serials', { _store_id: downtown, _variant_id: phone,
      _serials: ['352099001761482'.slice(0, 14) + String((luhn('35209900176148') + 1) % 10)] });
    expect(badLuhn.error?.code).toBe('22023');
    expect(badLuhn.error?.message).toMatch(/Luhn/);
    const ok = await w.clients.manager.rpc('receive_serials', { _store_id: downtown, _variant_id: phone,
      _serials: [imei('35209900176148'), imei('35209900176149'), imei('35209900176150')] });
    expect(ok.error).toBeNull();
    expect(ok.data).toBe(3);
    const again = await w.clients.manager.rpc('receive_serials', { _store_id: downtown, _variant_id: phone, _serials: [imei('35209900176148')] });
    expect(again.error?.code).toBe('23505');
  });

  it('a serial is sold once even when two registers sell it at the same moment', async () => {
    const [r2] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT2'`);
    const opened = await w.clients.cashier.rpc('open_shift', { _register_id: r2?.id, _opening_float: 0 });
    const cashierShift = (opened.data as { id: string }).id;
    const line = { variant_id: phone, qty: 1, serial: imei('35209900176148') };
    const tenders = [{ kind: 'card', amount: 19900 }];
    const results = await Promise.all([
      post(w.clients.manager, { lines: [line], tenders }),
      w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: r2?.id, shift_id: cashierShift, lines: [line], tenders } }),
    ]);
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    expect(results.find((r) => r.error)?.error?.code).toBe('23505');
    expect(await w.rows(`select status from public.serial_numbers where serial = $1`, [line.serial])).toEqual([{ status: 'sold' }]);

    const noSerial = await post(w.clients.manager, { lines: [{ variant_id: phone, qty: 1 }], tenders });
    expect(noSerial.error?.code).toBe('22023');
    const two = await post(w.clients.manager, { lines: [{ variant_id: phone, qty: 2, serial: imei('35209900176149') }],
      tenders: [{ kind: 'card', amount: 39800 }] });
    expect(two.error?.message).toMatch(/one unit per line/);
    const unknown = await post(w.clients.manager, { lines: [{ ...line, serial: imei('35209900176199') }], tenders });
    expect(unknown.error?.message).toMatch(/never received/);
  });

  it('offline a repeated serial is kept and flagged; a refund puts a unit back; find_serial shows the warranty', async () => {
    const line = { variant_id: phone, qty: 1, serial: imei('35209900176148') };
    const offline = await post(w.clients.manager, { offline: true, lines: [line], tenders: [{ kind: 'card', amount: 19900 }] });
    expect(offline.error).toBeNull();
    expect((offline.data as Sale).review_reasons).toContain('serial_duplicate:1');

    const sold = await post(w.clients.manager, { lines: [{ ...line, serial: imei('35209900176150') }], tenders: [{ kind: 'card', amount: 19900 }] });
    expect(sold.error).toBeNull();
    const sale = sold.data as Sale;
    const refund = await w.clients.manager.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: sale.id, shift_id: shift,
      lines: [{ sale_line_id: sale.lines[0]?.id, qty: 1 }] } });
    expect(refund.error).toBeNull();
    expect(await w.rows(`select status from public.serial_numbers where serial = $1`, [imei('35209900176150')])).toEqual([{ status: 'in_stock' }]);
    const resold = await post(w.clients.manager, { lines: [{ ...line, serial: imei('35209900176150') }], tenders: [{ kind: 'card', amount: 19900 }] });
    expect(resold.error).toBeNull();

    const found = await w.clients.manager.rpc('find_serial', { _business_id: w.businessA, _serial: imei('35209900176150') });
    expect(found.error).toBeNull();
    const [unit] = found.data as { status: string; warranty_months: number; warranty_ends_on: string; sales: { refunds: unknown[] }[] }[];
    expect(unit?.status).toBe('sold');
    expect(unit?.sales).toHaveLength(2);
    expect(unit?.sales[0]?.refunds).toHaveLength(1);
    // Counted from the selling store's local day (ADR 0365).
    const [{ ends } = { ends: '' }] = await w.rows<{ ends: string }>(
      `select to_char(((s.occurred_at at time zone st.time_zone)::date + interval '24 months')::date, 'YYYY-MM-DD') as ends
         from public.sales s join public.stores st on st.id = s.store_id where s.id = $1`,
      [(resold.data as Sale).id]);
    expect(unit?.warranty_ends_on).toBe(ends);
    // A cashier looks a serial up for a warranty claim, without the customer (tests/db/serial-lookup.test.ts).
    const byCashier = await w.clients.cashier.rpc('find_serial', { _business_id: w.businessA, _serial: imei('35209900176150') });
    expect(byCashier.error).toBeNull();
    expect((byCashier.data as { sales: { customer: unknown }[] }[])[0]?.sales.every((s) => s.customer === null)).toBe(true);
  });

  it('the balances still equal the ledger', async () => {
    expect(await drift()).toEqual([]);
  });
});

/** GS1 check digit (weights 3,1 from the right), written out here rather than imported so the test is independent. */
function gtin(body: string): number {
  let sum = 0;
  [...body].reverse().forEach((d, i) => { sum += Number(d) * (i % 2 === 0 ? 3 : 1); });
  return (10 - (sum % 10)) % 10;
}
function label(prefixAndItem: string, value: string): string {
  const body = prefixAndItem + value;
  return body + String(gtin(body));
}
function luhn(body: string): number {
  let sum = 0;
  [...body].reverse().forEach((d, i) => {
    const n = Number(d) * (i % 2 === 0 ? 2 : 1);
    sum += n > 9 ? n - 9 : n;
  });
  return (10 - (sum % 10)) % 10;
}
