// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/pos.sql: cash_in_out() close_shift() create_customer() current_shift() open_shift()
//     post_sales() x_report() z_report() customers sales shifts
//   supabase/schemas/shared.sql: find_sale_for_refund()
//   supabase/schemas/workspace.sql: my_workspaces() registers stores
import { isReadOnlyRefusal, readOnlySentence } from '../../lib/read-only-refusal';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { BatchResult, OutboxEntry, SendResult } from './outbox';

export interface PosStore {
  id: string;
  name: string;
  business_id: string;
  currency: string;
  tax_inclusive: boolean;
  receipt_header: string | null;
  receipt_footer: string | null;
  /** Cash is paid in multiples of this many minor units (0: exact), issue 29. Absent in a copy cached before it. */
  cash_rounding_step?: number;
}
export interface PosRegister { id: string; name: string; store_id: string; receipt_prefix: string }
export interface PosShift { id: string; register_id: string; opened_at: string; opening_float: number; next_receipt_seq: number; receipt_prefix: string }

interface Result<T> { data: T | null; error: { message: string; code?: string } | null }
function unwrap<T>(result: Result<T>): T {
  if (result.error) throw new Error(result.error.message);
  return result.data as T;
}

export async function fetchStoresAndRegisters(supabase: StorewiseClient): Promise<{ stores: PosStore[]; registers: PosRegister[] }> {
  const stores = unwrap(await supabase.from('stores')
    .select('id, name, business_id, currency, tax_inclusive, receipt_header, receipt_footer, cash_rounding_step').is('archived_at', null).order('name'));
  const registers = unwrap(await supabase.from('registers').select('id, name, store_id, receipt_prefix').is('archived_at', null).order('name'));
  return { stores: stores as PosStore[], registers };
}

export async function fetchCurrentShift(supabase: StorewiseClient, registerId: string): Promise<PosShift | null> {
  return unwrap(await supabase.rpc('current_shift', { _register_id: registerId })) as unknown as PosShift | null;
}

export async function openShift(supabase: StorewiseClient, registerId: string, openingFloat: number): Promise<PosShift> {
  return unwrap(await supabase.rpc('open_shift', { _register_id: registerId, _opening_float: openingFloat })) as unknown as PosShift;
}

/** The caller's role in each business (my_workspaces), for the discount limit shown at the till. */
export async function fetchRoles(supabase: StorewiseClient): Promise<Record<string, string>> {
  const rows = unwrap(await supabase.rpc('my_workspaces')) as { id: string; role: string }[];
  return Object.fromEntries(rows.map((r) => [r.id, r.role]));
}

/**
 * Sends one outbox entry (a sale or a refund). A network failure or a 5xx is retried later; a refusal (4xx) is final for that entry.
 * Sales from the outbox are always sent with offline: true when they were made offline, so the server flags rather
 * than refuses them (ADR 0131).
 */
// A sale that already waited (its first send failed) was made against a catalog that may since have changed.
const payloadOf = (entry: OutboxEntry) => (entry.attempts > 0 ? { ...entry.payload, offline: true } : entry.payload);

/** SQLSTATEs that say "try again later" (serialization, deadlock, lock or statement timeout, resources). */
const RETRYABLE = /^(40001|40P01|55P03|57014|53\d\d\d|08\d\d\d)$/;

/**
 * Sends consecutive sales in one post_sales call (up to 50). The whole call failing on the network, a 401 or a
 * 5xx is retried later; a server without post_sales answers 404 and the outbox falls back to one at a time.
 */
export async function sendSales(supabase: StorewiseClient, entries: OutboxEntry[]): Promise<BatchResult> {
  try {
    const { data, error, status } = await supabase.rpc('post_sales', { _payloads: entries.map(payloadOf) as never });
    if (error) {
      if (status === 404) return { status: 'unsupported' };
      if (isReadOnlyRefusal(error)) return { status: 'retry', error: readOnlySentence(error), reason: 'read_only' };
      return { status: 'retry', error: error.message };
    }
    const rows = data as unknown as { id: string; ok: boolean; code?: string; message?: string }[];
    return { status: 'done', results: entries.map((entry, i) => {
      const row = rows[i];
      if (!row || row.id !== entry.id) return { status: 'retry', error: 'the answer does not match the sale' };
      if (row.ok) return { status: 'done', result: row };
      if (isReadOnlyRefusal(row)) return { status: 'retry', error: readOnlySentence(row), reason: 'read_only' };
      return RETRYABLE.test(row.code ?? '') ? { status: 'retry', error: row.message ?? row.code ?? '' }
        : { status: 'rejected', error: row.message ?? row.code ?? '' };
    }) };
  } catch (error) {
    return { status: 'retry', error: error instanceof Error ? error.message : String(error) };
  }
}

/** The idempotent write of each kind of entry (ADR 0155): the entry's id is the server's key for it. */
function callEntry(supabase: StorewiseClient, entry: OutboxEntry) {
  const p = entry.payload;
  switch (entry.kind) {
    case 'customer':
      return supabase.rpc('create_customer', { _id: p.id, _business_id: p.business_id, _name: p.name, _phone: p.phone, _email: p.email } as never);
    case 'cash':
      // The person switched in by PIN moves the cash (ADR 0350); queued or retried, it was made offline, so a switch
      // the server cannot verify flags the movement instead of refusing it.
      return supabase.rpc('cash_in_out', { _id: p.id, _shift_id: p.shift_id, _kind: p.kind, _amount: p.amount, _reason: p.reason, _at: p.at,
        _till_switch: p.till_switch ?? null, _offline: p.offline === true || entry.attempts > 0 } as never);
    case 'close':
      return supabase.rpc('close_shift', { _shift_id: p.shift_id, _counted: p.counted, _close_id: p.id, _closed_at: p.closed_at } as never);
    case 'open':
      // From the outbox the open was made offline: a second open shift on the register is flagged, not refused (ADR 0165).
      return supabase.rpc('open_shift', { _id: p.id, _register_id: p.register_id, _opening_float: p.opening_float, _opened_at: p.opened_at,
        _offline: p.offline !== false } as never);
    default:
      return supabase.rpc(entry.kind === 'refund' ? 'post_refund' : 'post_sale', { _payload: payloadOf(entry) as never });
  }
}

/** Sends one outbox entry of any kind (also used online first for a customer or cash, queued when it must retry). */
export async function sendSale(supabase: StorewiseClient, entry: OutboxEntry): Promise<SendResult> {
  try {
    const { data, error, status } = await callEntry(supabase, entry);
    if (!error) return { status: 'done', result: data };
    // An admin's read-only maintenance (docs/adr/0280): every write waits until it ends; the entry stays queued.
    if (isReadOnlyRefusal(error)) return { status: 'retry', error: readOnlySentence(error), reason: 'read_only' };
    // 429: the server is busy with this account's other calls (the local stack's per-user limit): later, not never.
    if (status === 0 || status >= 500 || status === 401 || status === 429) return { status: 'retry', error: error.message };
    return { status: 'rejected', error: error.message };
  } catch (error) {
    return { status: 'retry', error: error instanceof Error ? error.message : String(error) };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Shifts.
export interface ShiftFigures {
  shift_id: string; register_id: string; opened_at: string; closed_at: string | null; opening_float: number;
  sales_count: number; sales_total: number; discount_total: number; tax_total: number; flagged_count: number;
  tenders: Record<string, number>; refunds_count: number; refunds_total: number; cash_in: number; cash_out: number;
  expected_cash: number; counted: Record<string, unknown> | null; counted_total: number | null; difference: number | null;
  /** Cash rounding (ADR 0251): what rounding cash to the store's step added to the sales, and to the cash refunds. */
  cash_rounding?: number; refunds_cash_rounding?: number;
  /** Foreign cash per currency (ADR 0395): handed over (expected in the drawer), counted at the close, the difference. */
  foreign_cash?: ForeignDrawer[];
  /** Z report only: what arrived after the close (late offline entries), apart from the frozen figures (ADR 0171). */
  after_close?: { sales_count: number; sales_total: number; refunds_count: number; refunds_total: number; cash_change: number } | null;
}

export interface ForeignDrawer {
  currency: string; tenders: number; expected: number; paid: number; change: number; counted: number | null; difference: number | null;
}

export async function xReport(supabase: StorewiseClient, shiftId: string): Promise<ShiftFigures> {
  return unwrap(await supabase.rpc('x_report', { _shift_id: shiftId })) as unknown as ShiftFigures;
}

export async function zReport(supabase: StorewiseClient, shiftId: string): Promise<ShiftFigures> {
  return unwrap(await supabase.rpc('z_report', { _shift_id: shiftId })) as unknown as ShiftFigures;
}

export interface ShiftRow {
  id: string; register_id: string; opened_at: string; closed_at: string | null; opening_float: number;
  expected_cash: number | null; counted_total: number | null; difference: number | null;
  /** Opened offline while another shift was open on the register (ADR 0165): for the manager to reconcile. */
  opened_in_conflict?: boolean;
}

/** The store's last shifts, newest first (owners and managers: the history; RLS decides what a cashier sees). */
export async function shiftHistory(supabase: StorewiseClient, storeId: string): Promise<ShiftRow[]> {
  return unwrap(await supabase.from('shifts')
    .select('id, register_id, opened_at, closed_at, opening_float, expected_cash, counted_total, difference, opened_in_conflict')
    .eq('store_id', storeId).order('opened_at', { ascending: false }).limit(30)) as ShiftRow[];
}

// ---------------------------------------------------------------------------------------------------------------
// Customers.
export interface Customer { id: string; name: string; phone: string | null; email: string | null }

/** Strips what would change the meaning of a PostgREST or() filter (commas, parentheses, wildcards). */
const filterText = (q: string) => q.replace(/[,()*%\\:"]/g, ' ').trim();

export async function findCustomers(supabase: StorewiseClient, businessId: string, query: string): Promise<Customer[]> {
  const q = filterText(query);
  if (q.length < 2) return [];
  return unwrap(await supabase.from('customers').select('id, name, phone, email').eq('business_id', businessId)
    .or(`name.ilike.*${q}*,phone.ilike.*${q}*,email.ilike.*${q}*`).order('name').limit(10)) as Customer[];
}

export interface SaleSummary { id: string; receipt_number: string; occurred_at: string; total: number; store_id: string }

export async function customerHistory(supabase: StorewiseClient, customerId: string): Promise<SaleSummary[]> {
  return unwrap(await supabase.from('sales').select('id, receipt_number, occurred_at, total, store_id')
    .eq('customer_id', customerId).order('occurred_at', { ascending: false }).limit(20)) as SaleSummary[];
}

// ---------------------------------------------------------------------------------------------------------------
// Refunds: the original sale by its receipt number, with what of each line is left to refund.
export interface RefundableSale {
  id: string; receipt_number: string; occurred_at: string; total: number; store_id: string; currency: string;
  tenders: { kind: string; amount: number }[];
  lines: { id: string | null; line_no: number; description: string; qty: number; line_total: number; refunded: number;
    refundedAmount?: number }[];
  /** Known only on this device: the sale still waits in the outbox. */
  pending?: boolean;
}

/**
 * The sale on a receipt, for a refund: find_sale_for_refund (supabase/migrations/20261127100000_pos_money_rules.sql)
 * answers any member of the store, while the sales table shows a cashier only their own shifts' (ADR 0171).
 */
export async function findSaleByReceipt(supabase: StorewiseClient, storeId: string, receipt: string): Promise<RefundableSale | null> {
  const found = unwrap(await supabase.rpc('find_sale_for_refund', { _store_id: storeId, _receipt_number: receipt.trim().toUpperCase() })) as
    unknown as RefundableSale | null;
  if (!found) return null;
  const num = (n: unknown) => Number(n);
  return {
    ...found, total: num(found.total),
    tenders: found.tenders.map((t) => ({ kind: t.kind, amount: num(t.amount) })),
    lines: found.lines.map((l) => ({ ...l, qty: num(l.qty), line_total: num(l.line_total), refunded: num(l.refunded),
      refundedAmount: num(l.refundedAmount) })),
  };
}

