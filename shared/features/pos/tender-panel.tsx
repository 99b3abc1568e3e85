import { useState } from 'react';
import { Badge, Button, HStack, IconButton, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { addTender, cashRemaining, changeDue, formatMinor, parseMinor, tenderState, type Tender, type TenderKind } from './cart';
import { SHORTCUTS } from './shortcuts';
import { amountExample } from '../../lib/money';
import type { ExchangeRate } from './exchange-rates-cache';
import { addForeignTender, foreignCashDue, foreignChangeDue } from './foreign-tender';

/**
 * Split tenders: type an amount (empty: what remains) and add it as cash, card or other. Cash may be more than
 * what remains (the change); card and other never are. The sale completes when the tenders pay the total exactly.
 */
export function TenderPanel({ total, step = 0, currency, rates = [], tenders, onChange, inputRef, disabled }: {
  total: number;
  /** The store's cash rounding step in minor units (0: exact): cash pays the rest rounded to it. */
  step?: number;
  currency: string;
  /** The rates in effect for foreign cash (exchange-rates-cache.ts); none: no currency choice. */
  rates?: ExchangeRate[];
  tenders: Tender[];
  onChange: (tenders: Tender[]) => void;
  inputRef: React.RefObject<HTMLInputElement | null>;
  disabled: boolean;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Cash in another currency (ADR 0395): the amount typed is in that currency; change is in the store's.
  const [paying, setPaying] = useState(currency);
  const rate = rates.find((r) => r.currency === paying) ?? null;
  const typedIn = rate ? rate.currency : currency;
  const money = (n: number) => formatMinor(n, currency);
  const state = tenderState(total, tenders, step);
  const forCash = cashRemaining(total, tenders, step);
  const given = text.trim() ? parseMinor(text, typedIn) : null;
  const liveChange = rate ? foreignChangeDue(total, tenders, given, rate, currency, step) : changeDue(state.remaining, given);

  const add = (kind: TenderKind) => {
    if (text.trim() && given === null) {
      setError(`Enter an amount like ${amountExample(typedIn)}`);
      return;
    }
    if (rate && kind !== 'cash') {
      setError(`Only cash is taken in ${rate.currency}: choose ${currency} for a ${kind} payment`);
      return;
    }
    const next = rate ? addForeignTender(total, tenders, given, rate, currency, step)
      : addTender(total, tenders, kind, given, step);
    if (typeof next === 'string') {
      setError(next);
      return;
    }
    setError(null);
    setText('');
    onChange(next);
  };

  const kinds: { kind: TenderKind; label: string; shortcut: (typeof SHORTCUTS)['cash' | 'card' | 'other'] }[] = [
    { kind: 'cash', label: 'Cash', shortcut: SHORTCUTS.cash },
    { kind: 'card', label: 'Card', shortcut: SHORTCUTS.card },
    { kind: 'other', label: 'Other', shortcut: SHORTCUTS.other },
  ];

  return (
    <Stack gap="2" aria-label="Payment" role="group">
      {tenders.map((t, i) => (
        <HStack key={i} justify="space-between" data-testid="tender-row">
          <Text textTransform="capitalize">{t.kind}{t.foreign ? ` (${t.foreign.currency} at ${t.foreign.rate})` : ''}</Text>
          <HStack>
            <Text>{t.foreign ? `${formatMinor(t.foreign.tendered, t.foreign.currency)} = ${money(t.tendered)}` : money(t.tendered)}</Text>
            <IconButton size="xs" variant="ghost" aria-label={`Remove the ${t.kind} payment`}
              onClick={() => onChange(tenders.filter((_, j) => j !== i))}>×</IconButton>
          </HStack>
        </HStack>
      ))}
      <HStack justify="space-between"><Text>To pay</Text><Text data-testid="tender-remaining">{money(state.remaining)}</Text></HStack>
      {step > 1 && forCash !== state.remaining && (
        <HStack justify="space-between" color="fg.muted">
          <Text>In cash (rounded)</Text><Text data-testid="tender-cash-rounded">{money(forCash)}</Text>
        </HStack>
      )}
      {rate && state.remaining > 0 && (
        <HStack justify="space-between" fontWeight="bold">
          <Text>Due in {rate.currency} <Text as="span" fontWeight="normal" color="fg.muted">(1 {rate.currency} = {rate.rate} {currency})</Text></Text>
          <Text data-testid="tender-foreign-due">{formatMinor(foreignCashDue(total, tenders, rate, currency, step), rate.currency)}</Text>
        </HStack>
      )}
      {(state.change > 0 || liveChange > 0) && (
        <HStack justify="space-between" fontWeight="bold">
          <Text>Change due</Text><Text data-testid="change-due">{money(state.change + liveChange)}</Text>
        </HStack>
      )}
      {rates.length > 0 && (
        <NativeSelect.Root size="sm" disabled={disabled}>
          <NativeSelect.Field aria-label="Cash currency" value={paying} onChange={(e) => { setPaying(e.target.value); setError(null); }}>
            <option value={currency}>{currency} (this store)</option>
            {rates.map((r) => <option key={r.currency} value={r.currency}>{r.currency}</option>)}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      )}
      <Input ref={inputRef} aria-label="Amount tendered"
        placeholder={rate ? `Amount in ${rate.currency} (empty: ${formatMinor(foreignCashDue(total, tenders, rate, currency, step), rate.currency)})`
          : `Amount (empty: ${money(state.remaining)})`} inputMode="decimal"
        value={text} disabled={disabled} onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add('cash'); } }} />
      <HStack wrap="wrap">
        {kinds.map(({ kind, label, shortcut }) => (
          <Button key={kind} size={{ base: 'md', md: 'lg' }} variant={kind === 'cash' ? 'solid' : 'outline'} disabled={disabled}
            aria-keyshortcuts={shortcut.aria} onClick={() => add(kind)} data-tender={kind}>
            {label} <Badge variant="outline" size="sm">{shortcut.label}</Badge>
          </Button>
        ))}
      </HStack>
      {error && <Text color="fg.error" role="alert">{error}</Text>}
    </Stack>
  );
}
