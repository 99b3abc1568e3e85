import type { StorewiseClient } from '../../lib/supabase-client';
import { deltaStart, newestStamp } from './delta-since';
import { getMeta, setMeta, type PosDatabase } from './outbox';
import type { Customer } from './pos-api';

/**
 * The register's copy of the business's customers (issue 13, ADR 0165), so finding a customer at the counter works
 * offline. Read through PostgREST with the cashier's own session, so RLS decides what is copied (members read
 * their business's customers; nothing else is kept: id, name, phone, email). Refreshed by delta like the catalog:
 * rows whose updated_at is after the newest one seen (the server's clock, less an overlap), in keyset pages. A
 * delete leaves no row to read, so after a delta the copy's size is compared with the server's count and a
 * mismatch reloads the copy in full. Customers added on this register (also offline, before they sync) are kept
 * beside the copy (`customers:<business>:local`) and found with it until the server's copy has them.
 */
export interface CustomerCopy {
  businessId: string;
  items: Customer[];
  /** The newest updated_at seen (server time), the next delta's start; null before the first full load. */
  since: string | null;
  version: number;
}

export interface CustomerRow extends Customer { updated_at: string }

export const CUSTOMER_COPY_VERSION = 1;
export const CUSTOMER_PAGE = 1000;

export const customerCopyKey = (businessId: string) => `customers:${businessId}`;
/** Customers added on this register that the server's copy does not have yet. */
const addedHereKey = (businessId: string) => `${customerCopyKey(businessId)}:local`;

/** Reads one keyset page after (updated_at, id), oldest first. */
export type CustomerPageFetcher = (after: { at: string; id: string } | null) => Promise<CustomerRow[]>;

const strip = ({ id, name, phone, email }: Customer): Customer => ({ id, name, phone: phone ?? null, email: email ?? null });

/** Upserts changed rows by id, keeping the copy's order for the rest. */
export function mergeCustomers(items: Customer[], rows: Customer[]): Customer[] {
  if (rows.length === 0) return items;
  const changed = new Map(rows.map((r) => [r.id, strip(r)]));
  const merged = items.map((c) => {
    const row = changed.get(c.id);
    if (!row) return c;
    changed.delete(c.id);
    return row;
  });
  return [...merged, ...changed.values()];
}

const newest = (rows: CustomerRow[], since: string | null) => newestStamp(rows.map((r) => r.updated_at), since);

async function readAll(fetchPage: CustomerPageFetcher, from: string | null): Promise<CustomerRow[]> {
  const rows: CustomerRow[] = [];
  let after: { at: string; id: string } | null = from ? { at: from, id: '00000000-0000-0000-0000-000000000000' } : null;
  for (;;) {
    const page = await fetchPage(after);
    rows.push(...page);
    const last = page[page.length - 1];
    if (page.length < CUSTOMER_PAGE || !last) return rows;
    after = { at: last.updated_at, id: last.id };
  }
}

/**
 * Brings a copy up to date: in full when there is none (or another business's, or another version), else the rows
 * changed since `since - overlap`, then a full reload when the sizes disagree (a customer was deleted).
 */
export async function refreshCustomers(copy: CustomerCopy | null | undefined, businessId: string, fetchPage: CustomerPageFetcher,
  countServer: () => Promise<number>): Promise<{ copy: CustomerCopy; mode: 'full' | 'delta'; rows: number }> {
  const usable = copy && copy.businessId === businessId && copy.version === CUSTOMER_COPY_VERSION && copy.since;
  if (usable) {
    const from = deltaStart(copy.since as string);
    const rows = await readAll(fetchPage, from);
    const items = mergeCustomers(copy.items, rows);
    if (items.length === (await countServer())) {
      return { copy: { businessId, items, since: newest(rows, copy.since), version: CUSTOMER_COPY_VERSION }, mode: 'delta', rows: rows.length };
    }
  }
  const rows = await readAll(fetchPage, null);
  return { copy: { businessId, items: rows.map(strip), since: newest(rows, null), version: CUSTOMER_COPY_VERSION }, mode: 'full', rows: rows.length };
}

const digits = (s: string) => s.replace(/\D/g, '');

/** The copy's matches for what was typed: name, email or phone contains it (phone by its digits); names first. */
export function searchCustomers(items: Customer[], query: string, limit = 10): Customer[] {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const qDigits = digits(q);
  const found: Customer[] = [];
  for (const c of items) {
    if (c.name.toLowerCase().includes(q) || (c.email ?? '').toLowerCase().includes(q)
      || (qDigits.length >= 3 && digits(c.phone ?? '').includes(qDigits))) {
      found.push(c);
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name)).slice(0, limit);
}

/** PostgREST's or() keyset after (updated_at, id); timestamps are quoted (they hold ':' and '+'). */
export const keysetFilter = (after: { at: string; id: string }) =>
  `updated_at.gt."${after.at}",and(updated_at.eq."${after.at}",id.gt.${after.id})`;

/** Refreshes and stores the device's copy of a business's customers (RLS: what this session may read). */
export async function refreshCustomerCopy(supabase: StorewiseClient, db: PosDatabase, businessId: string): Promise<CustomerCopy> {
  const key = customerCopyKey(businessId);
  const current = await getMeta<CustomerCopy>(db, key);
  const fetchPage: CustomerPageFetcher = async (after) => {
    let query = supabase.from('customers').select('id, name, phone, email, updated_at').eq('business_id', businessId);
    if (after) query = query.or(keysetFilter(after));
    const { data, error } = await query.order('updated_at').order('id').limit(CUSTOMER_PAGE);
    if (error) throw new Error(error.message);
    return (data ?? []) as CustomerRow[];
  };
  const countServer = async () => {
    const { count, error } = await supabase.from('customers').select('id', { count: 'exact', head: true }).eq('business_id', businessId);
    if (error) throw new Error(error.message);
    return count ?? 0;
  };
  const { copy } = await refreshCustomers(current, businessId, fetchPage, countServer);
  await setMeta(db, key, copy);
  // Customers added on this register stay searchable until the server's copy has them.
  const known = new Set(copy.items.map((c) => c.id));
  const local = (await getMeta<Customer[]>(db, addedHereKey(businessId))) ?? [];
  await setMeta(db, addedHereKey(businessId), local.filter((c) => !known.has(c.id)));
  return copy;
}

/** A customer added at this register joins the search at once (found offline before it syncs). */
export async function rememberCustomer(db: PosDatabase, businessId: string, customer: Customer): Promise<void> {
  const key = addedHereKey(businessId);
  await setMeta(db, key, mergeCustomers((await getMeta<Customer[]>(db, key)) ?? [], [customer]));
}

/** Searches the device's copy of a business's customers and those added here that have not synced. */
export async function findCustomersOffline(db: PosDatabase, businessId: string, query: string): Promise<Customer[]> {
  const copy = await getMeta<CustomerCopy>(db, customerCopyKey(businessId));
  const local = (await getMeta<Customer[]>(db, addedHereKey(businessId))) ?? [];
  return searchCustomers(mergeCustomers(copy?.items ?? [], local), query);
}

/** Drops copies of businesses the signed-in person no longer belongs to (a shared device, another sign-in). */
export async function dropOtherCustomerCopies(db: PosDatabase, businessIds: string[]): Promise<void> {
  const keep = new Set(businessIds.flatMap((b) => [customerCopyKey(b), addedHereKey(b)]));
  const tx = db.transaction('meta', 'readwrite');
  for (const key of await tx.store.getAllKeys()) {
    if (String(key).startsWith('customers:') && !keep.has(String(key))) await tx.store.delete(key);
  }
  await tx.done;
}
