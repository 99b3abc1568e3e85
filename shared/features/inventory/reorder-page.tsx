import { useState } from 'react';
import { Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { failure, unwrap } from './inventory-api';
import { createPurchaseOrder, fetchSuppliers, fetchVariantLabels, orderNumber } from './orders-api';
import { PurchaseOrderForm } from './purchase-order-form';
import type { StoreContext } from './store-context';
import { Loaded, useLoad } from './use-load';

/**
 * Items at or under their reorder point in the store, with the quantity that brings them to the target level,
 * turned into a draft purchase order (quantities and costs editable before saving). Levels are set per item on
 * the Stock tab.
 */
export function ReorderPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const [ordering, setOrdering] = useState(false);
  const [state, reload] = useLoad(ctx.store.id, async () => {
    const rows = unwrap(await supabase.rpc('reorder_list', { _store_id: ctx.store.id })) ?? [];
    const [labels, suppliers] = await Promise.all([fetchVariantLabels(supabase, rows.map((r) => r.variant_id)), fetchSuppliers(supabase, ctx.businessId)]);
    return { rows, labels, suppliers };
  });

  return (
    <Loaded state={state} what="The reorder list" reload={reload}>
      {({ rows, labels, suppliers }) => rows.length === 0 ? (
        <Text color="fg.muted">Nothing is at or under its reorder point in {ctx.store.name}. Set levels per item on the Stock tab.</Text>
      ) : (
        <Stack gap="4">
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Reorder list">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader>SKU</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">On hand</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Reorder at</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Target</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">To order</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((r) => (
                  <Table.Row key={r.variant_id} data-testid="reorder-row">
                    <Table.Cell>{labels.get(r.variant_id)?.label ?? r.product_name}</Table.Cell>
                    <Table.Cell fontFamily="mono">{r.sku}</Table.Cell>
                    <Table.Cell textAlign="end">{String(r.on_hand)}</Table.Cell>
                    <Table.Cell textAlign="end">{String(r.reorder_point)}</Table.Cell>
                    <Table.Cell textAlign="end">{String(r.target_level)}</Table.Cell>
                    <Table.Cell textAlign="end">{String(r.suggested)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          {!ordering ? (
            <HStack>
              <Button onClick={() => setOrdering(true)} disabled={suppliers.length === 0}>Turn into a purchase order</Button>
              {suppliers.length === 0 && <Text fontSize="sm" color="fg.muted">Add a supplier first (Suppliers tab).</Text>}
            </HStack>
          ) : (
            <PurchaseOrderForm businessId={ctx.businessId} suppliers={suppliers} onCancel={() => setOrdering(false)}
              initial={{ lines: rows.filter((r) => Number(r.suggested) > 0).map((r) => {
                const label = labels.get(r.variant_id);
                const unit = label?.unit ?? 'each';
                const qty = Number(r.suggested);
                return { variantId: r.variant_id, label: `${label?.label ?? r.product_name} (${r.sku})`, unit,
                  qty: String(unit === 'kg' ? qty : Math.ceil(qty)), unitCost: '' };
              }) }}
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
        </Stack>
      )}
    </Loaded>
  );
}
