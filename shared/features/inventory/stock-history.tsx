import { Stack, Table, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LoadingText } from '../../components/loading-text';
import { useSupabase } from '../../lib/platform-context';
import { fetchHistory, type HistoryRow } from './inventory-api';

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
        <Table.Root size="sm">
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
              <Table.Row key={m.id}>
                <Table.Cell>{new Date(m.occurred_at).toLocaleString()}</Table.Cell>
                <Table.Cell>{[m.kind, m.reason, m.lot_number && `lot ${m.lot_number}`, m.note].filter(Boolean).join(' · ')}</Table.Cell>
                <Table.Cell>{m.actor_label ?? 'System'}</Table.Cell>
                <Table.Cell textAlign="end">{Number(m.qty) > 0 ? `+${String(m.qty)}` : String(m.qty)}</Table.Cell>
                <Table.Cell textAlign="end">{String(m.balance)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Stack>
  );
}
