/**
 * Sales flagged for review over HTTP with supabase-js: an offline sale at a stale price is kept and flagged;
 * owners and managers list it and record one review with a note (activity trail); a cashier, another business
 * and anon can neither list nor review; nobody writes sale_reviews directly; a second review is a 409.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let flagged = '';
let clean = '';

interface FlaggedRow {
  sale_id: string;
  receipt_number: string;
  review_reasons: string[];
  reviewed_at: string | null;
  note: string | null;
  reviewer_name: string | null;
  total_count: number;
}

beforeAll(async () => {
  w = await startCatalogWorld();
  const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(
    `select id from public.registers where receipt_prefix = 'DT1'`);
  const opened = await w.clients.cashier.rpc('open_shift', { _register_id: register, _opening_float: 0 });
  if (opened.error) throw new Error(opened.error.message);
  const shift = (opened.data as { id: string }).id;
  const post = async (offline: boolean, unitPrice: number) => {
    const id = randomUUID();
    const { error } = await w.clients.cashier.rpc('post_sale', { _payload: {
      id, register_id: register, shift_id: shift, offline,
      lines: [{ variant_id: w.f.variant, qty: 1, unit_price: unitPrice }],
      tenders: [{ kind: 'card', amount: 0 }],
    } });
    // The tender is deliberately wrong: offline it is flagged (tenders_mismatch), online it would be refused.
    if (error && offline) throw new Error(error.message);
    return id;
  };
  flagged = await post(true, 1);
  const [{ id: onlineId } = { id: '' }] = await w.rows<{ id: string }>(
    `select id from public.sales where business_id = $1 and not flagged_for_review limit 1`, [w.businessA]);
  clean = onlineId;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const list = (who: 'owner' | 'manager' | 'cashier' | 'other' | 'anon', includeReviewed = false) =>
  w.clients[who].rpc('flagged_sales', { _business_id: w.businessA, _include_reviewed: includeReviewed });

describe('flagged sales', () => {
  it('the offline sale is kept with its reasons and listed for the owner and the manager', async () => {
    for (const who of ['owner', 'manager'] as const) {
      const { data, error } = await list(who);
      expect(error).toBeNull();
      const row = (data as FlaggedRow[]).find((r) => r.sale_id === flagged);
      expect(row?.review_reasons).toEqual(expect.arrayContaining(['price_mismatch:1', 'tenders_mismatch']));
      expect(row?.reviewed_at).toBeNull();
    }
  });

  it('cashiers, another business and anon cannot list them', async () => {
    expect((await list('cashier')).error?.code).toBe('42501');
    expect((await list('other')).error?.code).toBe('42501');
    expect((await list('anon')).error).not.toBeNull();
  });

  it('bad paging is a 22023, not a server error', async () => {
    const { error } = await w.clients.owner.rpc('flagged_sales', { _business_id: w.businessA, _limit: 5000 });
    expect(error?.code).toBe('22023');
  });

  it('a cashier cannot review, nor can another business; nobody writes the table directly', async () => {
    expect((await w.clients.cashier.rpc('review_sale', { _sale_id: flagged, _note: 'fine' })).error?.code).toBe('42501');
    expect((await w.clients.other.rpc('review_sale', { _sale_id: flagged, _note: 'fine' })).error?.code).toBe('42501');
    const direct = await w.clients.owner.from('sale_reviews').insert({ sale_id: flagged, business_id: w.businessA,
      store_id: '5a000000-0000-4000-8000-000000000001', note: 'direct' });
    expect(direct.error?.code).toBe('42501');
    expect(await w.rows('select 1 from public.sale_reviews where sale_id = $1', [flagged])).toEqual([]);
  });

  it('an empty note and a sale that is not flagged are refused with 22023', async () => {
    expect((await w.clients.owner.rpc('review_sale', { _sale_id: flagged, _note: '   ' })).error?.code).toBe('22023');
    expect((await w.clients.owner.rpc('review_sale', { _sale_id: clean, _note: 'ok' })).error?.code).toBe('22023');
  });

  it('the manager reviews it once: it leaves the open list, stays in the full one, and the trail has it', async () => {
    const { error } = await w.clients.manager.rpc('review_sale', { _sale_id: flagged, _note: ' Till was offline; price checked. ' });
    expect(error).toBeNull();
    const open = (await list('owner')).data as FlaggedRow[];
    expect(open.some((r) => r.sale_id === flagged)).toBe(false);
    const all = (await list('owner', true)).data as FlaggedRow[];
    expect(all.find((r) => r.sale_id === flagged)).toMatchObject({
      note: 'Till was offline; price checked.', reviewer_name: 'Member manager',
    });
    const again = await w.clients.owner.rpc('review_sale', { _sale_id: flagged, _note: 'again' });
    expect(again.error?.code).toBe('23505');
    const trail = await w.rows<{ kind: string; actor_id: string }>(
      `select kind, actor_id from public.activity where entity_id = $1 and kind = 'sale.reviewed'`, [flagged]);
    expect(trail).toEqual([{ kind: 'sale.reviewed', actor_id: w.userIds.manager }]);
  });
});
