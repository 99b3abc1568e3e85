import { Table, Text } from '@chakra-ui/react';

/** One field's change in an import's preview (money in minor units; null: nothing before). */
export interface ImportFieldChange { old: string | number | null; new: string | number }
/** A previewed row that updates a record: its row number in the file and what it changes, by field. */
export interface ImportChangeRow { row_index: number; action: string; changes: Record<string, ImportFieldChange> }

const SHOWN = 200;

/**
 * The updates an import makes, one line per changed field ("Price $2.50 -> $2.75"), with the file's row and the
 * record's key (the catalog's SKU, a customer's email). Shared by every CSV import's preview.
 */
export function ImportChanges({ rows, keyLabel, keyOf, fieldLabels, format, label }: {
  rows: ImportChangeRow[];
  /** The key column's heading ("SKU", "Email"). */
  keyLabel: string;
  keyOf: (row: ImportChangeRow) => string;
  fieldLabels: Record<string, string>;
  /** A value as shown (money formatted, say); null and '' are shown as "(none)" before this is asked. */
  format?: (field: string, value: string | number) => string;
  /** What the table lists, for screen readers ("Changes to existing items"). */
  label: string;
}) {
  const lines = rows.filter((r) => r.action === 'update')
    .flatMap((r) => Object.entries(r.changes).map(([field, change]) => ({ row: r, field, change })));
  if (lines.length === 0) return null;
  const shown = (field: string, v: ImportFieldChange['old']) => (v === null || v === '' ? '(none)' : format ? format(field, v) : String(v));
  return (
    <>
      <Table.ScrollArea borderWidth="1px" rounded="md" maxH="80" tabIndex={0} aria-label={label}>
        <Table.Root size="sm" aria-label="Changes">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Row</Table.ColumnHeader>
              <Table.ColumnHeader>{keyLabel}</Table.ColumnHeader>
              <Table.ColumnHeader>Field</Table.ColumnHeader>
              <Table.ColumnHeader>Now</Table.ColumnHeader>
              <Table.ColumnHeader>After the import</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {lines.slice(0, SHOWN).map(({ row, field, change }) => (
              <Table.Row key={`${row.row_index}-${field}`}>
                <Table.Cell>{row.row_index}</Table.Cell>
                <Table.Cell fontFamily="mono">{keyOf(row)}</Table.Cell>
                <Table.Cell>{fieldLabels[field] ?? field}</Table.Cell>
                <Table.Cell>{shown(field, change.old)}</Table.Cell>
                <Table.Cell fontWeight="medium">{shown(field, change.new)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {lines.length > SHOWN && <Text fontSize="sm" color="fg.muted">And {lines.length - SHOWN} more changes.</Text>}
    </>
  );
}
