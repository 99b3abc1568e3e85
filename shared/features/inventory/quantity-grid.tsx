// SQL (supabase/schemas, docs/adr/0340): catalog.sql variants products
import { useState } from 'react';
import { Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { cellKey, layoutGrid } from '../../lib/size-grid';
import { useBusinessPacks } from '../../lib/use-business-packs';
import { useSupabase } from '../../lib/platform-context';
import { parseQty, qtyMessage } from './inventory-schemas';
import { hitLabel, type CatalogHit } from './orders-api';
import { VariantPicker } from './variant-picker';

/** One filled cell: the variant and the quantity typed in it. */
export interface GridPick {
  variantId: string;
  sku: string;
  label: string;
  unit: string;
  hasLots: boolean;
  qty: number;
}

interface GridVariant { id: string; sku: string; option1: string | null; option2: string | null }
interface Style { name: string; unit: string; hasLots: boolean; sizes: string[]; colours: string[]; cells: Map<string, GridVariant> }

/**
 * The clothing pack's grid for orders, transfers and counts (issue 29): find a style, type quantities in its sizes
 * by colours, and the filled cells become the screen's lines. Sizes are option 1, colours option 2 (as the grid
 * creates them); a style without both is refused with a note to add its items one by one. Shown only when the
 * business has the size grid pack on.
 */
export function QuantityGrid({ businessId, action, onAdd }: {
  businessId: string; action: string; onAdd: (picks: GridPick[]) => void | Promise<void>;
}) {
  const supabase = useSupabase();
  const [style, setStyle] = useState<Style | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [entries, setEntries] = useState<Record<string, string>>({});
  const packs = useBusinessPacks(businessId);

  const open = async (hit: CatalogHit) => {
    const { data, error } = await supabase.from('variants').select('id, sku, option1, option2')
      .eq('product_id', hit.product_id).is('archived_at', null).order('created_at');
    if (error) {
      setNote(`The style's sizes could not be loaded: ${error.message}`);
      return;
    }
    const grid = layoutGrid(data ?? []);
    if (grid.cells.size === 0) {
      setNote(`${hit.product_name} has no sizes by colours: add its items one by one.`);
      return;
    }
    setNote(null);
    setEntries({});
    setStyle({ name: hit.product_name, unit: hit.unit, hasLots: hit.has_lots, ...grid });
  };

  const errors: Record<string, string> = {};
  const picks: GridPick[] = [];
  if (style) {
    for (const [key, variant] of style.cells) {
      const text = (entries[key] ?? '').trim();
      if (text === '') continue;
      const qty = parseQty(text, style.unit);
      if (qty === null) errors[key] = qtyMessage(style.unit);
      else if (qty > 0) {
        picks.push({ variantId: variant.id, sku: variant.sku, unit: style.unit, hasLots: style.hasLots, qty,
          label: `${hitLabel({ product_name: style.name, option1: variant.option1, option2: variant.option2, option3: null })} (${variant.sku})` });
      }
    }
  }

  if (!packs?.includes('size_grid')) return null;
  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" aria-label="Size grid" role="group">
      <Text fontWeight="medium">Sizes by colours</Text>
      {!style && <VariantPicker businessId={businessId} label="Find a style for the grid" onPick={(hit) => void open(hit)} />}
      {note && <Text fontSize="sm" color="fg.muted" role="status">{note}</Text>}
      {style && (
        <>
          <Text fontSize="sm">{style.name}</Text>
          <Table.ScrollArea>
            <Table.Root size="sm" aria-label={`Grid of ${style.name}`} width="auto">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Size</Table.ColumnHeader>
                  {style.colours.map((c) => <Table.ColumnHeader key={c}>{c}</Table.ColumnHeader>)}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {style.sizes.map((size) => (
                  <Table.Row key={size}>
                    <Table.Cell fontWeight="medium">{size}</Table.Cell>
                    {style.colours.map((colour) => {
                      const key = cellKey(size, colour);
                      const variant = style.cells.get(key);
                      return (
                        <Table.Cell key={colour} minW="20">
                          {variant ? (
                            <>
                              <Input size="sm" inputMode="decimal" aria-label={`${size} / ${colour}`} value={entries[key] ?? ''}
                                aria-invalid={Boolean(errors[key])} onChange={(e) => setEntries({ ...entries, [key]: e.target.value })} />
                              {errors[key] && <Text fontSize="xs" color="fg.error">{errors[key]}</Text>}
                            </>
                          ) : <Text color="fg.muted" aria-label={`${size} / ${colour}: not made`}>-</Text>}
                        </Table.Cell>
                      );
                    })}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <HStack>
            <Button size="sm" disabled={picks.length === 0 || Object.keys(errors).length > 0} onClick={() => {
              void Promise.resolve(onAdd(picks)).then(() => {
                setStyle(null);
                setEntries({});
              });
            }}>{action} ({picks.length})</Button>
            <Button size="sm" variant="ghost" onClick={() => setStyle(null)}>Close the grid</Button>
          </HStack>
        </>
      )}
    </Stack>
  );
}
