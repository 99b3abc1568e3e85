import { useState } from 'react';
import { Button, CloseButton, Dialog, Portal, Stack, Table, Text } from '@chakra-ui/react';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { StatusBadge } from '../../../components/status-badge';
import { notify } from '../../../components/toaster';
import { formatDate, formatMoney } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { AdminApiError } from '../admin-api';
import { useAdminData } from '../common/use-admin-data';

/** A business's billing history (admins read every row through billing_history's policy), newest first. */
async function fetchBusinessBilling(supabase: StorewiseClient, businessId: string) {
  const { data, error } = await supabase.from('billing_history')
    .select('id, amount, date, status, description, invoice_url, provider_invoice_id')
    .eq('business_id', businessId).order('date', { ascending: false }).limit(100);
  if (error) throw new AdminApiError(error.message, error.code);
  return data;
}

async function refund(supabase: StorewiseClient, invoiceId: string, reason: string): Promise<void> {
  const { error } = await supabase.functions.invoke('billing-refund', { body: { invoice_id: invoiceId, reason } });
  if (error instanceof FunctionsHttpError) {
    const payload = (await (error.context as Response).json().catch(() => null)) as { error?: string } | null;
    throw new Error(payload?.error ?? 'The refund failed.');
  }
  if (error) throw new Error('The billing service cannot be reached.');
}

function HistoryTable({ businessId }: { businessId: string }) {
  const supabase = useSupabase();
  const { state, reload } = useAdminData(`billing:${businessId}`, () => fetchBusinessBilling(supabase, businessId));
  const [busy, setBusy] = useState<string | null>(null);
  if (state.status === 'error') return <LoadError message="We couldn't load the billing history." error={state.error} onRetry={reload} />;
  if (state.status === 'loading') return <LoadingText />;
  if (state.data.length === 0) return <Text color="fg.muted">No billing history available</Text>;

  const onRefund = async (invoiceId: string, amount: number) => {
    const reason = window.prompt(`Refund ${formatMoney(amount)} to the card it was paid with. Why? (kept in the business's trail)`)?.trim();
    if (!reason) return;
    setBusy(invoiceId);
    try {
      await refund(supabase, invoiceId, reason);
      notify.success('Refunded', `${formatMoney(amount)} goes back to the customer's card.`);
      reload();
    } catch (error) {
      notify.error('Not refunded', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Table.Root size="sm" aria-label="Billing history">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Date</Table.ColumnHeader><Table.ColumnHeader>Description</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader><Table.ColumnHeader>Status</Table.ColumnHeader>
          <Table.ColumnHeader />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {state.data.map((row) => (
          <Table.Row key={row.id}>
            <Table.Cell>{formatDate(row.date)}</Table.Cell>
            <Table.Cell>{row.description || 'Payment'}</Table.Cell>
            <Table.Cell textAlign="end">{formatMoney(row.amount)}</Table.Cell>
            <Table.Cell><StatusBadge status={row.status} /></Table.Cell>
            <Table.Cell>
              {row.provider_invoice_id && row.status === 'paid' && Number(row.amount) > 0 && (
                <Button size="xs" variant="outline" loading={busy === row.provider_invoice_id}
                  onClick={() => void onRefund(row.provider_invoice_id ?? '', Number(row.amount))}>Refund</Button>
              )}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/** Account Management's "Billing" button: the business's invoices and payments, with refunds through the provider. */
export function BusinessBillingButton({ businessId, name }: { businessId: string; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={(event) => setOpen(event.open)} size="lg" scrollBehavior="inside">
      <Dialog.Trigger asChild>
        <Button ml="2" size="xs" variant="ghost">Billing</Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header><Dialog.Title>Billing of {name}</Dialog.Title></Dialog.Header>
            <Dialog.Body><Stack>{open && <HistoryTable businessId={businessId} />}</Stack></Dialog.Body>
            <Dialog.CloseTrigger asChild><CloseButton size="sm" aria-label="Close" /></Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
