import { useState } from 'react';
import { Badge, Button, Heading, List, Stack, Table, Text } from '@chakra-ui/react';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { notify } from '../../../components/toaster';
import { formatDate } from '../../../lib/format';
import { useSupabase } from '../../../lib/platform-context';
import { useAdminData } from '../common/use-admin-data';
import { fetchDeletionQueue, fetchErasureProofs, setLegalHold, type DeletionRow, type ProofRow } from './deletion-queue-api';

const stateLabel: Record<DeletionRow['state'], string> = {
  pending: 'Pending', erasing: 'Erasing', retained: 'Fiscal records retained', purged: 'Purged',
};

/**
 * The deletion queue (issue 26, docs/adr/0220): businesses their owners asked to delete, with a legal hold that stops
 * the erasure and the purge, and the proof log of what was erased when.
 */
export function DeletionQueue() {
  const supabase = useSupabase();
  const { state, reload } = useAdminData('deletions', () => fetchDeletionQueue(supabase));
  const [proofs, setProofs] = useState<{ businessId: string; rows: ProofRow[] } | null>(null);

  const hold = async (row: DeletionRow) => {
    const reason = row.legal_hold ? undefined : window.prompt(`Why is the deletion of ${row.business_name} held?`)?.trim();
    if (!row.legal_hold && !reason) return;
    try {
      await setLegalHold(supabase, row.business_id, !row.legal_hold, reason);
      notify.success(row.legal_hold ? 'Legal hold lifted' : 'Legal hold placed', row.business_name);
      reload();
    } catch (error) {
      notify.error('Not changed', error instanceof Error ? error.message : 'Please try again.');
    }
  };

  const showProofs = async (row: DeletionRow) => {
    try {
      setProofs({ businessId: row.business_id, rows: await fetchErasureProofs(supabase, row.business_id) });
    } catch (error) {
      notify.error('Proof log not loaded', error instanceof Error ? error.message : 'Please try again.');
    }
  };

  return (
    <Stack as="section" aria-label="Deletion queue" gap="3">
      <Heading as="h2" size="md">Deletion queue</Heading>
      {state.status === 'error' && <LoadError message="Failed to fetch the deletion queue" error={state.error} onRetry={reload} />}
      {state.status === 'loading' && <LoadingText />}
      {state.status === 'ready' && (state.data.length === 0 ? <Text color="fg.muted">No business is being deleted.</Text> : (
        <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label="Deletion queue table">
          <Table.Root size="sm" aria-label="Deletions">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Business</Table.ColumnHeader><Table.ColumnHeader>State</Table.ColumnHeader>
                <Table.ColumnHeader>Asked</Table.ColumnHeader><Table.ColumnHeader>Erased after</Table.ColumnHeader>
                <Table.ColumnHeader>Retained until</Table.ColumnHeader><Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {state.data.map((row) => (
                <Table.Row key={row.business_id}>
                  <Table.Cell>{row.business_name}</Table.Cell>
                  <Table.Cell>
                    {stateLabel[row.state]}
                    {row.legal_hold && <Badge ml="2" colorPalette="orange" title={row.legal_hold_reason ?? ''}>Legal hold</Badge>}
                  </Table.Cell>
                  <Table.Cell>{formatDate(row.requested_at)}</Table.Cell>
                  <Table.Cell>{formatDate(row.erased_at ?? row.erase_after)}</Table.Cell>
                  <Table.Cell>{row.retain_until ? formatDate(row.retain_until) : '—'}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {row.state !== 'purged' && (
                      <Button size="xs" variant="outline" onClick={() => void hold(row)}>
                        {row.legal_hold ? 'Lift legal hold' : 'Legal hold'}
                      </Button>
                    )}
                    <Button ml="2" size="xs" variant="ghost" onClick={() => void showProofs(row)}>Proof log</Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      ))}
      {proofs && (
        <Stack aria-label="Proof log" gap="1" borderWidth="1px" rounded="md" p="3" bg="bg">
          <Heading as="h3" size="sm">Proof log</Heading>
          <List.Root variant="plain" gap="1">
            {proofs.rows.map((proof, index) => (
              <List.Item key={index} fontSize="sm">
                {new Date(proof.at).toLocaleString()}: {proof.what} ({proof.rows_affected})
              </List.Item>
            ))}
          </List.Root>
        </Stack>
      )}
    </Stack>
  );
}
