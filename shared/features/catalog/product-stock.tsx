import { useEffect, useMemo, useState } from 'react';
import { Heading, Stack, Table, Text } from '@chakra-ui/react';
import { LoadError } from '../../components/load-error';
import type { StorewiseClient } from '../../lib/supabase-client';
import { useLiveChannel, useSettledCall } from '../../lib/use-live-changes';

interface StockRow { store_id: string; variant_id: string; qty: number }

/** The last figures read (null before the first answer) and the last read's error, if it failed. */
interface Loaded { rows: StockRow[] | null; error: Error | null }

/**
 * Stock on hand of a product's variants per store the user may see (stock_balances, RLS), live (issue 28): a sale,
 * receipt, transfer or count of one of these variants anywhere reads the figures again; a rejoin reads them too.
 * The channel watches the business (a Realtime `in` filter holds 100 values, fewer than a big size grid's variants)
 * and each change is checked against this product's variants, so useLiveChanges (every change reloads) does not
 * fit; the same settled call (useSettledCall) makes a sale's several rows one read.
 */
export function ProductStock({ supabase, businessId, variants, stores }: {
  supabase: StorewiseClient;
  businessId: string;
  variants: { id: string; label: string }[];
  stores: { id: string; name: string }[];
}) {
  // By content: the page hands a new array on every render.
  const idsKey = variants.map((v) => v.id).join(',');
  const ids = useMemo(() => (idsKey ? idsKey.split(',') : []), [idsKey]);
  const [loaded, setLoaded] = useState<Loaded>({ rows: null, error: null });
  const [version, setVersion] = useState(0);
  const reload = useSettledCall(() => setVersion((v) => v + 1));
  useLiveChannel(supabase, [{ table: 'stock_balances', filter: `business_id=eq.${businessId}` }], {
    onChange: (change) => {
      const row = change.eventType === 'DELETE' ? change.old : change.new;
      // Deletes carry the key only: read again to be sure.
      if (change.eventType === 'DELETE' || ids.includes(String(row.variant_id))) reload();
    },
    onJoin: (first) => !first && reload(),
  }, ids.length > 0);

  useEffect(() => {
    let cancelled = false;
    void supabase.from('stock_balances').select('store_id, variant_id, qty').in('variant_id', ids).then(({ data, error }) => {
      if (cancelled) return;
      // A failed read says so (with Retry) instead of reading as "no stock"; figures read before stay, marked as such.
      if (error) setLoaded((current) => ({ rows: current.rows, error: new Error(error.message) }));
      else setLoaded({ rows: (data ?? []).map((r) => ({ store_id: r.store_id, variant_id: r.variant_id, qty: Number(r.qty) })), error: null });
    });
    return () => { cancelled = true; };
  }, [supabase, ids, version]);

  const { rows, error } = loaded;
  const total = (variantId: string, storeId: string) =>
    Math.round((rows ?? []).filter((r) => r.variant_id === variantId && r.store_id === storeId).reduce((a, r) => a + r.qty, 0) * 1000) / 1000;
  const shownStores = stores.filter((s) => (rows ?? []).some((r) => r.store_id === s.id));
  return (
    <Stack gap="3" as="section" aria-label="Stock on hand">
      <Heading as="h3" size="md">Stock on hand</Heading>
      {rows === null && !error && <Text color="fg.muted">Loading stock…</Text>}
      {error && (
        <LoadError error={error} onRetry={() => setVersion((v) => v + 1)}
          message={rows === null ? 'The stock on hand could not be loaded.' : 'The stock on hand could not be read again: the figures below may be out of date.'} />
      )}
      {rows !== null && shownStores.length === 0 && <Text color="fg.muted">No stock recorded in your stores.</Text>}
      {rows !== null && shownStores.length > 0 && (
        <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} aria-label="Stock on hand table">
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Variant</Table.ColumnHeader>
                {shownStores.map((s) => <Table.ColumnHeader key={s.id} textAlign="end">{s.name}</Table.ColumnHeader>)}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {variants.map((v) => (
                <Table.Row key={v.id} data-testid="product-stock-row">
                  <Table.Cell>{v.label}</Table.Cell>
                  {shownStores.map((s) => <Table.Cell key={s.id} textAlign="end" data-testid="product-on-hand" data-store={s.id}>{total(v.id, s.id)}</Table.Cell>)}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
