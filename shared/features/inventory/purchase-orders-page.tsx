import { useState } from 'react';
import { Badge, Button, HStack, Link, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { failure } from './inventory-api';
import { createPurchaseOrder, fetchPurchaseOrders, fetchSuppliers, orderNumber, STATUS_LABEL } from './orders-api';
import { PurchaseOrderForm } from './purchase-order-form';
import type { StoreContext } from './store-context';
import { Loaded, useLoad } from './use-load';

const statusColor: Record<string, string> = { draft: 'gray', ordered: 'blue', partly_received: 'orange', received: 'green', closed: 'gray' };

/** The store's purchase orders, newest first, and the new-order form. */
export function PurchaseOrdersPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [state, reload] = useLoad(ctx.store.id, async () => {
    const [orders, suppliers] = await Promise.all([fetchPurchaseOrders(supabase, ctx.store.id), fetchSuppliers(supabase, ctx.businessId)]);
    return { orders, suppliers, names: new Map(suppliers.map((s) => [s.id, s.name])) };
  });

  return (
    <Loaded state={state} what="Purchase orders" reload={reload}>
      {({ orders, suppliers, names }) => (
        <Stack gap="4">
          {!creating && (
            <HStack>
              <Button onClick={() => setCreating(true)} disabled={suppliers.length === 0}>New purchase order</Button>
              {suppliers.length === 0 && <Text fontSize="sm" color="fg.muted">Add a supplier first (Suppliers tab).</Text>}
            </HStack>
          )}
          {creating && (
            <PurchaseOrderForm businessId={ctx.businessId} suppliers={suppliers} onCancel={() => setCreating(false)}
              onSubmit={async (values) => {
                try {
                  const id = await createPurchaseOrder(supabase, ctx.store.id, values);
                  notify.success('Draft saved', `Purchase order ${orderNumber(id)}`);
                  void navigate(`/dashboard/inventory/purchase-orders/${id}`);
                } catch (error) {
                  notify.error('Purchase order not saved', failure(error));
                }
              }} />
          )}
          {orders.length === 0 ? <Text color="fg.muted">No purchase orders for {ctx.store.name} yet.</Text> : (
            <Table.ScrollArea borderWidth="1px" rounded="md">
              <Table.Root size="sm" aria-label="Purchase orders">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Order</Table.ColumnHeader>
                    <Table.ColumnHeader>Supplier</Table.ColumnHeader>
                    <Table.ColumnHeader>Status</Table.ColumnHeader>
                    <Table.ColumnHeader>Created</Table.ColumnHeader>
                    <Table.ColumnHeader>Expected</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {orders.map((o) => (
                    <Table.Row key={o.id} data-testid="po-row">
                      <Table.Cell fontFamily="mono">
                        <Link asChild color="blue.fg"><RouterLink to={`/dashboard/inventory/purchase-orders/${o.id}`}>{orderNumber(o.id)}</RouterLink></Link>
                      </Table.Cell>
                      <Table.Cell>{names.get(o.supplier_id) ?? 'Archived supplier'}</Table.Cell>
                      <Table.Cell><Badge colorPalette={statusColor[o.status] ?? 'gray'}>{STATUS_LABEL[o.status] ?? o.status}</Badge></Table.Cell>
                      <Table.Cell>{new Date(o.created_at).toLocaleDateString()}</Table.Cell>
                      <Table.Cell>{o.expected_on ?? '-'}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
        </Stack>
      )}
    </Loaded>
  );
}
