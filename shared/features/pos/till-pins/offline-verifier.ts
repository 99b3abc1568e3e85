import bcrypt from 'bcryptjs';
import { z } from 'zod';

/**
 * Switching the till to a person without a network (ADR 0300). The server issues, per register, what it needs for
 * its store's PIN holders only (till_pin_verifiers): a bcrypt verifier of the PIN with its own salt (never the hash
 * the server checks online) and the salt of a proof. A right PIN here yields the proof, bcrypt(PIN, proof salt),
 * which the register cannot make without the PIN and which the sale carries; the server checks it when the sale
 * syncs and flags the sale for a manager when it fails. Five wrong PINs lock a person here for 15 minutes: this only
 * slows someone at the counter, as an attacker holding the device can try PINs against the verifier at will.
 */
const bcryptHash = /^\$2[ab]\$\d\d\$[./A-Za-z0-9]{53}$/;
const bcryptSalt = /^\$2[ab]\$\d\d\$[./A-Za-z0-9]{22}$/;

export const verifierSetSchema = z.object({
  register_id: z.string().uuid(),
  issued_at: z.string(),
  staff: z.array(z.object({
    user_id: z.string().uuid(),
    full_name: z.string(),
    role: z.enum(['owner', 'manager', 'cashier']),
    verifier: z.string().regex(bcryptHash),
    proof_salt: z.string().regex(bcryptSalt),
  })),
});
export type VerifierSet = z.infer<typeof verifierSetSchema>;
export type TillPerson = Pick<VerifierSet['staff'][number], 'user_id' | 'full_name' | 'role'>;

export const OFFLINE_MAX_FAILURES = 5;
export const OFFLINE_LOCK_MS = 15 * 60_000;

/** Wrong tries per person on this register (kept beside the verifiers). */
export type LocalAttempts = Record<string, { failures: number; lockedUntil: number | null }>;

export type OfflineCheck =
  | { ok: true; person: TillPerson; proof: string }
  | { ok: false; reason: 'unknown' | 'locked'; lockedUntil?: number }
  | { ok: false; reason: 'wrong_pin'; attemptsLeft: number };

/**
 * Checks a PIN against the verifier of one person. Returns the verdict and the attempts to keep (pure apart from
 * the hashing: the caller stores `attempts`).
 */
export async function checkOfflinePin(set: VerifierSet, attempts: LocalAttempts, userId: string, pin: string,
  now: number): Promise<{ result: OfflineCheck; attempts: LocalAttempts }> {
  const entry = set.staff.find((s) => s.user_id === userId);
  if (!entry || !/^[0-9]{4,6}$/.test(pin)) return { result: { ok: false, reason: 'unknown' }, attempts };
  const mine = attempts[userId] ?? { failures: 0, lockedUntil: null };
  if (mine.lockedUntil !== null && mine.lockedUntil > now) {
    return { result: { ok: false, reason: 'locked', lockedUntil: mine.lockedUntil }, attempts };
  }
  if (await bcrypt.compare(pin, entry.verifier)) {
    const proof = await bcrypt.hash(pin, entry.proof_salt);
    const { [userId]: _cleared, ...rest } = attempts;
    return { result: { ok: true, person: { user_id: entry.user_id, full_name: entry.full_name, role: entry.role }, proof }, attempts: rest };
  }
  const failures = mine.failures + 1;
  if (failures >= OFFLINE_MAX_FAILURES) {
    const lockedUntil = now + OFFLINE_LOCK_MS;
    return { result: { ok: false, reason: 'locked', lockedUntil }, attempts: { ...attempts, [userId]: { failures: 0, lockedUntil } } };
  }
  return {
    result: { ok: false, reason: 'wrong_pin', attemptsLeft: OFFLINE_MAX_FAILURES - failures },
    attempts: { ...attempts, [userId]: { failures, lockedUntil: null } },
  };
}
