import { useEffect, useState } from 'react';
import { Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { PinForm } from './till-pins/pin-form';
import { approveWithPin, fetchTillStaff, pinRefusalText, twoFactorNote, usableStaff, type TillStaff } from './till-pins/till-pins-api';

/**
 * A manager approves on the spot with their PIN (ADR 0131, ADR 0300): they choose their name and type their PIN at
 * the register; approve_with_pin, called through the till's own session, checks in the database that the PIN is
 * theirs (5 wrong tries lock it), that they are an owner or manager of this store and that the percent is within
 * their own limit, and records them as the approver. The register passes only the approval id with the sale or
 * refund. Nobody types an email or a password at the counter. A manager whose PIN the database would refuse for want
 * of two-factor sign-in (the business requires it, ADR 0350) is left out of the list, named in a note instead.
 */
export function ManagerApproval({ supabase, storeId, purpose, maxPercent, onApproved, onCancel }: {
  supabase: StorewiseClient;
  storeId: string;
  purpose: 'discount' | 'refund' | 'expired_lot';
  maxPercent: number;
  onApproved: (approvalId: string, percent: number) => void;
  onCancel: () => void;
}) {
  const [managers, setManagers] = useState<TillStaff[] | null>(null);
  const [leftOut, setLeftOut] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchTillStaff(supabase, storeId)
      .then((staff) => {
        if (!live) return;
        const usable = usableStaff(staff.filter((s) => s.role === 'owner' || s.role === 'manager'));
        setManagers(usable.people);
        setLeftOut(usable.needTwoFactor);
      })
      .catch((e: unknown) => { if (live) { setManagers([]); setError(e instanceof Error ? e.message : String(e)); } });
    return () => { live = false; };
  }, [supabase, storeId]);

  const approve = async (userId: string, pin: string) => {
    setError(null);
    const percent = Math.min(100, Math.ceil(maxPercent * 1000) / 1000);
    try {
      const r = await approveWithPin(supabase, storeId, userId, pin, purpose, percent);
      if (!r.ok) return setError(pinRefusalText(r));
      onApproved(r.approval_id, percent);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  if (!managers) return <Text role="status">Loading the managers of this store…</Text>;
  const note = twoFactorNote(leftOut);
  return (
    <>
      <PinForm label="Manager approval" people={managers} submitLabel="Approve" error={error} onSubmit={approve} onCancel={onCancel}
        title={purpose === 'discount' ? `A manager approves this discount (${maxPercent.toFixed(1)} %)`
          : purpose === 'expired_lot' ? 'A manager approves selling an expired lot' : 'A manager approves this refund'} />
      {note && <Text fontSize="sm" color="fg.muted" data-testid="approval-two-factor-note">{note}</Text>}
    </>
  );
}
