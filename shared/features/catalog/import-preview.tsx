import { Table, Text } from '@chakra-ui/react';
import { formatMinor, type Currency } from '../../lib/money';
import { MONEY_COLUMNS, type CatalogColumnKey } from './catalog-columns';
import type { FieldChange, PreviewRow } from './catalog-preview';

const FIELD_NAMES: Record<string, string> = {
  product_name: 'Name', category: 'Category', brand: 'Brand', price: 'Price', cost: 'Cost', barcode: 'Barcode', option_value: 'Option',
};
const SHOWN = 200;

function value(field: string, v: FieldChange['old'], currency: Currency): string {
  if (v === null || v === '') return '(none)';
  return MONEY_COLUMNS.includes(field as CatalogColumnKey) ? formatMinor(v, currency) : String(v);
}

/** The updates a file makes, one line per changed field: "Price $2.50 -> $2.75", with the file's row and SKU. */
export function ImportChanges({ rows, skuOf, currency }: { rows: PreviewRow[]; skuOf: (row: PreviewRow) => string; currency: Currency }) {
  const lines = rows.filter((r) => r.action === 'update')
    .flatMap((r) => Object.entries(r.changes).map(([field, change]) => ({ row: r, field, change })));
  if (lines.length === 0) return null;
  return (
    <>
      <Table.ScrollArea borderWidth="1px" rounded="md" maxH="80" tabIndex={0} aria-label="Changes to existing items">
        <Table.Root size="sm" aria-label="Changes">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Row</Table.ColumnHeader>
              <Table.ColumnHeader>SKU</Table.ColumnHeader>
              <Table.ColumnHeader>Field</Table.ColumnHeader>
              <Table.ColumnHeader>Now</Table.ColumnHeader>
              <Table.ColumnHeader>After the import</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {lines.slice(0, SHOWN).map(({ row, field, change }) => (
              <Table.Row key={`${row.row_index}-${field}`}>
                <Table.Cell>{row.row_index}</Table.Cell>
                <Table.Cell fontFamily="mono">{skuOf(row)}</Table.Cell>
                <Table.Cell>{FIELD_NAMES[field] ?? field}</Table.Cell>
                <Table.Cell>{value(field, change.old, currency)}</Table.Cell>
                <Table.Cell fontWeight="medium">{value(field, change.new, currency)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {lines.length > SHOWN && <Text fontSize="sm" color="fg.muted">And {lines.length - SHOWN} more changes.</Text>}
    </>
  );
}
