import { useState } from 'react';
import { Badge, Box, Button, Heading, HStack, Link, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { DraftLinesForm } from './draft-lines-form';
import { failure } from './inventory-api';
import { money } from './inventory-schemas';
import {
  deleteDraft, emailOrder, fetchPurchaseOrder, orderNumber, receiveOrder, saveDraftLines, setOrderStatus, STATUS_LABEL,
} from './orders-api';
import { ReceiveForm } from './receive-form';
import type { StoreContext } from './store-context';
import { Loaded, useLoad } from './use-load';

// Printing shows the order sheet alone (the dashboard around it, buttons included, is hidden).
const PRINT_CSS = '@media print { body * { visibility: hidden; } .po-print, .po-print * { visibility: visible; } '
  + '.po-print { position: absolute; inset: 0; padding: 1cm; } .no-print { display: none !important; } }';

/** One purchase order: its lines, and what its status allows (edit a draft's lines, order, print, email, receive, close). */
export function PurchaseOrderPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const [receiving, setReceiving] = useState(false);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [state, reload] = useLoad(orderId, () => fetchPurchaseOrder(supabase, orderId));

  const act = async (what: string, run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      notify.success(done);
      reload();
    } catch (error) {
      notify.error(`${what} failed`, failure(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Loaded state={state} what="The purchase order" reload={reload}>
      {(data) => {
        if (!data) return <Text>This purchase order does not exist or is not in your stores.</Text>;
        const { order, lines, supplier, labels } = data;
        const store = ctx.stores.find((s) => s.id === order.store_id);
        const total = lines.reduce((sum, l) => sum + Number(l.qty_ordered) * Number(l.unit_cost), 0);
        const receivable = order.status === 'ordered' || order.status === 'partly_received';
        return (
          <Stack gap="4">
            <style>{PRINT_CSS}</style>
            <HStack className="no-print" gap="2" wrap="wrap">
              <Link asChild color="blue.fg"><RouterLink to="/dashboard/inventory/purchase-orders">← Purchase orders</RouterLink></Link>
            </HStack>
            <Box className="po-print" data-testid="po-sheet">
              <Stack gap="3">
                <HStack justify="space-between" wrap="wrap">
                  <Heading as="h2" size="lg">Purchase order {orderNumber(order.id)}</Heading>
                  <Badge size="lg" data-testid="po-status">{STATUS_LABEL[order.status] ?? order.status}</Badge>
                </HStack>
                <Text>
                  To <strong>{supplier?.name ?? 'an archived supplier'}</strong>
                  {supplier?.contact_name ? ` (${supplier.contact_name})` : ''}{supplier?.email ? `, ${supplier.email}` : ''}
                </Text>
                <Text>Deliver to {store?.name ?? 'the store'}{order.expected_on ? ` by ${order.expected_on}` : ''}.</Text>
                {order.notes && <Text>Notes: {order.notes}</Text>}
                <Table.ScrollArea>
                  <Table.Root size="sm" aria-label="Lines">
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeader>Item</Table.ColumnHeader>
                        <Table.ColumnHeader>SKU</Table.ColumnHeader>
                        <Table.ColumnHeader textAlign="end">Ordered</Table.ColumnHeader>
                        <Table.ColumnHeader textAlign="end">Received</Table.ColumnHeader>
                        <Table.ColumnHeader textAlign="end">Unit cost</Table.ColumnHeader>
                        <Table.ColumnHeader textAlign="end">Line total</Table.ColumnHeader>
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {lines.map((l) => (
                        <Table.Row key={l.id} data-testid="po-line">
                          <Table.Cell>{labels.get(l.variant_id)?.label ?? 'Item'}</Table.Cell>
                          <Table.Cell fontFamily="mono">{labels.get(l.variant_id)?.sku ?? ''}</Table.Cell>
                          <Table.Cell textAlign="end">{String(l.qty_ordered)}</Table.Cell>
                          <Table.Cell textAlign="end" data-testid="po-line-received">{String(l.qty_received)}</Table.Cell>
                          <Table.Cell textAlign="end">{money(l.unit_cost)}</Table.Cell>
                          <Table.Cell textAlign="end">{money(Number(l.qty_ordered) * Number(l.unit_cost))}</Table.Cell>
                        </Table.Row>
                      ))}
                    </Table.Body>
                  </Table.Root>
                </Table.ScrollArea>
                <Text textAlign="end" fontWeight="medium">Total {money(total)}</Text>
              </Stack>
            </Box>
            {editing && order.status === 'draft' && (
              <Box className="no-print">
                <DraftLinesForm businessId={ctx.businessId} onCancel={() => setEditing(false)}
                  initial={lines.map((l) => {
                    const label = labels.get(l.variant_id);
                    return { variantId: l.variant_id, label: `${label?.label ?? 'Item'} (${label?.sku ?? ''})`,
                      unit: label?.unit ?? 'each', qty: String(Number(l.qty_ordered)), unitCost: money(l.unit_cost) };
                  })}
                  onSubmit={async (values) => {
                    try {
                      const count = await saveDraftLines(supabase, order.id, values);
                      notify.success('Draft saved', `${count} line${count === 1 ? '' : 's'} on the order.`);
                      setEditing(false);
                      reload();
                    } catch (error) {
                      notify.error('Lines not saved', failure(error));
                    }
                  }} />
              </Box>
            )}
            <HStack className="no-print" gap="2" wrap="wrap" hidden={editing}>
              {order.status === 'draft' && (
                <>
                  <Button variant="outline" disabled={busy} onClick={() => setEditing(true)}>Edit lines</Button>
                  <Button disabled={busy} onClick={() => void act('Ordering', () => setOrderStatus(supabase, order.id, 'ordered'), 'Marked as ordered')}>
                    Mark ordered
                  </Button>
                  <Button variant="outline" colorPalette="red" disabled={busy} onClick={() => {
                    deleteDraft(supabase, order.id).then(() => {
                      notify.success('Draft deleted');
                      void navigate('/dashboard/inventory/purchase-orders');
                    }, (error: unknown) => notify.error('Draft not deleted', failure(error)));
                  }}>Delete draft</Button>
                </>
              )}
              <Button variant="outline" onClick={() => window.print()}>Print</Button>
              {receivable && (
                <>
                  <Button variant="outline" disabled={busy || !supplier?.email}
                    title={supplier?.email ? undefined : 'Add an email address to the supplier first'}
                    onClick={() => void act('Email', () => emailOrder(supabase, order.id), `Sent to ${supplier?.email ?? 'the supplier'}`)}>
                    Email to supplier
                  </Button>
                  {!receiving && <Button onClick={() => setReceiving(true)}>Receive goods</Button>}
                </>
              )}
              {order.status !== 'closed' && order.status !== 'draft' && (
                <Button variant="outline" disabled={busy} onClick={() => void act('Closing', () => setOrderStatus(supabase, order.id, 'closed'), 'Order closed')}>
                  Close order
                </Button>
              )}
            </HStack>
            {receiving && receivable && (
              <Box className="no-print">
                <ReceiveForm onCancel={() => setReceiving(false)}
                  lines={lines.filter((l) => Number(l.qty_received) < Number(l.qty_ordered)).map((l) => {
                    const label = labels.get(l.variant_id);
                    const remaining = Math.round((Number(l.qty_ordered) - Number(l.qty_received)) * 1000) / 1000;
                    return { lineId: l.id, variantId: l.variant_id, label: label?.label ?? 'Item', unit: label?.unit ?? 'each', remaining,
                      hasLots: Boolean(label?.hasLots), requiresExpiry: Boolean(label?.requiresExpiry),
                      serialTracking: label?.serialTracking ?? null, barcodes: label?.barcodes ?? [],
                      qty: String(remaining), lotNumber: '', expiresOn: '', serials: '' };
                  })}
                  onSubmit={async (values) => {
                    try {
                      const status = await receiveOrder(supabase, order.id, order.store_id, values);
                      notify.success('Goods received', status === 'received' ? 'The order is fully received.' : 'The order is partly received.');
                      setReceiving(false);
                      reload();
                    } catch (error) {
                      notify.error('Not received', failure(error));
                    }
                  }} />
              </Box>
            )}
          </Stack>
        );
      }}
    </Loaded>
  );
}
