/**
 * Shifts opened in conflict (an offline open while another shift was open, ADR 0165) and their review queue
 * (ADR 0169) over HTTP with supabase-js: owners and managers list the flagged shift with its register, cashier,
 * totals and the shift it overlapped, and resolve it once with a reason (activity 'shift.reviewed'); a cashier,
 * a manager of another store, another business and anon can neither list nor resolve; nobody writes
 * shift_reviews directly; a shift that is not flagged, a short reason and a second review are refused.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let first = '';
let flagged = '';
let register = '';

interface FlaggedShiftRow {
  shift_id: string;
  store_id: string;
  register_name: string;
  cashier_name: string | null;
  opening_float: number;
  sales_count: number;
  gross: number;
  review_reasons: string[];
  other_shift_id: string | null;
  other_cashier_name: string | null;
  reviewed_at: string | null;
  reviewer_name: string | null;
  reason: string | null;
  total_count: number;
}

const open = (client: SupabaseClient, offline: boolean) =>
  client.rpc('open_shift', { _id: randomUUID(), _register_id: register, _opening_float: 700,
    _opened_at: new Date().toISOString(), _offline: offline } as never);

beforeAll(async () => {
  w = await startCatalogWorld();
  [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`);
  await w.rows(`update public.shifts set closed_at = now(), counted = '{}', counted_total = 0 where closed_at is null`);
  const a = await open(w.clients.owner, false);
  if (a.error) throw new Error(a.error.message);
  first = (a.data as { id: string }).id;
  const b = await open(w.clients.cashier, true);
  if (b.error) throw new Error(b.error.message);
  flagged = (b.data as { id: string; opened_in_conflict: boolean }).id;
  const sale = await w.clients.cashier.rpc('post_sale', { _payload: {
    id: randomUUID(), register_id: register, shift_id: flagged, offline: true,
    lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1400 }], tenders: [{ kind: 'cash', amount: 1400 }] } });
  if (sale.error) throw new Error(sale.error.message);
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

const list = (who: 'owner' | 'manager' | 'cashier' | 'other' | 'anon', args: Record<string, unknown> = {}) =>
  w.clients[who].rpc('flagged_shifts', { _business_id: w.businessA, ...args });

describe('flagged shifts', () => {
  it('owners and managers see the flagged shift with its register, cashier, totals and the shift it overlapped', async () => {
    const [{ total } = { total: '' }] = await w.rows<{ total: string }>('select total from public.sales where shift_id = $1', [flagged]);
    for (const who of ['owner', 'manager'] as const) {
      const { data, error } = await list(who);
      expect(error).toBeNull();
      const rows = data as FlaggedShiftRow[];
      expect(rows.map((r) => r.shift_id)).toEqual([flagged]);
      expect(rows[0]).toMatchObject({
        store_id: downtown, register_name: expect.any(String), cashier_name: 'Member cashier', opening_float: 700,
        sales_count: 1, gross: Number(total), review_reasons: [`open_conflict:${first}`], other_shift_id: first,
        other_cashier_name: expect.any(String), reviewed_at: null, total_count: 1,
      });
    }
    // Filtered to another store: none.
    expect((await list('owner', { _store_id: riverside })).data).toEqual([]);
  });

  it('cashiers, another business and anon cannot list them; a bad page is a 400', async () => {
    expect((await list('cashier')).error?.code).toBe('42501');
    expect((await list('other')).error?.code).toBe('42501');
    expect((await list('anon')).error).not.toBeNull();
    expect((await list('owner', { _limit: 5000 })).error?.code).toBe('22023');
  });

  it('cashiers, another business, a manager of another store and anon cannot resolve; nobody writes directly', async () => {
    const reason = 'Two drawers counted together';
    expect((await w.clients.cashier.rpc('review_shift', { _shift_id: flagged, _reason: reason })).error?.code).toBe('42501');
    expect((await w.clients.other.rpc('review_shift', { _shift_id: flagged, _reason: reason })).error?.code).toBe('42501');
    expect((await w.clients.anon.rpc('review_shift', { _shift_id: flagged, _reason: reason })).error).not.toBeNull();
    expect((await w.clients.owner.rpc('review_shift', { _shift_id: randomUUID(), _reason: reason })).error?.code).toBe('42501');
    // The manager of Downtown on a flagged shift of Riverside.
    const [{ id: rs1 } = { id: '' }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'RS1'`);
    const [{ id: riversideShift } = { id: '' }] = await w.rows<{ id: string }>(
      `insert into public.shifts (business_id, store_id, register_id, opening_float, opened_in_conflict, review_reasons)
       values ($1, $2, $3, 0, true, '{open_conflict:unknown}') returning id`, [w.businessA, riverside, rs1]);
    expect((await w.clients.manager.rpc('review_shift', { _shift_id: riversideShift, _reason: reason })).error?.code).toBe('42501');
    expect(((await list('manager', { _store_id: riverside })).data as FlaggedShiftRow[])).toEqual([]);
    const owners = (await list('owner', { _store_id: riverside })).data as FlaggedShiftRow[];
    expect(owners.map((r) => [r.shift_id, r.other_shift_id])).toEqual([[riversideShift, null]]);
    for (const who of ['owner', 'manager', 'cashier'] as const) {
      const direct = await w.clients[who].from('shift_reviews').insert({ shift_id: flagged, business_id: w.businessA,
        store_id: downtown, reason });
      expect(direct.error?.code).toBe('42501');
    }
    expect(await w.rows('select 1 from public.shift_reviews')).toEqual([]);
  });

  it('refuses a shift that is not flagged and a reason under 3 characters', async () => {
    expect((await w.clients.owner.rpc('review_shift', { _shift_id: first, _reason: 'Looked at it' })).error?.code).toBe('22023');
    expect((await w.clients.owner.rpc('review_shift', { _shift_id: flagged, _reason: ' ok ' })).error?.code).toBe('22023');
    expect((await w.clients.owner.rpc('review_shift', { _shift_id: flagged, _reason: 'x'.repeat(501) })).error?.code).toBe('22023');
  });

  it('a manager resolves it once, with the reason in the trail; a second review is a 409', async () => {
    const { data, error } = await w.clients.manager.rpc('review_shift', { _shift_id: flagged, _reason: ' Both drawers counted; merged ' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ shift_id: flagged, reason: 'Both drawers counted; merged', reviewed_by: w.userIds.manager });
    const trail = await w.rows<{ actor_id: string; after: { reason: string; open_shift_id: string } }>(
      `select actor_id, after from public.activity where entity_id = $1 and kind = 'shift.reviewed'`, [flagged]);
    expect(trail).toEqual([{ actor_id: w.userIds.manager,
      after: expect.objectContaining({ reason: 'Both drawers counted; merged', open_shift_id: first }) }]);
    expect(((await list('owner')).data as FlaggedShiftRow[]).map((r) => r.shift_id)).not.toContain(flagged);
    const all = (await list('owner', { _include_reviewed: true })).data as FlaggedShiftRow[];
    expect(all.find((r) => r.shift_id === flagged)).toMatchObject({ reason: 'Both drawers counted; merged',
      reviewer_name: 'Member manager', reviewed_at: expect.any(String) });
    const again = await w.clients.owner.rpc('review_shift', { _shift_id: flagged, _reason: 'again' });
    expect(again.error?.code).toBe('23505');
    // Managers and owners read the review; the cashier does not.
    expect(((await w.clients.manager.from('shift_reviews').select('shift_id')).data ?? [])).toHaveLength(1);
    expect(((await w.clients.cashier.from('shift_reviews').select('shift_id')).data ?? [])).toHaveLength(0);
    // Nobody changes or removes a review through the API (no grant): the trail and the row stay as written.
    for (const who of ['owner', 'manager'] as const) {
      expect((await w.clients[who].from('shift_reviews').update({ reason: 'rewritten' }).eq('shift_id', flagged)).error?.code).toBe('42501');
      expect((await w.clients[who].from('shift_reviews').delete().eq('shift_id', flagged)).error?.code).toBe('42501');
    }
    expect(await w.rows('select reason from public.shift_reviews where shift_id = $1', [flagged])).toEqual([{ reason: 'Both drawers counted; merged' }]);
  });
});
