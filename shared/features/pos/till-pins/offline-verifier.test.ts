import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { checkOfflinePin, OFFLINE_LOCK_MS, verifierSetSchema, type LocalAttempts, type VerifierSet } from './offline-verifier';
import { newPinSchema, pinProblem } from '../../../lib/pin-rules';

const ana = '0c0a0000-0000-4000-8000-00000000000a';
const ben = '0c0a0000-0000-4000-8000-00000000000b';

/** A set as till_pin_verifiers issues it (bf cost 4 here to keep the test quick; the server uses 10). */
async function issue(pins: Record<string, string>): Promise<{ set: VerifierSet; proofSalts: Record<string, string> }> {
  const proofSalts: Record<string, string> = {};
  const staff = await Promise.all(Object.entries(pins).map(async ([user_id, pin]) => {
    proofSalts[user_id] = await bcrypt.genSalt(4);
    return { user_id, full_name: user_id === ana ? 'Ana' : 'Ben', role: 'cashier' as const,
      verifier: await bcrypt.hash(pin, await bcrypt.genSalt(4)), proof_salt: proofSalts[user_id] as string };
  }));
  return { set: verifierSetSchema.parse({ register_id: '0c0a0000-0000-4000-8000-0000000000ff', issued_at: '2026-12-01T10:00:00Z', staff }), proofSalts };
}

describe('the offline PIN verifier', () => {
  it('a right PIN yields the person and a proof only the PIN makes', async () => {
    const { set, proofSalts } = await issue({ [ana]: '4826', [ben]: '7391' });
    const { result } = await checkOfflinePin(set, {}, ana, '4826', 0);
    if (!result.ok) throw new Error('refused');
    expect(result.person).toEqual({ user_id: ana, full_name: 'Ana', role: 'cashier' });
    expect(result.proof).toBe(await bcrypt.hash('4826', proofSalts[ana] as string));
    expect(result.proof).not.toBe(set.staff[0]?.verifier);
    expect(result.proof).not.toBe(await bcrypt.hash('4827', proofSalts[ana] as string));
    // Ben's PIN does not open Ana.
    expect((await checkOfflinePin(set, {}, ana, '7391', 0)).result).toEqual({ ok: false, reason: 'wrong_pin', attemptsLeft: 4 });
  });

  it('five wrong PINs lock the person for 15 minutes, the right one included; others are untouched', async () => {
    const { set } = await issue({ [ana]: '4826', [ben]: '7391' });
    let attempts: LocalAttempts = {};
    const left: (number | string)[] = [];
    for (let i = 0; i < 5; i += 1) {
      const r = await checkOfflinePin(set, attempts, ana, '0000', 1000);
      attempts = r.attempts;
      left.push(r.result.ok ? 'ok' : r.result.reason === 'wrong_pin' ? r.result.attemptsLeft : r.result.reason);
    }
    expect(left).toEqual([4, 3, 2, 1, 'locked']);
    expect((await checkOfflinePin(set, attempts, ana, '4826', 1000 + OFFLINE_LOCK_MS - 1)).result)
      .toEqual({ ok: false, reason: 'locked', lockedUntil: 1000 + OFFLINE_LOCK_MS });
    expect((await checkOfflinePin(set, attempts, ben, '7391', 1000)).result.ok).toBe(true);
    const after = await checkOfflinePin(set, attempts, ana, '4826', 1000 + OFFLINE_LOCK_MS);
    expect(after.result.ok).toBe(true);
    expect(after.attempts[ana]).toBeUndefined();
  });

  it('a right PIN clears the count; someone not in the set or a malformed PIN is refused without counting', async () => {
    const { set } = await issue({ [ana]: '4826' });
    const wrong = await checkOfflinePin(set, {}, ana, '1357', 0);
    expect(wrong.attempts[ana]).toEqual({ failures: 1, lockedUntil: null });
    expect((await checkOfflinePin(set, wrong.attempts, ana, '4826', 0)).attempts).toEqual({});
    expect((await checkOfflinePin(set, {}, ben, '7391', 0))).toEqual({ result: { ok: false, reason: 'unknown' }, attempts: {} });
    expect((await checkOfflinePin(set, {}, ana, '48x6', 0)).attempts).toEqual({});
  });

  it('takes only bcrypt verifiers and salts from the server', () => {
    const base = { register_id: '0c0a0000-0000-4000-8000-0000000000ff', issued_at: 'x' };
    const person = { user_id: ana, full_name: 'Ana', role: 'cashier' };
    expect(verifierSetSchema.safeParse({ ...base, staff: [{ ...person, verifier: '4826', proof_salt: '$2a$10$abcdefghijklmnopqrstuv' }] }).success).toBe(false);
    expect(verifierSetSchema.safeParse({ ...base, staff: [{ ...person, role: 'admin',
      verifier: `$2a$10$${'a'.repeat(53)}`, proof_salt: '$2a$10$abcdefghijklmnopqrstuv' }] }).success).toBe(false);
    expect(verifierSetSchema.safeParse({ ...base, staff: [{ ...person,
      verifier: `$2a$10$${'a'.repeat(53)}`, proof_salt: '$2a$10$abcdefghijklmnopqrstuv' }] }).success).toBe(true);
  });
});

describe('PIN rules (as private.pin_problem)', () => {
  it.each([
    ['1111', false], ['000000', false], ['1234', false], ['4321', false], ['890123', false], ['9876', false],
    ['1212', false], ['454545', false], ['123123', false], ['12a4', false], ['123', false], ['1234567', false],
    ['4826', true], ['7391', true], ['102938', true], ['1123', true], ['2580', true],
  ])('%s accepted: %s', (pin, ok) => {
    expect(pinProblem(pin) === null).toBe(ok);
  });

  it('a new PIN is typed twice', () => {
    expect(newPinSchema.safeParse({ pin: '4826', confirm: '4862' }).success).toBe(false);
    expect(newPinSchema.safeParse({ pin: '4826', confirm: '4826' }).success).toBe(true);
  });
});
