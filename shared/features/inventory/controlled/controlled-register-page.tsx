import { useState } from 'react';
import { Badge, Button, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { format } from 'date-fns';
import { downloadText } from '../../../lib/download-file';
import { useSupabase } from '../../../lib/platform-context';
import { unwrap } from '../inventory-api';
import type { StoreContext } from '../store-context';
import { Loaded, useLoad } from '../use-load';
import { controlledRegisterCsv, fetchControlledItems, fetchControlledRegister } from './controlled-api';
import { DestructionForm } from './destruction-form';

/** What the screen says of itself (issue 29): records that help a pharmacy comply, not a verification service. */
export const CONTROLLED_REGISTER_NOTE = 'This register is kept from the stock ledger to help the pharmacy meet its'
  + ' record-keeping duties; it is a record, not a verification or reporting service. Check it against your local rules.';

/**
 * Inventory > Controlled register (owners and managers, prescriptions pack): a controlled item's movements at the
 * store with the running balance, who, the witness of a destruction and the prescription number of each sale;
 * CSV export; a destruction before a witness.
 */
export function ControlledRegisterPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [items, reloadItems] = useLoad(ctx.businessId, () => fetchControlledItems(supabase, ctx.businessId));
  const [chosen, setChosen] = useState('');
  const [destroying, setDestroying] = useState(false);
  const variantId = chosen || (items.status === 'ready' ? items.data[0]?.variantId ?? '' : '');
  const item = items.status === 'ready' ? items.data.find((i) => i.variantId === variantId) : undefined;
  const [rows, reloadRows] = useLoad(`${ctx.store.id}|${variantId}`,
    () => (variantId ? fetchControlledRegister(supabase, ctx.store.id, variantId) : Promise.resolve([])));
  const [lots] = useLoad(`${ctx.store.id}|${variantId}|lots|${item?.hasLots ?? false}`, async () => (!item?.hasLots ? null
    : (unwrap(await supabase.from('stock_balances').select('lot_id, qty, lots(lot_number)').eq('store_id', ctx.store.id)
      .eq('variant_id', variantId).gt('qty', 0)) ?? []).flatMap((b) => (b.lot_id
      ? [{ id: b.lot_id, label: `${b.lots?.lot_number ?? 'Lot'} (${Number(b.qty)} on hand)` }] : []))));

  return (
    <Stack gap="4">
      <Text color="fg.muted" data-testid="controlled-register-note">{CONTROLLED_REGISTER_NOTE}</Text>
      <Loaded state={items} what="Controlled items" reload={reloadItems}>
        {(list) => list.length === 0 ? (
          <Text>No controlled items yet: mark a product &ldquo;Controlled substance&rdquo; on its page.</Text>
        ) : (
          <HStack wrap="wrap" gap="3">
            <NativeSelect.Root maxW="md">
              <NativeSelect.Field aria-label="Controlled item" value={variantId} onChange={(e) => { setChosen(e.target.value); setDestroying(false); }}>
                {list.map((i) => <option key={i.variantId} value={i.variantId}>{i.label}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Button variant="outline" disabled={rows.status !== 'ready' || rows.data.length === 0} onClick={() => {
              if (rows.status !== 'ready') return;
              downloadText(`controlled-register-${(item?.label ?? 'item').replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${format(new Date(), 'yyyy-MM-dd')}.csv`,
                controlledRegisterCsv(rows.data));
            }}>Export CSV</Button>
            <Button variant="outline" colorPalette="red" onClick={() => setDestroying((d) => !d)}>Destroy stock…</Button>
          </HStack>
        )}
      </Loaded>
      {destroying && variantId && (lots.status === 'ready') && (
        <DestructionForm storeId={ctx.store.id} variantId={variantId} lots={lots.data}
          onDone={() => { setDestroying(false); reloadRows(); }} />
      )}
      {variantId && (
        <Loaded state={rows} what="The register" reload={reloadRows}>
          {(list) => list.length === 0 ? <Text color="fg.muted">No movements of this item at {ctx.store.name} yet.</Text> : (
            <Stack gap="2">
              <Text>Balance at {ctx.store.name}: <b data-testid="controlled-balance">{Number(list[0]?.balance)}</b></Text>
              <Table.ScrollArea borderWidth="1px" rounded="md">
                <Table.Root size="sm" aria-label="Controlled register">
                  <Table.Header>
                    <Table.Row>
                      {['Date', 'Kind', 'Quantity', 'Balance', 'Lot', 'By', 'Witness', 'Prescription', 'Receipt'].map((h) => (
                        <Table.ColumnHeader key={h} textAlign={h === 'Quantity' || h === 'Balance' ? 'end' : undefined}>{h}</Table.ColumnHeader>
                      ))}
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {list.map((r) => (
                      <Table.Row key={r.id} data-testid="controlled-row">
                        <Table.Cell>{format(new Date(r.occurred_at), 'yyyy-MM-dd HH:mm')}</Table.Cell>
                        <Table.Cell><Badge colorPalette={r.kind === 'destroyed' ? 'red' : 'gray'}>{r.kind}</Badge></Table.Cell>
                        <Table.Cell textAlign="end">{Number(r.qty)}</Table.Cell>
                        <Table.Cell textAlign="end" data-testid="controlled-row-balance">{Number(r.balance)}</Table.Cell>
                        <Table.Cell>{r.lot_number ?? ''}</Table.Cell>
                        <Table.Cell>{r.actor_name ?? ''}</Table.Cell>
                        <Table.Cell>{r.witness_name ?? ''}</Table.Cell>
                        <Table.Cell>{r.prescription_number ?? ''}</Table.Cell>
                        <Table.Cell>{r.receipt_number ?? ''}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            </Stack>
          )}
        </Loaded>
      )}
    </Stack>
  );
}
