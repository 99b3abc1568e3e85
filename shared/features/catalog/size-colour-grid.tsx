import { Checkbox, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { cellKey, gridCells, listValues, SIZE_RUNS, styleCode } from '../../lib/size-grid';
import { checkBarcode } from './barcode-check';

/** What the grid holds while the product is made: the run typed, cells left out, SKUs and barcodes typed. */
export interface GridState {
  style: string;
  sizes: string;
  colours: string;
  off: Record<string, boolean>;
  skus: Record<string, string>;
  barcodes: Record<string, string>;
}

export const emptyGrid: GridState = { style: '', sizes: '', colours: '', off: {}, skus: {}, barcodes: {} };

export interface GridVariantInput { options: [string, string]; sku: string; barcode: string | null }

const SKU = /^[A-Z0-9][A-Z0-9._/-]{0,39}$/;

/**
 * The grid's variants (size, colour), or the first problem: no size or colour, a SKU the database would refuse, two
 * equal SKUs, a barcode with a wrong check digit.
 */
export function gridVariants(state: GridState, productName: string): { variants: GridVariantInput[]; problem: string | null } {
  const sizes = listValues(state.sizes);
  const colours = listValues(state.colours);
  if (sizes.length === 0 || colours.length === 0) return { variants: [], problem: 'Enter at least one size and one colour' };
  const style = styleCode(state.style, productName);
  const variants: GridVariantInput[] = [];
  const seen = new Set<string>();
  for (const cell of gridCells(style, sizes, colours)) {
    const key = cellKey(cell.size, cell.colour);
    if (state.off[key]) continue;
    const sku = (state.skus[key] ?? cell.sku).trim().toUpperCase();
    if (!SKU.test(sku)) return { variants, problem: `The SKU of ${cell.size} / ${cell.colour} may use letters, digits and . _ / - (40 at most)` };
    if (seen.has(sku)) return { variants, problem: `Two cells have the SKU ${sku}` };
    seen.add(sku);
    const typed = (state.barcodes[key] ?? '').trim();
    let barcode: string | null = null;
    if (typed !== '') {
      const checked = checkBarcode(typed);
      if ('error' in checked) return { variants, problem: `Barcode of ${cell.size} / ${cell.colour}: ${checked.error}` };
      barcode = checked.code;
    }
    variants.push({ options: [cell.size, cell.colour], sku, barcode });
  }
  if (variants.length === 0) return { variants, problem: 'Keep at least one cell' };
  return { variants, problem: null };
}

/**
 * The clothing pack's grid for a new product (issue 29): a size run (typed or picked) down, colours across; each
 * cell is a variant with its SKU by the rule in shared/lib/size-grid.ts (editable), an optional barcode, and a box
 * to leave the cell out (a colour not made in every size).
 */
export function SizeColourGrid({ state, productName, onChange }: {
  state: GridState; productName: string; onChange: (next: GridState) => void;
}) {
  const sizes = listValues(state.sizes);
  const colours = listValues(state.colours);
  const style = styleCode(state.style, productName);
  const cells = new Map(gridCells(style, sizes, colours).map((c) => [cellKey(c.size, c.colour), c]));
  const set = (patch: Partial<GridState>) => onChange({ ...state, ...patch });
  return (
    <Stack gap="3">
      <HStack gap="2" wrap="wrap" align="flex-end">
        <Stack gap="1">
          <Text fontSize="sm">Style code</Text>
          <Input size="sm" maxW="40" aria-label="Style code" placeholder={style} value={state.style}
            onChange={(e) => set({ style: e.target.value.toUpperCase() })} />
        </Stack>
        <Stack gap="1">
          <Text fontSize="sm">Size run</Text>
          <NativeSelect.Root size="sm" maxW="52">
            <NativeSelect.Field aria-label="Size run" value="" onChange={(e) => e.target.value && set({ sizes: e.target.value })}>
              <option value="">Pick a run…</option>
              {SIZE_RUNS.map((r) => <option key={r.label} value={r.sizes}>{r.label}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
      </HStack>
      <Input size="sm" aria-label="Sizes" placeholder="Sizes, separated by commas (S, M, L)" value={state.sizes}
        onChange={(e) => set({ sizes: e.target.value })} />
      <Input size="sm" aria-label="Colours" placeholder="Colours, separated by commas (Navy, White)" value={state.colours}
        onChange={(e) => set({ colours: e.target.value })} />
      <Text fontSize="xs" color="fg.muted">SKUs are style-colour-size ({style}-NAV-M): the style code, the colour&apos;s first three letters, the size.</Text>
      {sizes.length > 0 && colours.length > 0 && (
        <Table.ScrollArea>
          <Table.Root size="sm" aria-label="Size and colour grid" width="auto">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Size</Table.ColumnHeader>
                {colours.map((c) => <Table.ColumnHeader key={c}>{c}</Table.ColumnHeader>)}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {sizes.map((size) => (
                <Table.Row key={size}>
                  <Table.Cell fontWeight="medium">{size}</Table.Cell>
                  {colours.map((colour) => {
                    const key = cellKey(size, colour);
                    const cell = cells.get(key);
                    const on = !state.off[key];
                    return (
                      <Table.Cell key={colour} minW="44" verticalAlign="top">
                        <Stack gap="1">
                          <Checkbox.Root size="sm" checked={on}
                            onCheckedChange={(e) => set({ off: { ...state.off, [key]: !e.checked } })}>
                            <Checkbox.HiddenInput />
                            <Checkbox.Control />
                            <Checkbox.Label>Make {size} / {colour}</Checkbox.Label>
                          </Checkbox.Root>
                          {on && (
                            <>
                              <Input size="xs" fontFamily="mono" aria-label={`SKU of ${size} / ${colour}`}
                                value={state.skus[key] ?? cell?.sku ?? ''}
                                onChange={(e) => set({ skus: { ...state.skus, [key]: e.target.value.toUpperCase() } })} />
                              <Input size="xs" inputMode="numeric" placeholder="Barcode (optional)" aria-label={`Barcode of ${size} / ${colour}`}
                                value={state.barcodes[key] ?? ''}
                                onChange={(e) => set({ barcodes: { ...state.barcodes, [key]: e.target.value } })} />
                            </>
                          )}
                        </Stack>
                      </Table.Cell>
                    );
                  })}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
