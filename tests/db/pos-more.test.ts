/**
 * The point of sale's second pass (issue 13, migration 20261123130000_pos_more.sql) over HTTP with supabase-js:
 * refunds by line number (a sale made offline the register never saw line ids for), partial and to another tender;
 * a cashier's refund without approval refused online and flagged from the offline outbox; a refund of a sale that
 * had not synced flagged; over-refunds clamped offline; the refunds' review columns under RLS; the register's
 * delta catalog read; and the outbox surviving an expired sign-in (the real sendSale against a real 401).
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, openPosDb, pendingEntries, syncOutbox } from '../../shared/features/pos/outbox';
import { sendSale } from '../../shared/features/pos/pos-api';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { createTestClient } from '../helpers/stack';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
let dt1 = '';
let shift = '';

interface Refund { id: string; total: number; tender_kind: string; review_reasons: string[]; flagged_for_review: boolean; replayed: boolean }

beforeAll(async () => {
  w = await startCatalogWorld();
  dt1 = (await w.rows<{ id: string }>('select id from public.registers where receipt_prefix = $1', ['DT1']))[0]?.id ?? '';
  const { data, error } = await w.clients.cashier.rpc('open_shift', { _register_id: dt1, _opening_float: 10000 });
  if (error) throw new Error(error.message);
  shift = (data as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

/** Three Downtown tees (1400 each, 8.875 % on top): 4200 + 373 = 4573, half by card and half cash. */
const sale = (extra: Record<string, unknown> = {}) => ({
  id: randomUUID(), register_id: dt1, shift_id: shift,
  lines: [{ variant_id: w.f.variant, qty: 3, unit_price: 1400 }],
  tenders: [{ kind: 'card', amount: 3000 }, { kind: 'cash', amount: 1573, tendered: 2000 }],
  ...extra,
});

async function postSale(client: SupabaseClient, payload: Record<string, unknown>) {
  const { data, error } = await client.rpc('post_sale', { _payload: payload });
  if (error) throw new Error(error.message);
  return data as { id: string; total: number };
}

/** A refund at Downtown's first register: into its open shift unless the payload names another (ADR 0171). */
async function refund(client: SupabaseClient, payload: Record<string, unknown>) {
  const { data, error } = await client.rpc('post_refund', { _payload: { shift_id: shift, ...payload } });
  return { refund: data as Refund | null, error };
}

const stock = async () => Number((await w.rows<{ qty: string }>(
  'select qty from public.stock_balances where store_id = $1 and variant_id = $2', [downtown, w.f.variant]))[0]?.qty);

describe('post_refund, second pass', () => {
  it('refunds part of a line by its line number to the original tender, restocking or not', async () => {
    const s = await postSale(w.clients.cashier, sale());
    const before = await stock();
    const one = await refund(w.clients.manager, { id: randomUUID(), sale_id: s.id, shift_id: shift,
      lines: [{ line_no: 1, qty: 1, disposition: 'restock' }] });
    expect(one.error).toBeNull();
    // round(4573 / 3) = 1524, to the card (the tender that paid most).
    expect(one.refund).toMatchObject({ total: 1524, tender_kind: 'card', flagged_for_review: false, review_reasons: [] });
    expect(await stock()).toBe(before + 1);
    const damaged = await refund(w.clients.manager, { id: randomUUID(), sale_id: s.id, tender_kind: 'cash',
      lines: [{ line_no: 1, qty: 2, disposition: 'damaged' }] });
    // The last part takes what remains so the parts add up to the line.
    expect(damaged.refund).toMatchObject({ total: 4573 - 1524, tender_kind: 'cash' });
    expect(await stock()).toBe(before + 1);
  });

  it('a bad line or tender is a clear 22023', async () => {
    const s = await postSale(w.clients.cashier, sale());
    const noLine = await refund(w.clients.manager, { id: randomUUID(), sale_id: s.id, lines: [{ line_no: 9, qty: 1 }] });
    expect(noLine.error?.code).toBe('22023');
    expect(noLine.error?.message).toMatch(/not a line of this sale/);
    const badTender = await refund(w.clients.manager, { id: randomUUID(), sale_id: s.id, tender_kind: 'gold', lines: [{ line_no: 1, qty: 1 }] });
    expect(badTender.error?.code).toBe('22023');
    const notANumber = await refund(w.clients.manager, { id: randomUUID(), sale_id: s.id, lines: [{ line_no: '1; drop', qty: 1 }] });
    expect(notANumber.error?.code).toBe('22023');
  });

  it('a cashier without approval: refused online, accepted from the offline outbox and flagged', async () => {
    const s = await postSale(w.clients.cashier, sale());
    const online = await refund(w.clients.cashier, { id: randomUUID(), sale_id: s.id, lines: [{ line_no: 1, qty: 1 }] });
    expect(online.error?.code).toBe('42501');
    const offline = await refund(w.clients.cashier, { id: randomUUID(), sale_id: s.id, offline: true, lines: [{ line_no: 1, qty: 1 }] });
    expect(offline.error).toBeNull();
    expect(offline.refund).toMatchObject({ flagged_for_review: true, review_reasons: ['no_approval'] });
  });

  it('a refund queued behind its offline sale posts after it, flagged sale_not_synced; over-refunds offline are clamped', async () => {
    const s = sale({ offline: true });
    await postSale(w.clients.manager, s);
    const queued = await refund(w.clients.manager, { id: randomUUID(), sale_id: s.id, offline: true, sale_pending: true,
      lines: [{ line_no: 1, qty: 2 }] });
    expect(queued.refund?.review_reasons).toEqual(['sale_not_synced']);
    const tooMany = { id: randomUUID(), sale_id: s.id, lines: [{ line_no: 1, qty: 2 }] };
    expect((await refund(w.clients.manager, tooMany)).error?.message).toMatch(/only 1\.000 left/);
    const clamped = await refund(w.clients.manager, { ...tooMany, offline: true });
    expect(clamped.error).toBeNull();
    expect(clamped.refund).toMatchObject({ total: 4573 - Math.round((4573 * 2) / 3), review_reasons: ['over_refund:1'] });
    const lines = await w.rows<{ qty: string }>('select qty from public.refund_lines where refund_id = $1', [tooMany.id]);
    expect(lines.map((l) => Number(l.qty))).toEqual([1]);
  });

  it('another business cannot refund this sale, by id or line number', async () => {
    const s = await postSale(w.clients.cashier, sale());
    const foreign = await refund(w.clients.other, { id: randomUUID(), sale_id: s.id, offline: true, lines: [{ line_no: 1, qty: 1 }] });
    expect(foreign.error?.code).toBe('42501');
    expect((await refund(w.clients.anon, { id: randomUUID(), sale_id: s.id, lines: [{ line_no: 1, qty: 1 }] })).error).not.toBeNull();
  });

  it('the review columns read like the rest of the refund: the store\'s members, not another business', async () => {
    const mine = await w.clients.cashier.from('refunds').select('id, review_reasons, flagged_for_review').eq('flagged_for_review', true);
    expect(mine.error).toBeNull();
    expect(mine.data?.length).toBeGreaterThan(0);
    const theirs = await w.clients.other.from('refunds').select('id').eq('flagged_for_review', true);
    expect(theirs.data).toEqual([]);
    const write = await w.clients.manager.from('refunds').update({ review_reasons: [] }).eq('flagged_for_review', true).select('id');
    expect(write.data ?? []).toEqual([]);
  });
});

describe('post_sales: the outbox in batches', () => {
  it('posts each sale in order in its own subtransaction: a refusal neither undoes nor blocks the rest; a retry replays', async () => {
    const good = [sale(), sale()];
    const refused = sale({ lines: [{ variant_id: randomUUID(), qty: 1 }] });
    const batch = [good[0], refused, good[1]];
    const { data, error } = await w.clients.cashier.rpc('post_sales', { _payloads: batch });
    expect(error).toBeNull();
    const rows = data as { id: string; ok: boolean; replayed?: boolean; code?: string }[];
    expect(rows.map((r) => [r.id, r.ok])).toEqual([[good[0]?.id, true], [refused.id, false], [good[1]?.id, true]]);
    expect(rows[1]?.code).toBe('22023');
    const again = await w.clients.cashier.rpc('post_sales', { _payloads: batch });
    expect((again.data as { replayed?: boolean }[]).map((r) => r.replayed ?? null)).toEqual([true, null, true]);
    const stored = await w.rows<{ n: number }>('select count(*)::int as n from public.sales where id = any($1::uuid[])',
      [batch.map((p) => p?.id)]);
    expect(stored[0]?.n).toBe(2);
  });

  it('refuses more than 50, a non-list, anon, and another business\'s register per sale', async () => {
    expect((await w.clients.cashier.rpc('post_sales', { _payloads: Array.from({ length: 51 }, () => sale()) })).error?.code).toBe('22023');
    expect((await w.clients.cashier.rpc('post_sales', { _payloads: { id: 'x' } })).error?.code).toBe('22023');
    expect((await w.clients.anon.rpc('post_sales', { _payloads: [sale()] })).error).not.toBeNull();
    const foreign = await w.clients.other.rpc('post_sales', { _payloads: [sale()] });
    expect((foreign.data as { ok: boolean; code: string }[])[0]).toMatchObject({ ok: false, code: '42501' });
  });
});

describe('the register catalog by delta', () => {
  it('pos_catalog(_since) returns only what changed, archived rows included', async () => {
    const since = (await w.rows<{ now: string }>('select now()::text as now'))[0]?.now;
    await new Promise((r) => setTimeout(r, 20));
    await w.rows('update public.variants set price = price + 1 where id = $1', [w.f.variant2]);
    const { data, error } = await w.clients.cashier.rpc('pos_catalog', { _store_id: downtown, _since: since });
    expect(error).toBeNull();
    const rows = data as { variant_id: string; archived: boolean }[];
    expect(rows.map((r) => r.variant_id)).toEqual([w.f.variant2]);
    expect(rows[0]?.archived).toBe(false);
  });
});

describe('sign-in expiry while offline', () => {
  it('an expired session keeps the sales queued (401: retry); after signing in again they post exactly once', async () => {
    const db = await openPosDb(`expiry-${randomUUID()}`);
    const payloads = [sale(), sale()];
    for (const p of payloads) await enqueue(db, 'sale', p);
    const expired = await new SignJWT({ role: 'authenticated', aud: 'authenticated', sub: w.userIds.cashier })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(new TextEncoder().encode(w.stack.jwtSecret));
    const stale = createTestClient(w.stack, 'anon', { global: { headers: { Authorization: `Bearer ${expired}` } } }) as unknown as StorewiseClient;
    const first = await syncOutbox(db, (e) => sendSale(stale, e));
    expect(first).toEqual({ sent: 0, waiting: 2, rejected: 0 });
    expect((await pendingEntries(db))[0]?.lastError).toMatch(/expired/i);
    // Signed in again: the outbox drains in order, each sale once.
    const again = await syncOutbox(db, (e) => sendSale(w.clients.cashier as unknown as StorewiseClient, e));
    expect(again).toEqual({ sent: 2, waiting: 0, rejected: 0 });
    const posted = await w.rows<{ n: number }>('select count(*)::int as n from public.sales where id = any($1::uuid[])',
      [payloads.map((p) => p.id)]);
    expect(posted[0]?.n).toBe(2);
    db.close();
  });
});
