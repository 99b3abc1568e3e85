import { useMemo, useState } from 'react';
import { Alert, Badge, Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { countLines, countPayload, foundLotRow, sheetKey, type CountRow } from './count-logic';
import { findScannedItem } from './datamatrix-scan';
import { FoundLotForm } from './found-lot-form';
import { failure } from './inventory-api';
import { parseQty } from './inventory-schemas';
import type { StoreContext } from './store-context';
import { fetchSheet, postCount, type CountResult } from './transfers-api';
import { QuantityGrid, type GridPick } from './quantity-grid';
import { ScanField } from './scan-field';
import { VariantPicker } from './variant-picker';

const itemLabel = (r: CountRow) =>
  [r.product_name, r.option1, r.option2, r.option3].filter(Boolean).join(' / ') + (r.lot_number ? `, lot ${r.lot_number}` : '')
  + (r.found ? ` (found${r.expires_on ? `, expires ${r.expires_on}` : ''})` : '');
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/**
 * A stock count: the whole store or chosen items; type what is on the shelf (blank: not counted), review the
 * variance against the ledger, then post. Lot-tracked items are counted per lot held in the store; a lot found on
 * the shelf that the store holds nothing of gets its own line (posting creates the lot).
 */
export function CountsPage({ ctx }: { ctx: StoreContext }) {
  const supabase = useSupabase();
  const [sheet, setSheet] = useState<CountRow[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [entries, setEntries] = useState<Record<string, string>>({});
  const [reviewing, setReviewing] = useState(false);
  const [posting, setPosting] = useState(false);
  const [posted, setPosted] = useState<CountResult[] | null>(null);
  const { lines, errors } = useMemo(() => countLines(sheet ?? [], entries), [sheet, entries]);
  const differing = lines.filter((l) => l.variance !== 0);

  const load = async (variantIds?: string[]) => {
    setLoading(true);
    try {
      const rows = await fetchSheet(supabase, ctx.store.id, variantIds);
      setSheet(variantIds && sheet ? [...sheet, ...rows.filter((r) => !sheet.some((s) => sheetKey(s) === sheetKey(r)))] : rows);
      setPosted(null);
    } catch (error) {
      notify.error('Count sheet not loaded', failure(error));
    } finally {
      setLoading(false);
    }
  };

  // The size grid (clothing pack): the style's cells join the sheet with what was counted in each. A lot-tracked
  // cell's count stays to be typed per lot.
  const countGrid = async (picks: GridPick[]) => {
    setLoading(true);
    try {
      const rows = await fetchSheet(supabase, ctx.store.id, picks.map((p) => p.variantId));
      const current = sheet ?? [];
      setSheet([...current, ...rows.filter((r) => !current.some((s) => sheetKey(s) === sheetKey(r)))]);
      const counted = { ...entries };
      for (const p of picks) {
        const own = rows.filter((r) => r.variant_id === p.variantId);
        if (own.length === 1 && own[0] && !own[0].lot_id) counted[sheetKey(own[0])] = String(p.qty);
      }
      setEntries(counted);
      setPosted(null);
    } catch (error) {
      notify.error('Count sheet not loaded', failure(error));
    } finally {
      setLoading(false);
    }
  };

  // A scan counts one unit of its item on the line of the lot it carries (a GS1 DataMatrix's (10)); the item joins
  // the sheet when it is not on it, and a lot the store holds nothing of becomes a found lot with the scanned expiry.
  const scan = async (text: string): Promise<string> => {
    const found = await findScannedItem(supabase, ctx.businessId, text);
    if (!found.ok) return found.error;
    const { item, lot, expiry } = found;
    if (item.hasLots && !lot) return `${item.label}: the code carries no lot (10); count it on its lot's line`;
    let current = sheet ?? [];
    if (!current.some((r) => r.variant_id === item.id)) {
      const rows = await fetchSheet(supabase, ctx.store.id, [item.id]);
      current = [...current, ...rows.filter((r) => !current.some((s) => sheetKey(s) === sheetKey(r)))];
    }
    let row = current.find((r) => r.variant_id === item.id && (!item.hasLots || r.lot_number === lot));
    if (!row) {
      if (!item.hasLots || !lot) return `${item.label}: not on this store's count sheet`;
      row = foundLotRow({ variant_id: item.id, product_name: item.label, sku: item.sku, option1: '', option2: '', option3: '',
        unit: item.unit }, lot, expiry ?? '');
      current = [...current, row];
    }
    const key = sheetKey(row);
    const counted = (parseQty(entries[key] ?? '', item.unit) ?? 0) + 1;
    setSheet(current);
    setEntries({ ...entries, [key]: String(counted) });
    setPosted(null);
    return `${item.label}${item.hasLots ? `, lot ${lot ?? ''}` : ''}: ${counted} counted`;
  };
  const scanField = (
    <ScanField label="Scan to count" placeholder="Scan a DataMatrix or barcode: one unit, on its lot's line" onScan={scan}
      testId="count-scan-note" />
  );

  const post = async () => {
    setPosting(true);
    try {
      const result = await postCount(supabase, ctx.store.id, countPayload(lines));
      setPosted(result);
      notify.success('Count posted', `${result.filter((r) => Number(r.delta) !== 0).length} item(s) corrected`);
      setSheet(null);
      setEntries({});
      setReviewing(false);
    } catch (error) {
      notify.error('Count not posted', failure(error));
    } finally {
      setPosting(false);
    }
  };

  return (
    <Stack gap="4">
      {posted && (
        <Alert.Root status="success" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Count posted: {posted.length} line{posted.length === 1 ? '' : 's'} counted</Alert.Title>
            <Alert.Description data-testid="count-posted">
              Net change {signed(Math.round(posted.reduce((s, r) => s + Number(r.delta), 0) * 1000) / 1000)}; each difference is a count entry in the stock history.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {/* One field above both states, so its note stays when the first scan starts the sheet. */}
      {!reviewing && scanField}
      {!sheet && (
        <Stack gap="3">
          <Text>Count the whole store, or pick the items to count.</Text>
          <HStack wrap="wrap">
            <Button onClick={() => void load()} loading={loading}>Count the whole store</Button>
          </HStack>
          <VariantPicker businessId={ctx.businessId} label="Add an item to count" onPick={(hit) => void load([hit.variant_id])} />
          <QuantityGrid businessId={ctx.businessId} action="Count these" onAdd={countGrid} />
        </Stack>
      )}
      {sheet && loading && <LoadingText />}
      {sheet && !reviewing && (
        <Stack gap="3">
          <HStack justify="space-between" wrap="wrap">
            <Text>{sheet.length} line{sheet.length === 1 ? '' : 's'} on the sheet; {lines.length} counted.</Text>
            <Button variant="ghost" onClick={() => {
              setSheet(null);
              setEntries({});
            }}>Discard</Button>
          </HStack>
          <VariantPicker businessId={ctx.businessId} label="Add an item to count" onPick={(hit) => void load([hit.variant_id])} />
          <QuantityGrid businessId={ctx.businessId} action="Count these" onAdd={countGrid} />
          <FoundLotForm businessId={ctx.businessId} onAdd={(row) => {
            if (sheet.some((s) => s.variant_id === row.variant_id && s.lot_number === row.lot_number)) {
              notify.error('Already on the sheet', `Lot ${row.lot_number ?? ''} of ${row.sku} is already a line of this count: count it there.`);
              return;
            }
            setSheet([...sheet, row]);
          }} />
          <Table.ScrollArea borderWidth="1px" rounded="md" maxH="70vh">
            <Table.Root size="sm" aria-label="Count sheet" stickyHeader>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  {/* At phone width the SKU gives way, so the counted field stays on screen. */}
                  <Table.ColumnHeader display={{ base: 'none', md: 'table-cell' }}>SKU</Table.ColumnHeader>
                  <Table.ColumnHeader>Counted</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {sheet.map((r) => {
                  const key = sheetKey(r);
                  return (
                    <Table.Row key={key}>
                      <Table.Cell>{itemLabel(r)}</Table.Cell>
                      <Table.Cell fontFamily="mono" display={{ base: 'none', md: 'table-cell' }}>{r.sku}</Table.Cell>
                      <Table.Cell minW="28">
                        <Input size="sm" inputMode="decimal" aria-label={`Counted ${r.sku}${r.lot_number ? ` lot ${r.lot_number}` : ''}`}
                          value={entries[key] ?? ''} aria-invalid={Boolean(errors[key])}
                          onChange={(e) => setEntries({ ...entries, [key]: e.target.value })} />
                        {errors[key] && <Text fontSize="xs" color="fg.error">{errors[key]}</Text>}
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <HStack>
            <Button disabled={lines.length === 0 || Object.keys(errors).length > 0} onClick={() => setReviewing(true)}>Review variance</Button>
          </HStack>
        </Stack>
      )}
      {sheet && reviewing && (
        <Stack gap="3">
          <Text fontWeight="medium" data-testid="count-summary">
            {differing.length} of {lines.length} counted line{lines.length === 1 ? '' : 's'} differ from the stock on record.
          </Text>
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Variance">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Item</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">On record</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Counted</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Variance</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {lines.map((l) => (
                  <Table.Row key={l.key} data-testid="variance-row">
                    <Table.Cell>{itemLabel(l.row)}</Table.Cell>
                    <Table.Cell textAlign="end">{l.expected}</Table.Cell>
                    <Table.Cell textAlign="end">{l.counted}</Table.Cell>
                    <Table.Cell textAlign="end">
                      {l.variance === 0 ? '0' : <Badge colorPalette={l.variance < 0 ? 'red' : 'green'} data-testid="variance">{signed(l.variance)}</Badge>}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <Text fontSize="sm" color="fg.muted">
            Posting writes each difference as a count entry; a sale made meanwhile is kept (the difference is computed again when posting).
          </Text>
          <HStack>
            <Button onClick={() => void post()} loading={posting}>Post count</Button>
            <Button variant="ghost" onClick={() => setReviewing(false)}>Back to counting</Button>
          </HStack>
        </Stack>
      )}
    </Stack>
  );
}
