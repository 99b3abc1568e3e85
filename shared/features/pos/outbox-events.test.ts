import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { enqueue, openPosDb, pendingCount, queuedEntry, syncOutbox, type OutboxEntry, type SendResult } from './outbox';

/**
 * The offline events in the one ordered queue (ADR 0155): a customer made offline reaches the server before the
 * sale that names them, cash and the close after the shift's sales, and nothing overtakes an entry that must wait.
 */
const fresh = () => openPosDb(`events-${Math.random()}`);

async function fillShift() {
  const db = await fresh();
  await enqueue(db, 'sale', { id: 's1' });
  await enqueue(db, 'customer', { id: 'c1', name: 'Ada Offline' });
  await enqueue(db, 'sale', { id: 's2', customer_id: 'c1' });
  await enqueue(db, 'sale', { id: 's3' });
  await enqueue(db, 'cash', { id: 'm1', kind: 'out', amount: 500 });
  await enqueue(db, 'refund', { id: 'r1', sale_id: 's3' });
  await enqueue(db, 'close', { id: 'z1', shift_id: 'shift' });
  return db;
}

describe('outbox: customers, cash and the close among the sales', () => {
  it('sends every kind in the order it was made, one at a time without a batch endpoint', async () => {
    const db = await fillShift();
    const sent: string[] = [];
    const result = await syncOutbox(db, async (e) => { sent.push(`${e.kind}:${e.id}`); return { status: 'done', result: null }; });
    expect(sent).toEqual(['sale:s1', 'customer:c1', 'sale:s2', 'sale:s3', 'cash:m1', 'refund:r1', 'close:z1']);
    expect(result).toEqual({ sent: 7, waiting: 0, rejected: 0 });
  });

  it('batches only consecutive sales: the customer goes alone before the batch holding the sale that names them', async () => {
    const db = await fillShift();
    const calls: string[] = [];
    const done = (e: OutboxEntry): SendResult => ({ status: 'done', result: e.id });
    await syncOutbox(db, async (e) => { calls.push(e.id); return done(e); }, undefined, {
      sendBatch: async (entries) => { calls.push(`[${entries.map((e) => e.id).join(',')}]`); return { status: 'done', results: entries.map(done) }; },
    });
    expect(calls).toEqual(['s1', 'c1', '[s2,s3]', 'm1', 'r1', 'z1']);
  });

  it('a customer that must wait (offline) holds back the sale, the cash and the close behind it', async () => {
    const db = await fillShift();
    const sent: string[] = [];
    const result = await syncOutbox(db, async (e) => {
      if (e.kind === 'customer') return { status: 'retry', error: 'Failed to fetch' };
      sent.push(e.id);
      return { status: 'done', result: null };
    });
    expect(sent).toEqual(['s1']);
    expect(result.waiting).toBe(6);
    expect((await queuedEntry(db, 'c1'))?.attempts).toBe(1);
    expect(await queuedEntry(db, 'z1')).toBeDefined();
  });

  it('the close is sent last and only once the sales before it have synced; a retry of it sends the same id', async () => {
    const db = await fillShift();
    let closeTries = 0;
    let salesDown = true;
    const send = async (e: OutboxEntry): Promise<SendResult> => {
      if (e.kind === 'close') closeTries += 1;
      if (e.id === 's3' && salesDown) return { status: 'retry', error: '503' };
      return { status: 'done', result: null };
    };
    await syncOutbox(db, send);
    expect(closeTries).toBe(0);
    expect(await pendingCount(db)).toBe(4);
    salesDown = false;
    const seen: string[] = [];
    await syncOutbox(db, send, (e) => seen.push(e.id));
    expect(seen).toEqual(['s3', 'm1', 'r1', 'z1']);
    expect(closeTries).toBe(1);
    expect(await queuedEntry(db, 'z1')).toBeUndefined();
  });

  it('a refused cash movement stays with its error and the close behind it still syncs', async () => {
    const db = await fillShift();
    const result = await syncOutbox(db, async (e) => (e.kind === 'cash' ? { status: 'rejected', error: 'give a reason' } : { status: 'done', result: null }));
    expect(result).toEqual({ sent: 6, waiting: 1, rejected: 1 });
    expect((await queuedEntry(db, 'm1'))?.lastError).toBe('rejected: give a reason');
  });
});
