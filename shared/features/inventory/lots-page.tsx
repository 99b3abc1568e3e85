import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Checkbox, HStack, Input, Link, Stack, Table, Text, Textarea } from '@chakra-ui/react';
import { format } from 'date-fns';
import { useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { FormField } from '../../components/form-field';
import { useSupabase } from '../../lib/platform-context';
import { failure } from './inventory-api';
import { fetchLots, fetchRecalls, recallSchema, startRecall, type RecallValues } from './recalls-api';
import type { StoreContext } from './store-context';
import { Loaded, useLoad } from './use-load';

const today = () => format(new Date(), 'yyyy-MM-dd');

/**
 * Inventory > Lots (owners and managers): every lot of the business with its expiry, stock and recall state; tick
 * lots and give the reason to recall them (their stock in every store is quarantined at once), and the recalls
 * started so far, each with its report.
 */
export function LotsPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [lots, reloadLots] = useLoad(`${ctx.businessId}|${query.trim()}`, () => fetchLots(supabase, ctx.businessId, query.trim()));
  const [recalls] = useLoad(ctx.businessId, () => fetchRecalls(supabase, ctx.businessId));
  const [failed, setFailed] = useState<string | null>(null);
  const { register, handleSubmit, setValue, control, formState } = useForm<RecallValues>({
    resolver: zodResolver(recallSchema), defaultValues: { lotIds: [], reason: '' },
  });
  const chosen = useWatch({ control, name: 'lotIds' });
  const toggle = (id: string, on: boolean) =>
    setValue('lotIds', on ? [...chosen, id] : chosen.filter((x) => x !== id), { shouldValidate: formState.isSubmitted });

  const submit = handleSubmit(async (values) => {
    setFailed(null);
    try {
      const id = await startRecall(supabase, ctx.businessId, values);
      reloadLots();
      void navigate(`/dashboard/inventory/recalls/${id}`);
    } catch (error) {
      setFailed(failure(error));
    }
  });

  return (
    <Stack gap="5">
      <Text color="fg.muted">
        Registers sell each item&apos;s earliest-expiring lot first; an expired lot needs a manager. A recall quarantines
        the lots in every store: the stock stays counted but can no longer be sold.
      </Text>
      <Input maxW="sm" aria-label="Search lots" placeholder="Item, SKU or lot number" value={query}
        onChange={(e) => setQuery(e.target.value)} />
      <Loaded state={lots} what="Lots" reload={reloadLots}>
        {(rows) => rows.length === 0 ? <Text color="fg.muted">No lot matches. Lots are created when stock is received.</Text> : (
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Lots">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader w="8"><Text srOnly>Recall</Text></Table.ColumnHeader>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader>SKU</Table.ColumnHeader>
                  <Table.ColumnHeader>Lot</Table.ColumnHeader>
                  <Table.ColumnHeader>Expires</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">On hand</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((r) => (
                  <Table.Row key={r.lot_id} data-testid="lot-row">
                    <Table.Cell>
                      {r.quarantined_at ? null : (
                        <Checkbox.Root size="sm" checked={chosen.includes(r.lot_id)}
                          onCheckedChange={(e) => toggle(r.lot_id, e.checked === true)}>
                          <Checkbox.HiddenInput aria-label={`Recall lot ${r.lot_number} of ${r.product_name}`} />
                          <Checkbox.Control />
                        </Checkbox.Root>
                      )}
                    </Table.Cell>
                    <Table.Cell>{r.product_name}</Table.Cell>
                    <Table.Cell fontFamily="mono">{r.sku}</Table.Cell>
                    <Table.Cell>
                      {r.lot_number}{' '}
                      {r.quarantined_at && r.recall_id && (
                        <Link asChild><RouterLink to={`/dashboard/inventory/recalls/${r.recall_id}`}>
                          <Badge colorPalette="purple" size="sm">recalled</Badge></RouterLink></Link>
                      )}
                    </Table.Cell>
                    <Table.Cell>
                      {r.expires_on ?? '—'} {r.expires_on && r.expires_on < today() && <Badge colorPalette="red" size="sm">expired</Badge>}
                    </Table.Cell>
                    <Table.Cell textAlign="end">{String(r.on_hand)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Loaded>
      {/* The form appears once a lot is ticked: "Recall 0 lots" with a live button invited a recall of nothing. */}
      {chosen.length === 0 ? (
        <Text color="fg.muted" data-testid="recall-hint">Tick the lots to recall, then give the reason.</Text>
      ) : (
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Recall lots">
      <Stack gap="3" borderWidth="1px" rounded="md" p="3">
        <Text fontWeight="semibold">Recall {chosen.length === 1 ? '1 lot' : `${chosen.length} lots`}</Text>
        <FormField label="Reason" required error={formState.errors.reason?.message ?? formState.errors.lotIds?.message}>
          <Textarea rows={2} maxLength={500} placeholder="Supplier recall notice of 2 December" {...register('reason')} />
        </FormField>
        {failed && <Text color="fg.error" role="alert">{failed}</Text>}
        <HStack><Button type="submit" colorPalette="red" loading={formState.isSubmitting}>Quarantine in every store</Button></HStack>
      </Stack>
      </form>
      )}
      <Stack gap="2">
        <Text fontWeight="semibold">Recalls</Text>
        <Loaded state={recalls} what="Recalls" reload={() => undefined}>
          {(rows) => rows.length === 0 ? <Text color="fg.muted">No recall yet.</Text> : (
            <Stack as="ul" gap="1" listStyleType="none" aria-label="Recalls">
              {rows.map((r) => (
                <li key={r.id}>
                  <Link asChild><RouterLink to={`/dashboard/inventory/recalls/${r.id}`}>
                    {format(new Date(r.created_at), 'yyyy-MM-dd HH:mm')}: {r.reason}
                  </RouterLink></Link>
                </li>
              ))}
            </Stack>
          )}
        </Loaded>
      </Stack>
    </Stack>
  );
}
