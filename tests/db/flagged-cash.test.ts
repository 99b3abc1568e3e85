/**
 * Flagged cash movements (issue 25, ADR 0402, 20261204120200_flagged_cash_movements.sql) over HTTP with supabase-js:
 * a paid-out rung offline under a PIN switch whose proof fails is kept under the signed-in manager and flagged;
 * flagged_cash_movements lists it for owners and managers (who, the person claimed, when, register, amount, reason,
 * the flag), never a clean movement; cashiers, other businesses and anon are refused.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import { openShift } from './support/lot-world';

let w: CatalogWorld;
let shift = '';
let flaggedId = '';

interface Row {
  movement_id: string; store_id: string; register_name: string; kind: string; amount: number; currency: string;
  reason: string; actor_name: string | null; claimed_name: string | null; at: string; review_reasons: string[]; total_count: number;
}

beforeAll(async () => {
  w = await startCatalogWorld();
  const [{ id: register }] = await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`) as [{ id: string }];
  shift = await openShift(w.clients.manager, register);
  expect((await w.clients.cashier.rpc('set_my_pin', { _business_id: w.businessA, _pin: '4826' })).error).toBeNull();
  const cash = (extra: Record<string, unknown>) => w.clients.manager.rpc('cash_in_out', { _id: randomUUID(),
    _shift_id: shift, _kind: 'out', _amount: 1250, _reason: 'Window cleaner', _at: new Date().toISOString(), ...extra });
  const clean = await cash({});
  expect(clean.error).toBeNull();
  const at = new Date().toISOString();
  const flagged = await cash({ _offline: true, _reason: 'Float top-up', _kind: 'in',
    _till_switch: { id: randomUUID(), user_id: w.userIds.cashier, proof: 'x', at } });
  expect(flagged.error).toBeNull();
  flaggedId = flagged.data as string;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('flagged_cash_movements', () => {
  it('lists the flagged movement for the owner and a manager with who, where, how much, why and the flag', async () => {
    for (const client of [w.clients.owner, w.clients.manager]) {
      const { data, error } = await client.rpc('flagged_cash_movements', { _business_id: w.businessA });
      expect(error).toBeNull();
      const rows = data as Row[];
      expect(rows.map((r) => r.movement_id)).toEqual([flaggedId]);
      expect(rows[0]).toMatchObject({ store_id: downtown, kind: 'in', amount: 1250, reason: 'Float top-up',
        review_reasons: ['till_switch_unverified'], total_count: 1 });
      expect(rows[0]?.register_name).toBeTruthy();
      expect(rows[0]?.currency).toMatch(/^[A-Z]{3}$/);
      // Under the signed-in manager; the switch claimed the cashier.
      const names = await w.rows<{ id: string; full_name: string }>('select id, full_name from public.profiles where id = any($1::uuid[])',
        [[w.userIds.manager, w.userIds.cashier]]);
      const name = (id: string) => names.find((n) => n.id === id)?.full_name;
      expect([rows[0]?.actor_name, rows[0]?.claimed_name]).toEqual([name(w.userIds.manager), name(w.userIds.cashier)]);
    }
    const other = await w.clients.owner.rpc('flagged_cash_movements', { _business_id: w.businessA, _store_id: riverside });
    expect(other.data).toEqual([]);
  });

  it('is refused to a cashier, another business and anon, and to a page size out of bounds', async () => {
    for (const [name, client] of [['cashier', w.clients.cashier], ['other', w.clients.other]] as const) {
      const { error } = await client.rpc('flagged_cash_movements', { _business_id: w.businessA });
      expect([name, error?.code]).toEqual([name, '42501']);
    }
    expect((await w.clients.anon.rpc('flagged_cash_movements', { _business_id: w.businessA })).data ?? null).toBeNull();
    const bad = await w.clients.owner.rpc('flagged_cash_movements', { _business_id: w.businessA, _limit: 500 });
    expect(bad.error?.code).toBe('22023');
  });
});
