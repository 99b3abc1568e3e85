/**
 * Issue 22, finding 9: the outbox's batches respect post_sales' bound on lines (ADR 0180), and a 429 from a busy
 * server is "later", never a refusal a manager has to clear.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { StorewiseClient } from '../../lib/supabase-client';
import { enqueueSale, MAX_BATCH_LINES, openPosDb, syncOutbox, type OutboxEntry, type SendResult } from './outbox';
import { sendSale } from './pos-api';

const lines = (n: number) => Array.from({ length: n }, () => ({ variant_id: 'v', qty: 1 }));

describe('outbox batches bounded by lines', () => {
  it('closes a batch before it passes the line bound; a sale longer than the bound goes alone', async () => {
    const db = await openPosDb(`lines-${Math.random()}`);
    const sizes = [20, 20, 20, 1, 70, 30, 30, 5];
    for (const [i, n] of sizes.entries()) await enqueueSale(db, { id: `s${i}`, lines: lines(n) });
    const batches: string[][] = [];
    const single: string[] = [];
    const result = await syncOutbox(db, async (e) => {
      single.push(e.id);
      return { status: 'done', result: null };
    }, undefined, {
      sendBatch: async (entries: OutboxEntry[]) => {
        batches.push(entries.map((e) => e.id));
        return { status: 'done', results: entries.map((): SendResult => ({ status: 'done', result: null })) };
      },
    });
    expect(result).toEqual({ sent: 8, waiting: 0, rejected: 0 });
    expect(MAX_BATCH_LINES).toBe(60);
    // 20 + 20 + 20 = 60 lines; 1 + 70 would pass the bound, so the 1-line sale and the 70-line one go alone;
    // 30 + 30 = 60; the 5-line sale is last, alone.
    expect(batches).toEqual([['s0', 's1', 's2'], ['s5', 's6']]);
    expect(single).toEqual(['s3', 's4', 's7']);
    db.close();
  });
});

describe('a busy server (429)', () => {
  it('is retried later, not refused', async () => {
    const busy = { rpc: async () => ({ data: null, status: 429, error: { message: 'Too many requests at once from this account: wait a moment and try again.' } }) };
    const entry: OutboxEntry = { id: 's', seq: 1, kind: 'sale', payload: { id: 's' }, createdAt: '', attempts: 0 };
    expect(await sendSale(busy as unknown as StorewiseClient, entry)).toEqual({
      status: 'retry', error: 'Too many requests at once from this account: wait a moment and try again.' });
  });
});
