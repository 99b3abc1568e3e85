import { useEffect, useState } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../../lib/supabase-client';
import type { PosDatabase } from '../outbox';
import { checkOfflinePin, type TillPerson, type VerifierSet } from './offline-verifier';
import { PinForm, type PinPerson } from './pin-form';
import { fetchTillStaff, pinRefusalText, switchTillOnline, usableStaff } from './till-pins-api';
import { keepAttempts, readAttempts, readVerifiers } from './verifier-store';

/** The person selling at this till: switched in by PIN online (the server's switch id) or offline (with the proof). */
export interface TillCashier extends TillPerson {
  switchId: string;
  /** Offline switches only: bcrypt(PIN, proof salt), checked by the server when the sales sync. */
  proof?: string;
  at: string;
}

/** What a sale or refund payload carries for the person switched in (post_sale and post_refund check it). */
export function tillSwitchPayload(cashier: TillCashier | null): { till_switch?: Record<string, string> } {
  if (!cashier) return {};
  return { till_switch: { id: cashier.switchId, user_id: cashier.user_id,
    ...(cashier.proof ? { proof: cashier.proof, at: cashier.at } : {}) } };
}

/** Said in the list itself, so nobody wonders why a manager is missing offline (ADR 0350). */
export const OFFLINE_CASHIERS_ONLY = 'Only cashiers can switch in while offline: a manager or owner switches in when the register is online.';

/**
 * Who the list offers: online, everyone of the store with a PIN (till_staff: cashiers, managers and owners, whose PIN
 * the database checks); offline, or when till_staff cannot be reached, the register's verifiers, which hold cashiers
 * only (ADR 0300: the PINs that approve never leave the database).
 */
export async function switchCandidates(supabase: StorewiseClient, storeId: string, online: boolean,
  verifiers: VerifierSet | null): Promise<{ people: PinPerson[]; cashiersOnly: boolean }> {
  if (online) {
    try {
      // A manager the database would refuse for want of two-factor (ADR 0350) is not offered.
      return { people: usableStaff(await fetchTillStaff(supabase, storeId)).people, cashiersOnly: false };
    } catch {
      // Unreachable after all: the offline list, said as such.
    }
  }
  return { people: verifiers?.staff ?? [], cashiersOnly: true };
}

/**
 * Switch the till to another person of the store by their PIN (ADR 0300). Online, the database checks the PIN
 * (lockout after 5 wrong tries) and records the switch; the register also refreshes its offline verifiers then.
 * Offline, the register's verifier (kept fresh by useTillVerifiers) checks the PIN and the switch travels with the
 * sales, which the server checks.
 */
export function SwitchCashierPanel({ supabase, db, storeId, registerId, online, onSwitched, onCancel }: {
  supabase: StorewiseClient;
  db: PosDatabase;
  storeId: string;
  registerId: string;
  online: boolean;
  onSwitched: (cashier: TillCashier) => void;
  onCancel: () => void;
}) {
  const [set, setSet] = useState<VerifierSet | null>(null);
  const [list, setList] = useState<{ people: PinPerson[]; cashiersOnly: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      const copy = await readVerifiers(db, registerId);
      const candidates = await switchCandidates(supabase, storeId, online, copy);
      if (live) { setSet(copy); setList(candidates); }
    })();
    return () => { live = false; };
  }, [db, registerId, supabase, storeId, online]);

  const switchTo = async (userId: string, pin: string) => {
    setError(null);
    const at = new Date().toISOString();
    if (online) {
      try {
        const r = await switchTillOnline(supabase, registerId, userId, pin);
        if (!r.ok) return setError(pinRefusalText(r));
        return onSwitched({ user_id: r.user_id, full_name: r.full_name, role: r.role, switchId: r.switch_id, at });
      } catch (e) {
        // A network failure mid-call: the offline check below decides, as when the register knew it was offline.
        if (navigator.onLine) return setError(e instanceof Error ? e.message : String(e));
      }
    }
    if (!set) return setError(pinRefusalText({ reason: 'unknown' }));
    if (!set.staff.some((s) => s.user_id === userId)) return setError(OFFLINE_CASHIERS_ONLY);
    const { result, attempts } = await checkOfflinePin(set, await readAttempts(db, registerId), userId, pin, Date.now());
    await keepAttempts(db, registerId, attempts);
    if (!result.ok) {
      return setError(pinRefusalText(result.reason === 'wrong_pin' ? { reason: 'wrong_pin', attempts_left: result.attemptsLeft }
        : { reason: result.reason, ...(result.reason === 'locked' && result.lockedUntil ? { locked_until: result.lockedUntil } : {}) }));
    }
    onSwitched({ ...result.person, switchId: crypto.randomUUID(), proof: result.proof, at });
  };

  if (!list) return <Text role="status">Loading the staff of this store…</Text>;
  return (
    <Stack gap="1">
      <PinForm label="Switch cashier" title={list.cashiersOnly ? 'Who is selling now? (offline: checked again when the sales sync)' : 'Who is selling now?'}
        people={list.people} submitLabel="Switch" error={error} onSubmit={switchTo} onCancel={onCancel} />
      <Text fontSize="sm" color="fg.muted" data-testid="switch-offline-rule">{OFFLINE_CASHIERS_ONLY}</Text>
    </Stack>
  );
}
