import { useEffect, useState } from 'react';
import { Badge, Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { downloadText } from '../../lib/download-file';
import { useSupabase } from '../../lib/platform-context';
import { useLiveChanges } from '../../lib/use-live-changes';
import { AdjustDialog } from './adjust-dialog';
import { failure, fetchStoreStock, saveLevels, type StockRow } from './inventory-api';
import { LevelsDialog } from './levels-dialog';
import { fetchAllStock, stockCsv } from './stock-csv';
import { StockHistory } from './stock-history';
import type { StoreContext } from './store-context';
import { Loaded, useLoad } from './use-load';

const PAGE_SIZE = 25;

const variantOf = (r: { option1: string | null; option2: string | null; option3: string | null }) =>
  [r.option1, r.option2, r.option3].filter(Boolean).join(' / ');

/** Stock on hand in the chosen store: search, adjust, reorder levels, history and CSV export. */
export function StockPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<StockRow | null>(null);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [exporting, setExporting] = useState(false);
  const storeId = ctx.store.id;

  useEffect(() => {
    const timer = setTimeout(() => {
      setDebounced(query.trim());
      setPage(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  const [state, reload] = useLoad(`${storeId}|${debounced}|${page}`, () => fetchStoreStock(supabase, storeId, debounced, page, PAGE_SIZE), true);
  // Live: a sale, receipt, transfer or count anywhere in this store shows here without a reload.
  useLiveChanges(supabase, [{ table: 'stock_balances', filter: `store_id=eq.${storeId}` }], reload);
  const changed = () => {
    reload();
    setHistoryVersion((v) => v + 1);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = await fetchAllStock(supabase, storeId);
      downloadText(`stock-${ctx.store.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${new Date().toISOString().slice(0, 10)}.csv`, stockCsv(rows));
    } catch (error) {
      notify.error('Stock not exported', failure(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="4">
      <HStack gap="3" wrap="wrap">
        <Input maxW="md" type="search" placeholder="Search by name, SKU or barcode" aria-label="Search stock"
          value={query} onChange={(e) => setQuery(e.target.value)} />
        <Button variant="outline" onClick={() => void exportCsv()} loading={exporting}>Export CSV</Button>
      </HStack>
      <Loaded state={state} what="Stock" reload={reload}>
        {({ rows, total }) => (
          <Stack gap="3">
            {rows.length === 0 ? <Text color="fg.muted">{debounced ? `Nothing matches "${debounced}".` : 'No stocked items yet.'}</Text> : (
              <Table.ScrollArea borderWidth="1px" rounded="md">
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
                    {rows.map((row) => {
                      const low = row.reorder_point !== null && Number(row.on_hand) <= Number(row.reorder_point);
                      const label = [row.product_name, variantOf(row)].filter(Boolean).join(' ');
                      return (
                        <Table.Row key={row.variant_id} data-testid="stock-row">
                          <Table.Cell>
                            {label} {row.has_lots && <Badge size="sm">lots</Badge>}
                            {' '}{low && <Badge colorPalette="orange" size="sm">reorder</Badge>}
                          </Table.Cell>
                          <Table.Cell fontFamily="mono">{row.sku}</Table.Cell>
                          <Table.Cell textAlign="end" data-testid="stock-on-hand">{String(row.on_hand)}{row.unit === 'kg' ? ' kg' : ''}</Table.Cell>
                          <Table.Cell textAlign="end">
                            {row.reorder_point === null ? '-' : `${String(row.reorder_point)} → ${String(row.target_level)}`}
                          </Table.Cell>
                          <Table.Cell textAlign="end">
                            {ctx.canManage && (
                              <HStack justify="flex-end" gap="1">
                                <Button size="xs" variant="ghost" aria-label={`History of ${row.sku}`} onClick={() => setSelected(row)}>History</Button>
                                <LevelsDialog item={{ label, unit: row.unit, reorderPoint: row.reorder_point === null ? null : Number(row.reorder_point),
                                  targetLevel: row.target_level === null ? null : Number(row.target_level) }}
                                  onSave={async (point, target) => {
                                    await saveLevels(supabase, ctx.businessId, storeId, row.variant_id, point, target);
                                    notify.success('Reorder levels saved', label);
                                    reload();
                                  }} />
                                {/* Lot-tracked items are adjusted per lot through counts (which name the lot). */}
                                {!row.has_lots && <AdjustDialog storeId={storeId} row={row} onDone={changed} />}
                              </HStack>
                            )}
                          </Table.Cell>
                        </Table.Row>
                      );
                    })}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
            <HStack justify="space-between">
              <Text fontSize="sm" color="fg.muted">{total} item{total === 1 ? '' : 's'}</Text>
              <HStack>
                <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</Button>
                <Button size="sm" variant="outline" disabled={(page + 1) * PAGE_SIZE >= total} onClick={() => setPage(page + 1)}>Next</Button>
              </HStack>
            </HStack>
          </Stack>
        )}
      </Loaded>
      {selected && (
        <StockHistory key={`${selected.variant_id}-${historyVersion}`} storeId={storeId} variantId={selected.variant_id}
          title={`${selected.product_name} (${selected.sku})`} />
      )}
    </Stack>
  );
}
