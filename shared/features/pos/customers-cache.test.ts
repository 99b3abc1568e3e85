import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_PAGE, customerCopyKey, dropOtherCustomerCopies, findCustomersOffline, keysetFilter, refreshCustomers, rememberCustomer,
  searchCustomers, type CustomerPageFetcher, type CustomerRow,
} from './customers-cache';
import { getMeta, openPosDb, setMeta } from './outbox';

/** The register's copy of the customers (ADR 0165): full then delta, deletions, search offline, local additions. */
const row = (n: number, at: string, extra: Partial<CustomerRow> = {}): CustomerRow => ({
  id: `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`, name: `Customer ${n}`, phone: null, email: null, updated_at: at, ...extra,
});

/** A fake server over rows, answering keyset pages the way the PostgREST query asks for them. */
function server(rows: CustomerRow[]) {
  const calls: ({ at: string; id: string } | null)[] = [];
  const fetchPage: CustomerPageFetcher = async (after) => {
    calls.push(after);
    const sorted = [...rows].sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.id.localeCompare(b.id));
    const from = sorted.filter((r) => !after || r.updated_at > after.at || (r.updated_at === after.at && r.id > after.id));
    return from.slice(0, CUSTOMER_PAGE);
  };
  return { rows, calls, fetchPage, count: async () => rows.length };
}

describe('refreshCustomers', () => {
  it('loads in full by keyset pages, even when a whole page shares one updated_at (an import)', async () => {
    const at = '2026-11-20T10:00:00.000Z';
    const s = server(Array.from({ length: CUSTOMER_PAGE + 5 }, (_, i) => row(i + 1, at)));
    const { copy, mode, rows } = await refreshCustomers(null, 'b1', s.fetchPage, s.count);
    expect(mode).toBe('full');
    expect(rows).toBe(CUSTOMER_PAGE + 5);
    expect(copy.items).toHaveLength(CUSTOMER_PAGE + 5);
    expect(s.calls).toHaveLength(2);
    expect(copy.since).toBe(at);
    expect(copy.items[0]).toEqual({ id: row(1, at).id, name: 'Customer 1', phone: null, email: null });
  });

  it('later reads only what changed since the newest change less the overlap, and merges it', async () => {
    const s = server([row(1, '2026-11-20T10:00:00.000Z'), row(2, '2026-11-21T10:00:00.000Z')]);
    const first = await refreshCustomers(null, 'b1', s.fetchPage, s.count);
    s.rows[0] = row(1, '2026-11-22T10:00:00.000Z', { name: 'Renamed' });
    s.rows.push(row(3, '2026-11-22T11:00:00.000Z'));
    const { copy, mode, rows } = await refreshCustomers(first.copy, 'b1', s.fetchPage, s.count);
    expect(mode).toBe('delta');
    // Customer 2 again too: it changed within the overlap before the newest change seen.
    expect(rows).toBe(3);
    expect(s.calls.at(-1)?.at).toBe('2026-11-21T09:55:00.000Z');
    expect(copy.items.map((c) => c.name)).toEqual(['Renamed', 'Customer 2', 'Customer 3']);
    expect(copy.since).toBe('2026-11-22T11:00:00.000Z');
  });

  it('a deleted customer (the sizes disagree) reloads the copy in full; another business\'s copy is not reused', async () => {
    const s = server([row(1, '2026-11-20T10:00:00.000Z'), row(2, '2026-11-21T10:00:00.000Z')]);
    const first = await refreshCustomers(null, 'b1', s.fetchPage, s.count);
    s.rows.splice(0, 1);
    const after = await refreshCustomers(first.copy, 'b1', s.fetchPage, s.count);
    expect(after.mode).toBe('full');
    expect(after.copy.items.map((c) => c.name)).toEqual(['Customer 2']);
    expect((await refreshCustomers(after.copy, 'b2', s.fetchPage, s.count)).mode).toBe('full');
  });

  it('the keyset filter quotes the timestamp', () => {
    expect(keysetFilter({ at: '2026-11-20T10:00:00.123456+00:00', id: 'abc' }))
      .toBe('updated_at.gt."2026-11-20T10:00:00.123456+00:00",and(updated_at.eq."2026-11-20T10:00:00.123456+00:00",id.gt.abc)');
  });
});

describe('searching the copy at the counter', () => {
  const items = [
    { id: '1', name: 'Zoe Park', phone: '+1 (555) 010-4242', email: null },
    { id: '2', name: 'Ada Lovelace', phone: null, email: 'ada@example.com' },
    { id: '3', name: 'Adam Smith', phone: null, email: null },
  ];
  it('finds by name, email or the digits of a phone; names in order; nothing under 2 characters', () => {
    expect(searchCustomers(items, 'ada').map((c) => c.id)).toEqual(['2', '3']);
    expect(searchCustomers(items, 'EXAMPLE.com').map((c) => c.id)).toEqual(['2']);
    expect(searchCustomers(items, '5550104').map((c) => c.id)).toEqual(['1']);
    expect(searchCustomers(items, 'a')).toEqual([]);
  });

  it('a customer added on this register is found offline before it syncs, and copies of other businesses are dropped', async () => {
    const db = await openPosDb(`customers-${Math.random()}`);
    await setMeta(db, customerCopyKey('b1'), { businessId: 'b1', items, since: '2026-11-20T10:00:00.000Z', version: 1 });
    await setMeta(db, customerCopyKey('b2'), { businessId: 'b2', items, since: null, version: 1 });
    await rememberCustomer(db, 'b1', { id: '9', name: 'Ora Offline', phone: '+1 555 777 0000', email: null });
    expect((await findCustomersOffline(db, 'b1', 'ora')).map((c) => c.id)).toEqual(['9']);
    expect((await findCustomersOffline(db, 'b1', 'ad')).map((c) => c.id)).toEqual(['2', '3']);
    await dropOtherCustomerCopies(db, ['b1']);
    expect(await getMeta(db, customerCopyKey('b2'))).toBeUndefined();
    expect((await findCustomersOffline(db, 'b1', 'ora')).map((c) => c.id)).toEqual(['9']);
  });
});
