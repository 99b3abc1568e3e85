import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  discardEntry, enqueue, getMeta, openPosDb, pendingEntries, queuedEntry, refusedEntries, retryEntry, setMeta, syncOutbox,
  type OutboxAuthor, type OutboxEntry, type SendResult,
} from './outbox';
import { keepQueuedShift, localShift, shiftOpenPayload } from './shift-open';

/**
 * ADR 0165: each entry is sent only under its author's sign-in (another person's entries wait, in order, with who
 * they wait for); a shift opened offline is queued before its sales; a refused entry waits for a manager's retry
 * or discard and never blocks what follows.
 */
const fresh = () => openPosDb(`authors-${Math.random()}`);
const ada: OutboxAuthor = { id: 'u-ada', label: 'Ada' };
const bo: OutboxAuthor = { id: 'u-bo', label: 'Bo' };
const done = async (): Promise<SendResult> => ({ status: 'done', result: null });

describe('outbox entries and their authors', () => {
  it('records who made each entry', async () => {
    const db = await fresh();
    await enqueue(db, 'sale', { id: 's1' }, ada);
    await enqueue(db, 'sale', { id: 's2' });
    expect((await pendingEntries(db)).map((e) => e.author)).toEqual([ada, undefined]);
  });

  it('another person signed in: the author\'s entries and everything behind them wait, and say for whom', async () => {
    const db = await fresh();
    await enqueue(db, 'open', { id: 'o1' }, ada);
    await enqueue(db, 'sale', { id: 's1' }, ada);
    await enqueue(db, 'sale', { id: 's2' }, bo);
    const sent: string[] = [];
    const result = await syncOutbox(db, async (e) => { sent.push(e.id); return done(); }, undefined, { signedIn: bo.id });
    expect(sent).toEqual([]);
    expect(result).toEqual({ sent: 0, waiting: 3, rejected: 0, held: { count: 3, authors: ['Ada'] } });
    // Ada signs in again: hers go, then Bo's waits for Bo.
    const again = await syncOutbox(db, async (e) => { sent.push(e.id); return done(); }, undefined, { signedIn: ada.id });
    expect(sent).toEqual(['o1', 's1']);
    expect(again).toEqual({ sent: 2, waiting: 1, rejected: 0, held: { count: 1, authors: ['Bo'] } });
  });

  it('nobody signed in holds every authored entry; entries from before authors go to whoever is signed in', async () => {
    const db = await fresh();
    await enqueue(db, 'sale', { id: 'old' });
    await enqueue(db, 'sale', { id: 's1' }, ada);
    const sent: string[] = [];
    const result = await syncOutbox(db, async (e) => { sent.push(e.id); return done(); }, undefined, { signedIn: null });
    expect(sent).toEqual(['old']);
    expect(result.held).toEqual({ count: 1, authors: ['Ada'] });
  });

  it('a batch of sales stops at another author\'s sale', async () => {
    const db = await fresh();
    for (const id of ['a1', 'a2', 'a3']) await enqueue(db, 'sale', { id }, ada);
    await enqueue(db, 'sale', { id: 'b1' }, bo);
    const batches: string[][] = [];
    await syncOutbox(db, done, undefined, {
      signedIn: ada.id,
      sendBatch: async (entries: OutboxEntry[]) => { batches.push(entries.map((e) => e.id)); return { status: 'done', results: entries.map(() => ({ status: 'done', result: null })) }; },
    });
    expect(batches).toEqual([['a1', 'a2', 'a3']]);
    expect((await pendingEntries(db)).map((e) => e.id)).toEqual(['b1']);
  });
});

describe('refused entries: a manager retries or discards', () => {
  it('lists the refused, retry puts one back in its place (sent again), discard removes only refused ones', async () => {
    const db = await fresh();
    await enqueue(db, 'sale', { id: 's1' }, ada);
    await enqueue(db, 'cash', { id: 'm1' }, ada);
    await enqueue(db, 'sale', { id: 's2' }, ada);
    let refuse = true;
    const first = await syncOutbox(db, async (e) => (refuse && e.kind !== 'cash'
      ? { status: 'rejected', error: 'permission denied: you do not have access to this store' } : done()), undefined, { signedIn: ada.id });
    expect(first).toEqual({ sent: 1, waiting: 2, rejected: 2 });
    expect((await refusedEntries(db)).map((e) => e.id)).toEqual(['s1', 's2']);

    expect(await discardEntry(db, 'm1')).toBe(false); // sent already: nothing to discard
    await enqueue(db, 'sale', { id: 's3' }, ada);
    expect(await discardEntry(db, 's3')).toBe(false); // waiting, not refused: never dropped
    expect(await queuedEntry(db, 's3')).toBeDefined();

    await retryEntry(db, 's1');
    expect((await queuedEntry(db, 's1'))?.lastError).toBeUndefined();
    expect(await discardEntry(db, 's2')).toBe(true);
    refuse = false;
    const sent: OutboxEntry[] = [];
    const second = await syncOutbox(db, async (e) => { sent.push(e); return done(); }, undefined, { signedIn: ada.id });
    expect(sent.map((e) => e.id)).toEqual(['s1', 's3']);
    // A retried entry already failed once: it is sent as made offline (flagged, not refused, by the server).
    expect(sent[0]?.attempts).toBe(1);
    expect(second).toEqual({ sent: 2, waiting: 0, rejected: 0 });
  });
});

describe('a shift opened offline', () => {
  const register = { id: 'r1', name: 'Till 1', store_id: 'st', receipt_prefix: 'DT1' };

  it('is queued before the sales made in it and keeps the receipt sequence going', async () => {
    const db = await fresh();
    await setMeta(db, 'seq:r1', 41);
    const payload = { ...shiftOpenPayload('r1', 5000, new Date('2026-11-23T08:00:00Z')), offline: true };
    const shift = localShift(payload, register, (await getMeta<number>(db, 'seq:r1')) ?? 0);
    expect(shift).toMatchObject({ id: payload.id, register_id: 'r1', opening_float: 5000, next_receipt_seq: 42, receipt_prefix: 'DT1',
      opened_at: '2026-11-23T08:00:00.000Z' });
    await enqueue(db, 'open', payload, ada);
    await enqueue(db, 'sale', { id: 's1', shift_id: shift.id }, ada);
    const order: string[] = [];
    await syncOutbox(db, async (e) => { order.push(e.kind); return done(); }, undefined, { signedIn: ada.id });
    expect(order).toEqual(['open', 'sale']);
  });

  it('stays the register\'s shift while its open waits, whatever the server answers; then the server\'s', async () => {
    const db = await fresh();
    const payload = { ...shiftOpenPayload('r1', 0), offline: true };
    const mine = localShift(payload, register, 0);
    await setMeta(db, 'shift:r1', mine);
    await enqueue(db, 'open', payload, ada);
    const theirs = { ...mine, id: 'other' };
    expect(await keepQueuedShift(db, 'r1', null)).toEqual(mine);
    expect(await keepQueuedShift(db, 'r1', theirs)).toEqual(mine);
    await syncOutbox(db, done);
    expect(await keepQueuedShift(db, 'r1', theirs)).toEqual(theirs);
    expect(await keepQueuedShift(db, 'r1', null)).toBeNull();
  });
});
