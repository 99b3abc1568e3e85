import { Badge, Heading, Link, Stack, Table, Text } from '@chakra-ui/react';
import { format } from 'date-fns';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useSupabase } from '../../lib/platform-context';
import { fetchRecallReport } from './recalls-api';
import { ReleaseRecallForm } from './release-recall-form';
import { Loaded, useLoad } from './use-load';

/**
 * A recall's report (recall_report): the lots with the quarantined stock per store now, and every sale of them
 * with the customer where the sale named one, to call them back. Owners and managers; the database decides.
 */
export function RecallReportPage() {
  const supabase = useSupabase();
  const { recallId = '' } = useParams();
  const [state, reload] = useLoad(recallId, () => fetchRecallReport(supabase, recallId));
  return (
    <Loaded state={state} what="The recall" reload={reload}>
      {(report) => (
        <Stack gap="5" data-testid="recall-report">
          <Stack gap="1">
            <Link asChild fontSize="sm"><RouterLink to="/dashboard/inventory/lots">Back to lots</RouterLink></Link>
            <Heading as="h2" size="md">Recall of {format(new Date(report.recall.created_at), 'yyyy-MM-dd HH:mm')}</Heading>
            <Text>{report.recall.reason}</Text>
            {report.recall.created_by_name && <Text color="fg.muted" fontSize="sm">Started by {report.recall.created_by_name}</Text>}
          </Stack>
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Recalled lots">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader>Lot</Table.ColumnHeader>
                  <Table.ColumnHeader>Expires</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">At the recall</Table.ColumnHeader>
                  <Table.ColumnHeader>Stock now</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {report.lots.map((l) => (
                  <Table.Row key={l.lot_id}>
                    <Table.Cell>{l.product_name}</Table.Cell>
                    <Table.Cell>
                      {l.lot_number}{' '}
                      {l.quarantined ? <Badge colorPalette="purple" size="sm">quarantined</Badge>
                        : <Badge colorPalette="green" size="sm">released</Badge>}
                      {l.released_at && (
                        <Text fontSize="xs" color="fg.muted" data-testid="recall-release">
                          Released {format(new Date(l.released_at), 'yyyy-MM-dd HH:mm')}
                          {l.released_by_name ? ` by ${l.released_by_name}` : ''}: {l.release_reason}
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell>{l.expires_on ?? '—'}</Table.Cell>
                    <Table.Cell textAlign="end">{l.on_hand_at_recall}</Table.Cell>
                    <Table.Cell>{l.stock.length === 0 ? 'none left' : l.stock.map((s) => `${s.store_name}: ${s.qty}`).join(', ')}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <ReleaseRecallForm recallId={report.recall.id} lots={report.lots} onReleased={reload} />
          <Stack gap="2">
            <Text fontWeight="semibold">Sales of these lots ({report.sales.length})</Text>
            {report.sales.length === 0 ? <Text color="fg.muted">None of these lots was sold.</Text> : (
              <Table.ScrollArea borderWidth="1px" rounded="md">
                <Table.Root size="sm" aria-label="Sales of the recalled lots">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>Receipt</Table.ColumnHeader>
                      <Table.ColumnHeader>When</Table.ColumnHeader>
                      <Table.ColumnHeader>Store</Table.ColumnHeader>
                      <Table.ColumnHeader>Item and lot</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">Sold</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">Refunded</Table.ColumnHeader>
                      <Table.ColumnHeader>Customer</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {report.sales.map((s) => (
                      <Table.Row key={`${s.sale_id}|${s.lot_number}|${s.product_name}`} data-testid="recall-sale">
                        <Table.Cell fontFamily="mono">{s.receipt_number}</Table.Cell>
                        <Table.Cell>{format(new Date(s.occurred_at), 'yyyy-MM-dd HH:mm')}</Table.Cell>
                        <Table.Cell>{s.store_name}</Table.Cell>
                        <Table.Cell>{s.product_name}, lot {s.lot_number}</Table.Cell>
                        <Table.Cell textAlign="end">{s.qty}</Table.Cell>
                        <Table.Cell textAlign="end">{s.refunded_qty}</Table.Cell>
                        <Table.Cell>
                          {s.customer ? [s.customer.name, s.customer.phone, s.customer.email].filter(Boolean).join(' · ')
                            : <Text as="span" color="fg.muted">not known</Text>}
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
          </Stack>
        </Stack>
      )}
    </Loaded>
  );
}
