import { useState } from 'react';
import { Button, HStack, Input, Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../../lib/supabase-client';

/** request_receipt_email (supabase/migrations/20261123135000_receipt_email.sql): queued, or why not. */
export async function requestReceiptEmail(supabase: StorewiseClient, saleId: string, email: string): Promise<string | null> {
  const { error } = await supabase.rpc('request_receipt_email', { _sale_id: saleId, _email: email });
  return error ? error.message : null;
}

/**
 * The server's id of the sale on a receipt: the register's own when it passes one, else looked up by the receipt
 * number among the sales the cashier may read (receipt numbers are unique per business). Null until it has synced.
 */
export async function saleIdForReceipt(supabase: StorewiseClient, receiptNumber: string, known?: string): Promise<string | null> {
  if (known) return known;
  const { data, error } = await supabase.from('sales').select('id').eq('receipt_number', receiptNumber).limit(2);
  return !error && data?.length === 1 ? (data[0]?.id ?? null) : null;
}

/** "Email receipt" at the counter: one address, sent through the database's email outbox. */
export function EmailReceipt({ send }: { send: (email: string) => Promise<string | null> }) {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'sending' } | { kind: 'sent'; to: string } | { kind: 'error'; message: string }>({ kind: 'idle' });
  const valid = /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim());
  return (
    <HStack as="form" wrap="wrap" onSubmit={async (e) => {
      e.preventDefault();
      if (!valid) return;
      if (!navigator.onLine) {
        setState({ kind: 'error', message: 'Emailing a receipt needs a connection. Try again when the register is online.' });
        return;
      }
      setState({ kind: 'sending' });
      const to = email.trim();
      try {
        const error = await send(to);
        setState(error ? { kind: 'error', message: error } : { kind: 'sent', to });
      } catch {
        setState({ kind: 'error', message: 'The receipt could not be emailed. Try again.' });
      }
    }}>
      <Input type="email" aria-label="Email the receipt to" placeholder="Customer's email" maxW="64" value={email}
        onChange={(e) => setEmail(e.target.value)} />
      <Button type="submit" variant="outline" disabled={!valid || state.kind === 'sending'}>Email receipt</Button>
      {state.kind === 'sent' && <Text role="status" color="fg.success">Receipt sent to {state.to}</Text>}
      {state.kind === 'error' && <Text role="alert" color="fg.error">{state.message}</Text>}
    </HStack>
  );
}
