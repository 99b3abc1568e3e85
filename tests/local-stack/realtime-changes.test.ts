/**
 * Realtime postgres_changes over a real websocket with the official supabase-js client, on the catalog
 * world (owner1's business with a manager and a Downtown cashier; owner2 of another business). Each
 * subscriber receives a change only when its own RLS lets it read the row, and only the columns it may
 * select; filters narrow what arrives. "Receives nothing" is asserted with a sentinel: a change the
 * subscriber may see, committed after the one it may not, is delivered in commit order, so once the
 * sentinel has arrived the forbidden change would have arrived before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from '../db/support/catalog-world';
import { received, watch } from './realtime-helpers';

let w: CatalogWorld;
const liveTables = ['stock_balances', 'sales', 'refunds', 'variant_costs', 'support_tickets', 'ticket_replies', 'activity', 'register_sync_states'];

beforeAll(async () => {
  w = await startCatalogWorld();
}, 300_000);

afterAll(async () => {
  for (const client of Object.values(w?.clients ?? {})) await client.removeAllChannels();
  await w?.stack.stop();
});

const move = (store: string, qty: number) =>
  w.rows(`select private.apply_movement($1, $2, $3, null, 'adjust', $4, 'correction')`, [w.businessA, store, w.f.variant, qty]);

/** A support ticket of `who`'s own: a change they may see, as a sentinel. */
async function sentinel(who: 'other' | 'owner' | 'cashier', subject: string): Promise<void> {
  const { error } = await w.clients[who].from('support_tickets').insert({ user_id: w.userIds[who], subject, message: 'sentinel' });
  expect(error).toBeNull();
}

describe('postgres_changes through RLS', () => {
  it('delivers a stock change to the owner with the row, and the join reply names the bindings in order', async () => {
    const owner = await watch(w.clients.owner, [
      { event: 'UPDATE', schema: 'public', table: 'stock_balances' },
      { event: 'INSERT', schema: 'public', table: 'sales' },
    ]);
    expect(owner.system).toContainEqual(expect.objectContaining({ extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL' }));
    await move(downtown, -1);
    const change = await received(owner, (c) => c.table === 'stock_balances' && c.new.store_id === downtown);
    expect(change.eventType).toBe('UPDATE');
    expect(change.spec).toBe(0);
    expect(change.new).toMatchObject({ business_id: w.businessA, variant_id: w.f.variant });
    expect(Number(change.new.qty)).toBeGreaterThan(0);
    // Without REPLICA IDENTITY FULL the old record is the primary key, as on hosted.
    expect(Object.keys(change.old)).toEqual(['id']);
    await owner.stop();
  });

  it('an attacker of another business subscribed to every live table, with and without filters, receives nothing', async () => {
    const wide = await watch(w.clients.other, [{ event: '*', schema: 'public' }]);
    const perTable = await watch(w.clients.other, liveTables.map((table) => ({ event: '*' as const, schema: 'public', table })));
    const filtered = await watch(w.clients.other, [
      { event: '*', schema: 'public', table: 'stock_balances', filter: `business_id=eq.${w.businessA}` },
      { event: '*', schema: 'public', table: 'sales', filter: `business_id=eq.${w.businessA}` },
      { event: '*', schema: 'public', table: 'variant_costs', filter: `variant_id=eq.${w.f.variant}` },
      { event: '*', schema: 'public', table: 'activity', filter: `business_id=in.(${w.businessA},${w.businessB})` },
      { event: '*', schema: 'public', table: 'support_tickets' },
    ]);
    // Changes in business A: stock, a cost price, an activity row, owner1's support ticket.
    await move(downtown, 2);
    await move(riverside, -1);
    await w.rows(`update public.variant_costs set cost = cost + 1 where variant_id = $1`, [w.f.variant]);
    await w.rows(`insert into public.activity (business_id, kind, entity_type, actor_label) values ($1, 'realtime.test', 'test', 'test')`, [w.businessA]);
    await sentinel('owner', 'owner1 asks');
    await sentinel('other', 'attacker sentinel');
    for (const watchOf of [wide, perTable, filtered]) {
      await received(watchOf, (c) => c.table === 'support_tickets' && c.new.subject === 'attacker sentinel');
      expect(watchOf.changes.map((c) => `${c.table}:${String(c.new.subject ?? c.new.business_id ?? '')}`)).toEqual(['support_tickets:attacker sentinel']);
      await watchOf.stop();
    }
  });

  it('a cashier sees stock of the Downtown store but not Riverside, and never cost prices', async () => {
    const cashier = await watch(w.clients.cashier, [
      { event: '*', schema: 'public', table: 'stock_balances' },
      { event: '*', schema: 'public', table: 'variant_costs' },
      { event: '*', schema: 'public', table: 'support_tickets' },
    ]);
    const owner = await watch(w.clients.owner, [{ event: '*', schema: 'public', table: 'variant_costs' }]);
    await move(riverside, 1);
    await w.rows(`update public.variant_costs set cost = cost + 1 where variant_id = $1`, [w.f.variant]);
    await move(downtown, 1);
    await sentinel('cashier', 'cashier sentinel');
    await received(cashier, (c) => c.new.subject === 'cashier sentinel');
    expect(cashier.changes.filter((c) => c.table === 'stock_balances').map((c) => c.new.store_id)).toEqual([downtown]);
    expect(cashier.changes.some((c) => c.table === 'variant_costs')).toBe(false);
    // The owner may read cost prices: the same change reaches them.
    await received(owner, (c) => c.table === 'variant_costs' && c.new.variant_id === w.f.variant);
    await cashier.stop();
    await owner.stop();
  });

  it('filters eq, neq, lt, lte, gt, gte and in choose the rows', async () => {
    const [{ id: dtRow } = { id: 0 }] = await w.rows<{ id: number }>(`select id from public.stock_balances where store_id = $1 and variant_id = $2 and lot_id is null`, [downtown, w.f.variant]);
    const [{ id: rvRow } = { id: 0 }] = await w.rows<{ id: number }>(`select id from public.stock_balances where store_id = $1 and variant_id = $2 and lot_id is null`, [riverside, w.f.variant]);
    const low = Math.min(dtRow, rvRow);
    const high = Math.max(dtRow, rvRow);
    const specs = [
      { filter: `store_id=eq.${downtown}` },
      { filter: `store_id=neq.${downtown}` },
      { filter: `id=lt.${high}` },
      { filter: `id=lte.${low}` },
      { filter: `id=gt.${low}` },
      { filter: `id=gte.${high}` },
      { filter: `store_id=in.(${riverside},00000000-0000-4000-8000-000000000000)` },
    ].map((spec) => ({ event: 'UPDATE' as const, schema: 'public', table: 'stock_balances', ...spec }));
    const owner = await watch(w.clients.owner, specs);
    await move(downtown, 1);
    await move(riverside, 1);
    await received(owner, (c) => c.new.id === rvRow && c.spec === 6);
    await received(owner, (c) => c.new.id === dtRow && c.spec === 0);
    const got = (row: number) => [...new Set(owner.changes.filter((c) => c.new.id === row).map((c) => c.spec))].sort();
    const expectFor = (row: number) => {
      const ids: number[] = [];
      if (row === dtRow) ids.push(0); else ids.push(1);
      if (row < high) ids.push(2);
      if (row <= low) ids.push(3);
      if (row > low) ids.push(4);
      if (row >= high) ids.push(5);
      if (row === rvRow) ids.push(6);
      return ids.sort();
    };
    await expect.poll(() => got(dtRow)).toEqual(expectFor(dtRow));
    await expect.poll(() => got(rvRow)).toEqual(expectFor(rvRow));
    await owner.stop();
  });

  it('a record past 1 MB arrives without its columns and with Error 413; a small one in full', async () => {
    const owner = await watch(w.clients.owner, [{ event: 'INSERT', schema: 'public', table: 'activity' }]);
    const big = { note: 'x'.repeat(1024 * 1024 + 10) };
    await w.rows(`insert into public.activity (business_id, kind, entity_type, actor_label, after) values ($1, 'realtime.big', 'test', 'test', $2::jsonb)`, [w.businessA, JSON.stringify(big)]);
    await w.rows(`insert into public.activity (business_id, kind, entity_type, actor_label) values ($1, 'realtime.small', 'test', 'test')`, [w.businessA]);
    const small = await received(owner, (c) => c.new.kind === 'realtime.small');
    expect(small.errors).toBeNull();
    expect(owner.changes).toHaveLength(2);
    const [tooLarge] = owner.changes;
    expect(tooLarge?.new).toEqual({});
    expect(tooLarge?.errors).toEqual(['Error 413: Payload Too Large']);
    await owner.stop();
  });
});

describe('the change queue after a bulk change', () => {
  it('gives its file back once drained, so the next write does not read a bulk change\'s dead pages', async () => {
    const queueBytes = async () =>
      Number((await w.rows<{ bytes: string }>(`select pg_relation_size('_realtime.changes')::text as bytes`))[0]?.bytes);
    // An audited bulk change: an activity row a variant, each one captured change.
    await w.rows(`select private.log_activity($1, null, 'test.bulk', 'variant', null, null, jsonb_build_object('n', g))
                    from generate_series(1, 12000) g`, [w.businessA]);
    expect(await queueBytes()).toBeGreaterThan(1024 * 1024);
    const deadline = Date.now() + 20_000;
    while ((await queueBytes()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await queueBytes()).toBe(0);
    // Still live: the next change arrives.
    const owner = await watch(w.clients.owner, [{ event: 'UPDATE', schema: 'public', table: 'stock_balances' }]);
    await move(downtown, -1);
    await received(owner, (c) => c.table === 'stock_balances' && c.new.store_id === downtown);
    await owner.stop();
  });
});
