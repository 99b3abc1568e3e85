import type { StorewiseClient } from '../../lib/supabase-client';
import { getMeta, queuedEntry, type OutboxKind, type PosDatabase } from './outbox';
import { sendSale, type PosRegister, type PosShift } from './pos-api';

/**
 * Opening a shift with or without a connection (issue 13, ADR 0165). The shift's id and time are the register's.
 * Online the open is tried at once (the database refuses a second open shift on the register: shown to the
 * cashier). When the server cannot be reached the same open is queued in the outbox, ahead of the sales made in
 * the shift, and the till opens at once from the device's figures; open_shift is idempotent by the id, and from the
 * outbox a collision with another open shift is written and flagged for the manager, never dropped.
 */
export interface ShiftOpenPayload extends Record<string, unknown> {
  id: string;
  register_id: string;
  opening_float: number;
  opened_at: string;
  /** True when it comes from the outbox (the drawer was opened without a connection). */
  offline: boolean;
}

export function shiftOpenPayload(registerId: string, openingFloat: number, now = new Date()): ShiftOpenPayload {
  return { id: crypto.randomUUID(), register_id: registerId, opening_float: openingFloat, opened_at: now.toISOString(), offline: false };
}

/** The shift as the till needs it, from the device's own figures (the last receipt sequence it used). */
export function localShift(payload: ShiftOpenPayload, register: PosRegister, lastSeq: number): PosShift {
  return { id: payload.id, register_id: register.id, opened_at: payload.opened_at, opening_float: payload.opening_float,
    next_receipt_seq: lastSeq + 1, receipt_prefix: register.receipt_prefix };
}

export type Enqueue = (kind: OutboxKind, payload: Record<string, unknown> & { id: string }) => Promise<void>;

/** Opens the shift online, else queues it; a refusal (e.g. the register already has an open shift) is thrown. */
export async function openShiftAnywhere(args: {
  supabase: StorewiseClient; db: PosDatabase; register: PosRegister; openingFloat: number; online: boolean; enqueue: Enqueue;
}): Promise<{ shift: PosShift; queued: boolean }> {
  const { supabase, db, register, openingFloat, online, enqueue } = args;
  const payload = shiftOpenPayload(register.id, openingFloat);
  if (online) {
    const sent = await sendSale(supabase, { id: payload.id, seq: 0, kind: 'open', payload, createdAt: payload.opened_at, attempts: 0 });
    if (sent.status === 'done') return { shift: sent.result as PosShift, queued: false };
    if (sent.status === 'rejected') throw new Error(sent.error);
  }
  const queuedPayload = { ...payload, offline: true };
  await enqueue('open', queuedPayload);
  return { shift: localShift(queuedPayload, register, (await getMeta<number>(db, `seq:${register.id}`)) ?? 0), queued: true };
}

/**
 * The shift a register should show after asking the server: a shift opened here whose open still waits in the
 * outbox stays the register's shift (the server does not know it yet, or holds another one), else the server's.
 */
export async function keepQueuedShift(db: PosDatabase, registerId: string, fetched: PosShift | null): Promise<PosShift | null> {
  const cached = await getMeta<PosShift | null>(db, `shift:${registerId}`);
  if (cached && cached.id !== fetched?.id && (await queuedEntry(db, cached.id))?.kind === 'open') return cached;
  return fetched;
}
