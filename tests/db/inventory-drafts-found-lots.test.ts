/**
 * 20261124120000_catalog_search_words.sql over HTTP with supabase-js: a draft purchase order's lines edited in one
 * audited call (edit_purchase_order_draft: owners, managers in their stores; drafts only; nothing half-written on a
 * bad line; the table API no longer updates or deletes lines), and a lot found during a count (post_count with a
 * lot number and expiry): the lot is created, the count posted as a ledger row, both in the activity trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;

beforeAll(async () => {
  w = await startCatalogWorld();
}, 180_000);

afterAll(async () => {
  await w?.stack.stop();
});

type Line = { variant_id: string; qty_ordered: string; unit_cost: string };
const linesOf = async (po: string) => (await w.rows<Line>(
  'select variant_id, qty_ordered, unit_cost from public.purchase_order_lines where purchase_order_id = $1 order by variant_id', [po]))
  .map((l) => [l.variant_id, Number(l.qty_ordered), Number(l.unit_cost)]);
const sorted = (rows: (string | number)[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
const activityCount = async (kind: string) => Number((await w.rows<{ n: string }>(
  'select count(*) as n from public.activity where business_id = $1 and kind = $2', [w.businessA, kind]))[0]?.n);

describe('edit_purchase_order_draft', () => {
  it('a manager changes a quantity and a cost, adds an item and removes one, recorded once in the trail', async () => {
    const before = await activityCount('purchase_order.lines_edited');
    const added = await w.clients.manager.rpc('edit_purchase_order_draft', {
      _purchase_order_id: w.f.poDowntown,
      _lines: [{ variant_id: w.f.variant, qty: 12, unit_cost: 650 }, { variant_id: w.f.kgVariant, qty: 2.5, unit_cost: 180 }],
    });
    expect(added.error).toBeNull();
    expect(added.data).toBe(2);
    expect(await linesOf(w.f.poDowntown)).toEqual(sorted([[w.f.variant, 12, 650], [w.f.kgVariant, 2.5, 180]]));

    // A line without a cost keeps its cost; a line left out is removed.
    const removed = await w.clients.manager.rpc('edit_purchase_order_draft', {
      _purchase_order_id: w.f.poDowntown, _lines: [{ variant_id: w.f.kgVariant, qty: 3 }],
    });
    expect(removed.error).toBeNull();
    expect(await linesOf(w.f.poDowntown)).toEqual([[w.f.kgVariant, 3, 180]]);

    const trail = await w.rows<{ actor_id: string; store_id: string; entity_id: string; before: { lines: unknown[] }; after: { lines: unknown[] } }>(
      `select actor_id, store_id, entity_id, before, after from public.activity
        where business_id = $1 and kind = 'purchase_order.lines_edited' order by id desc limit 2`, [w.businessA]);
    expect(await activityCount('purchase_order.lines_edited')).toBe(before + 2);
    expect(trail[0]).toMatchObject({ actor_id: w.userIds.manager, store_id: downtown, entity_id: w.f.poDowntown });
    expect(trail[0]?.before.lines).toHaveLength(2);
    expect(trail[0]?.after.lines).toEqual([{ variant_id: w.f.kgVariant, qty: 3, unit_cost: 180 }]);
    expect(trail[1]?.before.lines).toEqual([{ variant_id: w.f.variant, qty: 10, unit_cost: 700 }]);

    // The same lines again change nothing and log nothing.
    await w.clients.owner.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poDowntown, _lines: [{ variant_id: w.f.kgVariant, qty: 3 }] });
    expect(await activityCount('purchase_order.lines_edited')).toBe(before + 2);
  });

  it('a new item without a cost takes the variant\'s average cost', async () => {
    const { error } = await w.clients.owner.rpc('edit_purchase_order_draft', {
      _purchase_order_id: w.f.poRiverside, _lines: [{ variant_id: w.f.variant, qty: 10 }, { variant_id: w.f.variant2, qty: 1 }],
    });
    expect(error).toBeNull();
    const [cost] = await w.rows<{ cost: string }>('select cost from public.variant_costs where variant_id = $1', [w.f.variant2]);
    expect(await linesOf(w.f.poRiverside)).toEqual(sorted([[w.f.variant, 10, 700], [w.f.variant2, 1, Number(cost?.cost ?? 0)]]));
  });

  it('refuses a cashier, a manager outside its stores, another business, anon and the platform admin', async () => {
    const lines = [{ variant_id: w.f.variant, qty: 99 }];
    const before = await linesOf(w.f.poRiverside);
    const attempts = {
      cashier: await w.clients.cashier.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poDowntown, _lines: lines }),
      manager: await w.clients.manager.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poRiverside, _lines: lines }),
      other: await w.clients.other.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poRiverside, _lines: lines }),
      admin: await w.clients.admin.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poRiverside, _lines: lines }),
      anon: await w.clients.anon.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poRiverside, _lines: lines }),
    };
    for (const [name, result] of Object.entries(attempts)) expect([name, result.error?.code]).toEqual([name, '42501']);
    expect(await linesOf(w.f.poRiverside)).toEqual(before);
  });

  it('refuses an ordered order and bad lines with a plain message, writing nothing', async () => {
    const ordered = await linesOf(w.f.poOrdered);
    const notDraft = await w.clients.owner.rpc('edit_purchase_order_draft', {
      _purchase_order_id: w.f.poOrdered, _lines: [{ variant_id: w.f.variant, qty: 1 }],
    });
    expect(notDraft.error?.code).toBe('22023');
    expect(notDraft.error?.message).toMatch(/only a draft/);
    expect(await linesOf(w.f.poOrdered)).toEqual(ordered);

    const draft = await linesOf(w.f.poDowntown);
    for (const [lines, message] of [
      [[], /at least one line/],
      [[{ variant_id: w.f.variant, qty: 1 }, { variant_id: w.f.variant2, qty: 0 }], /quantity above zero/],
      [[{ variant_id: w.f.variant, qty: 1.5 }], /whole number/],
      [[{ variant_id: w.f.variant, qty: 2, unit_cost: -1 }], /cannot be negative/],
      [[{ variant_id: '00000000-0000-4000-8000-00000000abcd', qty: 2 }], /no such item/],
      [['not a line'], /quantity above zero/],
      [[{ variant_id: w.f.variant, qty: 'NaN' }], /too large/],
    ] as const) {
      const { error } = await w.clients.owner.rpc('edit_purchase_order_draft', { _purchase_order_id: w.f.poDowntown, _lines: lines });
      expect(error?.message).toMatch(message);
      expect(error?.code).toBe('22023');
    }
    expect(await linesOf(w.f.poDowntown)).toEqual(draft);
  });

  it('the table API no longer changes or removes lines, even for the owner (the trail would miss it)', async () => {
    const before = await linesOf(w.f.poDowntown);
    const update = await w.clients.owner.from('purchase_order_lines').update({ unit_cost: 1 }).eq('purchase_order_id', w.f.poDowntown);
    expect(update.error?.code).toBe('42501');
    const remove = await w.clients.owner.from('purchase_order_lines').delete().eq('purchase_order_id', w.f.poDowntown);
    expect(remove.error?.code).toBe('42501');
    expect(await linesOf(w.f.poDowntown)).toEqual(before);
  });
});

describe('purchase order lines are written only by the audited functions (20261125120000, ADR 0164)', () => {
  it('a direct insert of a line is refused, even into the owner\'s draft, and writes nothing', async () => {
    const before = await linesOf(w.f.poDowntown);
    for (const name of ['owner', 'manager'] as const) {
      const { error } = await w.clients[name].from('purchase_order_lines').insert({
        business_id: w.businessA, purchase_order_id: w.f.poDowntown, variant_id: w.f.variant2, qty_ordered: 3, unit_cost: 1,
      });
      expect(error?.code).toBe('42501');
    }
    expect(await linesOf(w.f.poDowntown)).toEqual(before);
  });

  it('create_reorder_purchase_order still drafts the order (as its owner), records its lines, and checks the caller', async () => {
    const before = await activityCount('purchase_order.lines_added');
    const { data: po, error } = await w.clients.manager.rpc('create_reorder_purchase_order', {
      _store_id: downtown, _supplier_id: w.f.supplier, _lines: [{ variant_id: w.f.variant, qty: 4 }, { variant_id: w.f.kgVariant, qty: 1.5 }],
    });
    expect(error).toBeNull();
    const [cost] = await w.rows<{ cost: string }>('select cost from public.variant_costs where variant_id = $1', [w.f.variant]);
    const [kgCost] = await w.rows<{ cost: string }>('select cost from public.variant_costs where variant_id = $1', [w.f.kgVariant]);
    expect(await linesOf(String(po))).toEqual(sorted([[w.f.variant, 4, Number(cost?.cost ?? 0)], [w.f.kgVariant, 1.5, Number(kgCost?.cost ?? 0)]]));
    expect(await activityCount('purchase_order.lines_added')).toBe(before + 1);
    const [entry] = await w.rows<{ actor_id: string; store_id: string; after: { source: string; lines: unknown[] } }>(
      `select actor_id, store_id, after from public.activity where kind = 'purchase_order.lines_added' and entity_id = $1`, [po]);
    expect(entry?.store_id).toBe(downtown);
    expect(entry?.actor_id).toBe(w.userIds.manager);
    expect(entry?.after.source).toBe('reorder');
    expect(entry?.after.lines).toHaveLength(2);

    // The checks the table's policies made are the function's own now.
    const refusals = [
      [w.clients.cashier, downtown, w.f.supplier, '42501'],
      [w.clients.manager, riverside, w.f.supplier, '42501'],
      [w.clients.other, downtown, w.f.supplier, '42501'],
    ] as const;
    const orders = async () => (await w.rows('select id from public.purchase_orders where business_id = $1', [w.businessA])).length;
    const count = await orders();
    for (const [client, store, supplier, code] of refusals) {
      const res = await client.rpc('create_reorder_purchase_order', { _store_id: store, _supplier_id: supplier,
        _lines: [{ variant_id: w.f.variant, qty: 1 }] });
      expect(res.error?.code).toBe(code);
    }
    const twice = await w.clients.owner.rpc('create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier,
      _lines: [{ variant_id: w.f.variant, qty: 1 }, { variant_id: w.f.variant, qty: 2 }] });
    expect(twice.error?.code).toBe('22023');
    expect(twice.error?.message).toMatch(/twice/);
    const fraction = await w.clients.owner.rpc('create_reorder_purchase_order', { _store_id: downtown, _supplier_id: w.f.supplier,
      _lines: [{ variant_id: w.f.variant, qty: 1.5 }] });
    expect(fraction.error?.code).toBe('22023');
    expect(fraction.error?.message).toMatch(/line 1: .*whole number/);
    expect(await orders()).toBe(count);
  });

  it('create_purchase_order records the new draft\'s lines too', async () => {
    const before = await activityCount('purchase_order.lines_added');
    const { data: po, error } = await w.clients.owner.rpc('create_purchase_order', {
      _store_id: riverside, _supplier_id: w.f.supplier, _lines: [{ variant_id: w.f.variant2, qty: 6, unit_cost: 321 }],
    });
    expect(error).toBeNull();
    expect(await linesOf(String(po))).toEqual([[w.f.variant2, 6, 321]]);
    expect(await activityCount('purchase_order.lines_added')).toBe(before + 1);
  });
});

describe('post_count with a lot found on the shelf', () => {
  const lotCount = async () => Number((await w.rows<{ n: string }>(
    'select count(*) as n from public.lots where variant_id = $1', [w.f.lotVariant]))[0]?.n);

  it('creates the lot, posts the count as a ledger row and records both', async () => {
    const createdBefore = await activityCount('lot.created');
    const { data, error } = await w.clients.manager.rpc('post_count', {
      _store_id: downtown,
      _lines: [{ variant_id: w.f.lotVariant, lot_number: ' L-FOUND-1 ', expires_on: '2031-01-31', counted: 4 },
        { variant_id: w.f.lotVariant, lot_id: w.f.lot, counted: 10 }],
    });
    expect(error).toBeNull();
    const rows = data as { lot_id: string; expected: number; counted: number; delta: number }[];
    const found = rows.find((r) => r.lot_id !== w.f.lot);
    expect(found).toMatchObject({ expected: 0, counted: 4, delta: 4 });
    const [lot] = await w.rows<{ id: string; lot_number: string; expires_on: string }>(
      `select id, lot_number, to_char(expires_on, 'YYYY-MM-DD') as expires_on from public.lots where id = $1`, [found?.lot_id]);
    expect(lot).toEqual({ id: found?.lot_id, lot_number: 'L-FOUND-1', expires_on: '2031-01-31' });
    const ledger = await w.rows<{ kind: string; qty: string; actor_id: string }>(
      'select kind, qty, actor_id from public.stock_movements where store_id = $1 and lot_id = $2', [downtown, lot?.id]);
    expect(ledger.map((m) => [m.kind, Number(m.qty), m.actor_id])).toEqual([['count', 4, w.userIds.manager]]);
    const [balance] = await w.rows<{ qty: string }>('select qty from public.stock_balances where store_id = $1 and lot_id = $2', [downtown, lot?.id]);
    expect(Number(balance?.qty)).toBe(4);
    expect(await activityCount('lot.created')).toBe(createdBefore + 1);

    // The next count sheet has a line for it.
    const sheet = await w.clients.manager.rpc('count_sheet', { _store_id: downtown, _variant_ids: [w.f.lotVariant] });
    expect((sheet.data as { lot_number: string }[]).map((r) => r.lot_number)).toContain('L-FOUND-1');
  });

  it('uses the business\'s lot of that number when the expiry agrees, refuses it when it does not', async () => {
    const lots = await lotCount();
    const same = await w.clients.owner.rpc('post_count', {
      _store_id: riverside, _lines: [{ variant_id: w.f.lotVariant, lot_number: 'L-FOUND-1', counted: 2 }],
    });
    expect(same.error).toBeNull();
    const other = await w.clients.owner.rpc('post_count', {
      _store_id: riverside, _lines: [{ variant_id: w.f.lotVariant, lot_number: 'L-FOUND-1', expires_on: '2031-02-01', counted: 2 }],
    });
    expect(other.error?.code).toBe('22023');
    expect(other.error?.message).toMatch(/recorded with expiry 2031-01-31/);
    expect(await lotCount()).toBe(lots);
  });

  it('refuses a cashier, another business, a lot without its expiry, an untracked item and a zero count, writing nothing', async () => {
    const lots = await lotCount();
    const movements = async () => Number((await w.rows<{ n: string }>(
      'select count(*) as n from public.stock_movements where business_id = $1', [w.businessA]))[0]?.n);
    const ledger = await movements();
    const found = (extra: Record<string, unknown>) => [{ variant_id: w.f.lotVariant, lot_number: 'L-NOPE', expires_on: '2031-03-01', counted: 1, ...extra }];
    expect((await w.clients.cashier.rpc('post_count', { _store_id: downtown, _lines: found({}) })).error?.code).toBe('42501');
    expect((await w.clients.other.rpc('post_count', { _store_id: downtown, _lines: found({}) })).error?.code).toBe('42501');
    for (const [lines, message] of [
      [found({ expires_on: null }), /expiry date/],
      [[{ variant_id: w.f.variant, lot_number: 'L-NOPE', counted: 1 }], /not tracked by lot/],
      [found({ counted: 0 }), /counted quantity above zero/],
      [found({ lot_id: w.f.lot }), /number alone/],
      [found({ lot_number: 'L'.repeat(61) }), /at most 60 characters/],
    ] as const) {
      const { error } = await w.clients.owner.rpc('post_count', { _store_id: downtown, _lines: lines });
      expect(error?.message).toMatch(message);
      expect(error?.code).toBe('22023');
    }
    expect(await lotCount()).toBe(lots);
    expect(await movements()).toBe(ledger);
  });
});
