import { Stack, Table, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LoadingText } from '../../components/loading-text';
import { actorName } from '../../lib/actor-name';
import { useSupabase } from '../../lib/platform-context';
import { fetchHistory, type HistoryRow } from './inventory-api';

const KIND_LABEL: Record<string, string> = {
  receive: 'received', sale: 'sale', refund: 'refund', adjust: 'adjusted', count: 'count', transfer_out: 'transfer out',
  transfer_in: 'transfer in', damage: 'damaged', opening: 'opening stock',
};

/** Every movement of a variant in a store: who, when, why and the running balance after it. */
export function StockHistory({ storeId, variantId, title }: { storeId: string; variantId: string; title: string }) {
  const supabase = useSupabase();
  const [state, setState] = useState<{ key: string; rows: HistoryRow[]; error: string | null } | null>(null);
  const key = `${storeId}|${variantId}`;
  useEffect(() => {
    let cancelled = false;
    fetchHistory(supabase, storeId, variantId).then(
      (rows) => !cancelled && setState({ key, rows, error: null }),
      (error: unknown) => !cancelled && setState({ key, rows: [], error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [supabase, storeId, variantId, key]);
  const loaded = state?.key === key ? state : null;
  return (
    <Stack gap="2" as="section" aria-label={`History of ${title}`}>
      <Text fontWeight="medium">History of {title}</Text>
      {!loaded ? <LoadingText /> : loaded.error ? <Text color="fg.error">{loaded.error}</Text> : (
        <Table.ScrollArea borderWidth="1px" rounded="md">
        <Table.Root size="sm" aria-label={`Movements of ${title}`}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>When</Table.ColumnHeader>
              <Table.ColumnHeader>What</Table.ColumnHeader>
              <Table.ColumnHeader>Who</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Change</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Balance</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {loaded.rows.map((m) => (
              <Table.Row key={m.id} data-testid="history-row">
                <Table.Cell>{new Date(m.occurred_at).toLocaleString()}</Table.Cell>
                <Table.Cell data-testid="history-what">{[KIND_LABEL[m.kind] ?? m.kind, m.reason, m.lot_number && `lot ${m.lot_number}`, m.note].filter(Boolean).join(' · ')}</Table.Cell>
                <Table.Cell>{actorName({ email: m.actor_email, name: m.actor_label })}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="history-change">{Number(m.qty) > 0 ? `+${String(m.qty)}` : String(m.qty)}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="history-balance">{String(m.balance)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
