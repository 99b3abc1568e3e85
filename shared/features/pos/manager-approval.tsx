import { useEffect, useState } from 'react';
import { Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { PinForm } from './till-pins/pin-form';
import { approveWithPin, fetchTillStaff, pinRefusalText, type TillStaff } from './till-pins/till-pins-api';

/**
 * A manager approves on the spot with their PIN (ADR 0131, ADR 0300): they choose their name and type their PIN at
 * the register; approve_with_pin, called through the till's own session, checks in the database that the PIN is
 * theirs (5 wrong tries lock it), that they are an owner or manager of this store and that the percent is within
 * their own limit, and records them as the approver. The register passes only the approval id with the sale or
 * refund. Nobody types an email or a password at the counter.
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
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchTillStaff(supabase, storeId)
      .then((staff) => { if (live) setManagers(staff.filter((s) => s.role === 'owner' || s.role === 'manager')); })
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
  return (
    <PinForm label="Manager approval" people={managers} submitLabel="Approve" error={error} onSubmit={approve} onCancel={onCancel}
      title={purpose === 'discount' ? `A manager approves this discount (${maxPercent.toFixed(1)} %)`
        : purpose === 'expired_lot' ? 'A manager approves selling an expired lot' : 'A manager approves this refund'} />
  );
}
