import { useState } from 'react';
import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { findScannedItem } from './datamatrix-scan';
import { failure } from './inventory-api';
import type { StoreContext } from './store-context';
import { ReceiveTransferForm, SendTransferForm } from './transfer-forms';
import { fetchSheet, fetchTransfers, receiveTransfer, sendTransfer } from './transfers-api';
import { Loaded, useLoad } from './use-load';

/** Stock moving between the business's stores: send from this store, receive what was sent to it. */
export function TransfersPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [sending, setSending] = useState(false);
  const [receivingId, setReceivingId] = useState<string | null>(null);
  const [state, reload] = useLoad(ctx.store.id, () => fetchTransfers(supabase, ctx.store.id));
  const storeName = (id: string) => ctx.stores.find((s) => s.id === id)?.name ?? 'another store';
  const others = ctx.stores.filter((s) => s.id !== ctx.store.id);

  return (
    <Stack gap="4">
      {!sending && (
        <HStack>
          <Button onClick={() => setSending(true)} disabled={others.length === 0}>Send stock</Button>
          {others.length === 0 && <Text fontSize="sm" color="fg.muted">Transfers need a second store.</Text>}
        </HStack>
      )}
      {sending && (
        <SendTransferForm businessId={ctx.businessId} stores={others} onCancel={() => setSending(false)}
          loadStock={(variantId) => fetchSheet(supabase, ctx.store.id, [variantId])}
          findScanned={(text) => findScannedItem(supabase, ctx.businessId, text)}
          onSubmit={async (values) => {
            try {
              await sendTransfer(supabase, ctx.store.id, values);
              notify.success('Stock sent', `To ${storeName(values.toStoreId)}`);
              setSending(false);
              reload();
            } catch (error) {
              notify.error('Stock not sent', failure(error));
            }
          }} />
      )}
      <Loaded state={state} what="Transfers" reload={reload}>
        {({ transfers, lines, labels, lots }) => transfers.length === 0 ? <Text color="fg.muted">No transfers yet.</Text> : (
          <Stack gap="3">
            {transfers.map((t) => {
              const own = lines.filter((l) => l.transfer_id === t.id);
              const label = (l: (typeof own)[number]) =>
                `${labels.get(l.variant_id)?.label ?? 'Item'}${l.lot_id ? `, lot ${lots.get(l.lot_id) ?? ''}` : ''}`;
              const incoming = t.to_store_id === ctx.store.id;
              return (
                <Box key={t.id} borderWidth="1px" rounded="md" p="3" data-testid="transfer">
                  <HStack justify="space-between" wrap="wrap" gap="2">
                    <Text fontWeight="medium">
                      {incoming ? `From ${storeName(t.from_store_id)}` : `To ${storeName(t.to_store_id)}`} · {new Date(t.sent_at).toLocaleString()}
                    </Text>
                    <Badge colorPalette={t.status === 'sent' ? 'orange' : 'green'} data-testid="transfer-status">
                      {t.status === 'sent' ? 'On the way' : 'Received'}
                    </Badge>
                  </HStack>
                  {t.note && <Text fontSize="sm" color="fg.muted">{t.note}</Text>}
                  {receivingId === t.id ? (
                    <ReceiveTransferForm onCancel={() => setReceivingId(null)}
                      lines={own.map((l) => ({ lineId: l.id, label: label(l), unit: labels.get(l.variant_id)?.unit ?? 'each',
                        sent: Number(l.qty_sent), received: String(l.qty_sent), damaged: '0' }))}
                      onSubmit={async (values) => {
                        try {
                          await receiveTransfer(supabase, t.id, values);
                          notify.success('Transfer received');
                          setReceivingId(null);
                          reload();
                        } catch (error) {
                          notify.error('Transfer not received', failure(error));
                        }
                      }} />
                  ) : (
                    <Stack gap="1" mt="2" fontSize="sm">
                      {own.map((l) => (
                        <Text key={l.id}>
                          {String(l.qty_sent)} × {label(l)}
                          {t.status === 'received' && ` (received ${String(l.qty_received)}, damaged ${String(l.qty_damaged)}, missing ${String(l.qty_missing)})`}
                        </Text>
                      ))}
                      {incoming && t.status === 'sent' && (
                        <HStack><Button size="sm" onClick={() => setReceivingId(t.id)}>Receive</Button></HStack>
                      )}
                    </Stack>
                  )}
                </Box>
              );
            })}
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
