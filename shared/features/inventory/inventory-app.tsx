import { useEffect, useState } from 'react';
import { Badge, Box, Button, Heading, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { LoadingText } from '../../components/loading-text';
import { useSupabase } from '../../lib/platform-context';
import { AdjustDialog } from './adjust-dialog';
import { fetchStockStores, fetchStoreStock, type StockRow, type StockStore } from './inventory-api';
import { StockHistory } from './stock-history';

const PAGE_SIZE = 25;

/** The Inventory area (/dashboard/inventory): stock per store, adjustments and each variant's history. */
export function InventoryApp() {
  const supabase = useSupabase();
  const [stores, setStores] = useState<{ stores: StockStore[]; roles: Record<string, string> } | null>(null);
  const [storeId, setStoreId] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [version, setVersion] = useState(0);
  const [stock, setStock] = useState<{ key: string; rows: StockRow[]; total: number; error: string | null } | null>(null);
  const [selected, setSelected] = useState<StockRow | null>(null);

  useEffect(() => {
    fetchStockStores(supabase).then((s) => {
      setStores(s);
      setStoreId((current) => current || s.stores[0]?.id || '');
    }, (error: unknown) => console.error('Stores load failed:', error));
  }, [supabase]);

  const key = `${storeId}|${query}|${page}|${version}`;
  useEffect(() => {
    if (!storeId) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      fetchStoreStock(supabase, storeId, query.trim(), page, PAGE_SIZE).then(
        ({ rows, total }) => !cancelled && setStock({ key, rows, total, error: null }),
        (error: unknown) => !cancelled && setStock({ key, rows: [], total: 0, error: error instanceof Error ? error.message : String(error) }),
      );
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [supabase, storeId, query, page, key]);

  const store = stores?.stores.find((s) => s.id === storeId);
  const role = store ? stores?.roles[store.business_id] : undefined;
  const canAdjust = role === 'owner' || role === 'manager';
  const loaded = stock?.key === key ? stock : null;

  return (
    <Stack gap="5">
      <Box>
        <Heading as="h1" size="xl">Inventory</Heading>
        <Text color="fg.muted">Stock on hand per store; every change is a ledger entry with who, when and why.</Text>
      </Box>
      {!stores ? <LoadingText /> : stores.stores.length === 0 ? <Text>No store to show yet.</Text> : (
        <Stack gap="4">
          <HStack gap="3" wrap="wrap">
            <NativeSelect.Root maxW="xs">
              <NativeSelect.Field aria-label="Store" value={storeId} onChange={(e) => {
                setStoreId(e.target.value);
                setPage(0);
                setSelected(null);
              }}>
                {stores.stores.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Input maxW="md" type="search" placeholder="Search by name, SKU or barcode" aria-label="Search stock"
              value={query} onChange={(e) => {
                setQuery(e.target.value);
                setPage(0);
              }} />
          </HStack>
          {!loaded ? <LoadingText /> : loaded.error ? <Text color="fg.error">{loaded.error}</Text> : (
            <Table.Root size="sm" aria-label="Stock">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader>SKU</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">On hand</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Reorder at</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {loaded.rows.map((row) => {
                  const low = row.reorder_point !== null && Number(row.on_hand) <= Number(row.reorder_point);
                  return (
                    <Table.Row key={row.variant_id}>
                      <Table.Cell>
                        {row.product_name} {[row.option1, row.option2, row.option3].filter(Boolean).join(' / ')}
                        {' '}{low && <Badge colorPalette="orange" size="sm">reorder</Badge>}
                      </Table.Cell>
                      <Table.Cell fontFamily="mono">{row.sku}</Table.Cell>
                      <Table.Cell textAlign="end">{String(row.on_hand)} {row.unit === 'kg' ? 'kg' : ''}</Table.Cell>
                      <Table.Cell textAlign="end">{row.reorder_point === null ? '-' : String(row.reorder_point)}</Table.Cell>
                      <Table.Cell textAlign="end">
                        <HStack justify="flex-end" gap="2">
                          {canAdjust && <Button size="xs" variant="ghost" onClick={() => setSelected(row)}>History</Button>}
                          {/* Lot-tracked items are adjusted per lot (counts and receipts name the lot). */}
                          {canAdjust && !row.has_lots && <AdjustDialog storeId={storeId} row={row} onDone={() => setVersion((v) => v + 1)} />}
                        </HStack>
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          )}
          {loaded && !loaded.error && (
            <HStack justify="space-between">
              <Text fontSize="sm" color="fg.muted">{loaded.total} item{loaded.total === 1 ? '' : 's'}</Text>
              <HStack>
                <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</Button>
                <Button size="sm" variant="outline" disabled={(page + 1) * PAGE_SIZE >= loaded.total} onClick={() => setPage(page + 1)}>Next</Button>
              </HStack>
            </HStack>
          )}
          {selected && storeId && (
            <StockHistory key={`${selected.variant_id}-${version}`} storeId={storeId} variantId={selected.variant_id}
              title={`${selected.product_name} (${selected.sku})`} />
          )}
        </Stack>
      )}
    </Stack>
  );
}
