// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/pos.sql: approve_with_pin() switch_till() till_pin_verifiers() till_staff()
import { format } from 'date-fns';
import { z } from 'zod';
import { personMessage } from '../../../lib/database-messages';
import { isReadOnlyRefusal, readOnlySentence } from '../../../lib/read-only-refusal';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { verifierSetSchema, type VerifierSet } from './offline-verifier';

const role = z.enum(['owner', 'manager', 'cashier']);

// needs_two_factor: a manager whose PIN the database refuses until they set up two-factor sign-in (ADR 0350).
export const tillStaffSchema = z.array(z.object({ user_id: z.string().uuid(), full_name: z.string(), role, locked: z.boolean(),
  needs_two_factor: z.boolean().default(false) }));
export type TillStaff = z.infer<typeof tillStaffSchema>[number];

/** What the database answers to a PIN: the person (and the switch or approval made), or why not. */
const pinRefusal = z.object({
  ok: z.literal(false),
  reason: z.enum(['wrong_pin', 'locked', 'no_pin']),
  attempts_left: z.number().optional(),
  locked_until: z.string().optional(),
});
export type PinRefusal = z.infer<typeof pinRefusal>;
const switchResult = z.union([
  z.object({ ok: z.literal(true), switch_id: z.string().uuid(), user_id: z.string().uuid(), full_name: z.string(), role }),
  pinRefusal,
]);
const approvalResult = z.union([z.object({ ok: z.literal(true), approval_id: z.string().uuid() }), pinRefusal]);

interface Result { data: unknown; error: { message: string; code?: string; details?: string | null } | null }
/**
 * The answer's data, or its refusal as a sentence for the person at the counter: the shared rewordings (e.g. how
 * far this manager may approve a discount), and read-only maintenance with the admin's reason.
 */
function unwrap(result: Result): unknown {
  const { error } = result;
  if (error) throw new Error(isReadOnlyRefusal(error) ? readOnlySentence(error) : personMessage(error.message));
  return result.data;
}

/** A refused PIN as a sentence for the person at the counter. */
export function pinRefusalText(r: { reason: string; attempts_left?: number; locked_until?: string | number }): string {
  if (r.reason === 'locked') {
    const until = r.locked_until !== undefined ? ` until ${format(new Date(r.locked_until), 'HH:mm')}` : '';
    return `This PIN is locked after 5 wrong tries${until}. A manager can reset it.`;
  }
  if (r.reason === 'no_pin') return 'This person has no PIN yet: they set one in their profile, or a manager sets it.';
  if (r.reason === 'unknown') return 'This register has no PIN for this person yet: connect once to fetch the staff list.';
  const left = r.attempts_left;
  return left === undefined ? 'Wrong PIN.' : `Wrong PIN: ${left} ${left === 1 ? 'try' : 'tries'} left before it locks.`;
}

export async function fetchTillStaff(supabase: StorewiseClient, storeId: string): Promise<TillStaff[]> {
  return tillStaffSchema.parse(unwrap(await supabase.rpc('till_staff', { _store_id: storeId })));
}

export async function fetchVerifiers(supabase: StorewiseClient, registerId: string): Promise<VerifierSet> {
  return verifierSetSchema.parse(unwrap(await supabase.rpc('till_pin_verifiers', { _register_id: registerId })));
}

export async function switchTillOnline(supabase: StorewiseClient, registerId: string, userId: string, pin: string) {
  return switchResult.parse(unwrap(await supabase.rpc('switch_till', { _register_id: registerId, _user_id: userId, _pin: pin })));
}

/** A manager's or owner's PIN approves one discount (up to the percent), refund or sale of an expired lot, through the till's own session. */
export async function approveWithPin(supabase: StorewiseClient, storeId: string, userId: string, pin: string,
  purpose: 'discount' | 'refund' | 'expired_lot', maxPercent: number) {
  return approvalResult.parse(unwrap(await supabase.rpc('approve_with_pin', {
    _store_id: storeId, _user_id: userId, _pin: pin, _purpose: purpose,
    _max_discount_percent: Math.min(100, Math.ceil(maxPercent * 1000) / 1000),
  })));
}

/** The people whose PIN can work at this till now, and the names of those left out for want of two-factor. */
export function usableStaff(staff: TillStaff[]): { people: TillStaff[]; needTwoFactor: string[] } {
  return { people: staff.filter((s) => !s.needs_two_factor), needTwoFactor: staff.filter((s) => s.needs_two_factor).map((s) => s.full_name) };
}

/** The sentence under a PIN list that left managers out (null when nobody was). */
export function twoFactorNote(names: string[]): string | null {
  if (names.length === 0) return null;
  return `${names.join(', ')} cannot use a PIN here until they set up two-factor sign-in in their profile: this business requires it of managers.`;
}
