import { useState } from 'react';
import { Badge, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useSupabase } from '../../lib/platform-context';
import { unwrap } from './inventory-api';
import type { StoreContext } from './store-context';
import { Loaded, useLoad } from './use-load';

const today = () => new Date().toISOString().slice(0, 10);

/** Lots with stock in the store that expire within N days (expired ones first: they cannot be sold). */
export function ExpiringPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [daysText, setDaysText] = useState('30');
  const days = /^\d{1,4}$/.test(daysText.trim()) ? Number(daysText) : null;
  const [state, reload] = useLoad(`${ctx.store.id}|${days ?? ''}`, async () =>
    days === null ? [] : unwrap(await supabase.rpc('expiring_lots', { _store_id: ctx.store.id, _days: days })) ?? []);
  return (
    <Stack gap="4">
      <HStack gap="2">
        <Text asChild><label htmlFor="expiring-days">Expiring within</label></Text>
        <Input id="expiring-days" maxW="20" inputMode="numeric" value={daysText} aria-invalid={days === null}
          onChange={(e) => setDaysText(e.target.value)} />
        <Text>days</Text>
      </HStack>
      {days === null && <Text color="fg.error" fontSize="sm">Enter a number of days from 0 to 9999.</Text>}
      <Loaded state={state} what="Expiring lots" reload={reload}>
        {(rows) => rows.length === 0 ? <Text color="fg.muted">No lot in {ctx.store.name} expires within {days ?? 0} days.</Text> : (
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Expiring lots">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader>SKU</Table.ColumnHeader>
                  <Table.ColumnHeader>Lot</Table.ColumnHeader>
                  <Table.ColumnHeader>Expires</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">On hand</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((r) => (
                  <Table.Row key={r.lot_id} data-testid="expiring-row">
                    <Table.Cell>{r.product_name}</Table.Cell>
                    <Table.Cell fontFamily="mono">{r.sku}</Table.Cell>
                    <Table.Cell>{r.lot_number}</Table.Cell>
                    <Table.Cell>
                      {r.expires_on} {r.expires_on < today() && <Badge colorPalette="red" size="sm">expired</Badge>}
                    </Table.Cell>
                    <Table.Cell textAlign="end">{String(r.qty)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Loaded>
    </Stack>
  );
}
