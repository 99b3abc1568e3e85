import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { formatMinor } from './cart';
import { discardEntry, refusedEntries, retryEntry, type OutboxEntry, type PosDatabase } from './outbox';

/**
 * What the server refused from the outbox (ADR 0165), instead of it waiting silently: each entry with what it was,
 * who made it, when, and the refusal in plain words. An owner or manager retries it (it goes back in its place in
 * the queue and is sent again, flagged as offline) or discards it with a reason; either is recorded in the
 * activity trail first (pos_outbox_review), so nothing leaves the register without a trace.
 */
const KIND_WORDS: Record<string, string> = {
  sale: 'Sale', refund: 'Refund', customer: 'New customer', cash: 'Cash in/out', close: 'Shift close', open: 'Shift open',
};

const PLAIN: [RegExp, string][] = [
  [/another business or store|belongs to another|for this (customer|cash movement|shift) id/i,
    'Its id belongs to another business or store, so it cannot be saved here.'],
  [/your role .* does not allow|only the cashier who opened it/i, 'The person who made it is not allowed to do this (their role changed or is too low).'],
  [/do not have access to this store|permission denied for this business/i, 'The person who made it no longer has access to this store or business.'],
  [/already has an open shift/i, 'Another shift was already open on this register.'],
  [/already closed|shift is closed/i, 'The shift had already been closed.'],
  [/no such (register|store|shift)/i, 'The register, store or shift no longer exists (archived or deleted).'],
  [/no such customer/i, 'The customer no longer exists.'],
];

/** The server's refusal in words a manager at the counter understands (the server's own words when unknown). */
export function plainRefusal(error: string | undefined): string {
  const raw = (error ?? '').replace(/^rejected:\s*/, '').trim();
  for (const [pattern, words] of PLAIN) if (pattern.test(raw)) return words;
  return raw ? raw.charAt(0).toUpperCase() + raw.slice(1) : 'Refused without a reason.';
}

/** One line about what the entry holds (amounts from the register's own payload). */
export function entrySummary(entry: OutboxEntry, currency: string): string {
  const p = entry.payload;
  const money = (n: unknown) => formatMinor(Number(n) || 0, currency);
  switch (entry.kind ?? 'sale') {
    case 'sale': {
      const tenders = Array.isArray(p.tenders) ? (p.tenders as { amount?: number }[]) : [];
      return `${money(tenders.reduce((sum, t) => sum + (Number(t.amount) || 0), 0))} · receipt ${String(p.receipt_seq ?? '?')}`;
    }
    case 'refund': return `${Array.isArray(p.lines) ? p.lines.length : 0} line(s)`;
    case 'customer': return String(p.name ?? '');
    case 'cash': return `${p.kind === 'in' ? 'in' : 'out'} ${money(p.amount)} · ${String(p.reason ?? '')}`;
    case 'open': return `float ${money(p.opening_float)}`;
    default: return '';
  }
}

export function RefusedEntries({ supabase, db, storeId, currency, role, refusedCount, onChanged }: {
  supabase: StorewiseClient;
  db: PosDatabase;
  storeId: string;
  currency: string;
  /** The signed-in person's role in the store's business: owners and managers settle entries. */
  role: string;
  /** How many the outbox counted (a change reloads the list). */
  refusedCount: number;
  onChanged: () => Promise<void> | void;
}) {
  const [entries, setEntries] = useState<OutboxEntry[]>([]);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const manager = role === 'owner' || role === 'manager';

  const load = useCallback(() => refusedEntries(db).then(setEntries), [db]);
  useEffect(() => { void load(); }, [load, refusedCount]);

  const settle = async (entry: OutboxEntry, action: 'retry' | 'discard') => {
    setError(null);
    const reason = (reasons[entry.id] ?? '').trim();
    if (reason.length < 3) {
      setError('Give a reason (at least 3 characters)');
      return;
    }
    // The trail first: if it cannot be written (offline), the entry stays as it is.
    const { error: failed } = await supabase.rpc('pos_outbox_review', {
      _store_id: storeId, _entry_id: entry.id, _kind: entry.kind ?? 'sale', _action: action, _reason: reason,
      _error: plainRefusal(entry.lastError), _author_id: entry.author?.id ?? null,
    } as never);
    if (failed) {
      setError(`Not recorded: ${failed.message}`);
      return;
    }
    if (action === 'retry') await retryEntry(db, entry.id);
    else await discardEntry(db, entry.id);
    await load();
    await onChanged();
  };

  if (entries.length === 0) return null;
  return (
    <Stack gap="2" borderWidth="1px" borderColor="border.error" rounded="md" p="3" role="region" aria-label="Refused by the server"
      data-testid="refused-entries">
      <Text fontWeight="semibold">Refused by the server ({entries.length})</Text>
      {!manager && <Text fontSize="sm">A manager or the owner can retry or discard these on this register.</Text>}
      {entries.map((entry) => (
        <Stack key={entry.id} gap="1" borderTopWidth="1px" pt="2" data-testid="refused-entry">
          <HStack wrap="wrap" gap="2">
            <Badge colorPalette="red">{KIND_WORDS[entry.kind ?? 'sale'] ?? entry.kind}</Badge>
            <Text fontSize="sm">{entrySummary(entry, currency)}</Text>
            <Text fontSize="sm" color="fg.muted">
              {new Date(entry.createdAt).toLocaleString()}{entry.author ? ` · by ${entry.author.label}` : ''}
            </Text>
          </HStack>
          <Text fontSize="sm" data-testid="refusal">{plainRefusal(entry.lastError)}</Text>
          {manager && (
            <HStack wrap="wrap">
              <Input size="sm" maxW="xs" maxLength={500} aria-label="Reason for retrying or discarding" placeholder="Reason"
                value={reasons[entry.id] ?? ''} onChange={(e) => setReasons({ ...reasons, [entry.id]: e.target.value })} />
              <Button size="sm" variant="outline" onClick={() => void settle(entry, 'retry')}>Retry</Button>
              <Button size="sm" variant="outline" colorPalette="red" onClick={() => void settle(entry, 'discard')}>Discard</Button>
            </HStack>
          )}
        </Stack>
      ))}
      {error && <Text color="fg.error" role="alert">{error}</Text>}
    </Stack>
  );
}
