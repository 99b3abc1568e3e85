import { createContext, useContext, type ReactNode } from 'react';
import { Button, HStack, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';
import { downloadText } from '../../lib/download-file';
import type { Currency } from '../../lib/money';
import { minorToDecimal, toCsv, type CsvCell } from './reports-csv';

export type ColumnKind = 'text' | 'money' | 'number' | 'percent';

export interface Column<T> {
  header: string;
  kind: ColumnKind;
  value: (row: T) => string | number | null | undefined;
  /** Summed in the footer (money and number columns). */
  total?: boolean;
}

/**
 * The currency of the figures a report screen shows: the chosen store's, or the one every store of the business
 * uses; null (two decimals) when the stores differ. Provided once by the reports screen for every table.
 */
export const ReportCurrency = createContext<Currency>(null);

const show = (kind: ColumnKind, v: string | number | null | undefined, currency: Currency): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string') return v;
  if (kind === 'money') return minorToDecimal(v, currency);
  if (kind === 'percent') return `${(v * 100).toFixed(1)} %`;
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
};

const csvValue = (kind: ColumnKind, v: string | number | null | undefined, currency: Currency): CsvCell => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' && kind === 'money') return minorToDecimal(v, currency);
  return v;
};

/** The CSV of a report table: the same columns and values as the screen, money in the currency's digits. */
export function tableCsv<T>(columns: Column<T>[], rows: T[], currency: Currency = null): string {
  return toCsv(columns.map((c) => c.header), rows.map((r) => columns.map((c) => csvValue(c.kind, c.value(r), currency))));
}

/**
 * One report as a table with a totals row, a CSV export of exactly what is shown and a title that prints. Money
 * is in minor units of the store currency.
 */
export function ReportTable<T>({ id, title, columns, rows, fileName, note, empty = 'Nothing in this range.' }: {
  id: string;
  title: string;
  columns: Column<T>[];
  rows: T[];
  fileName: string;
  note?: ReactNode;
  empty?: string;
}) {
  const currency = useContext(ReportCurrency);
  const hasTotals = columns.some((c) => c.total);
  const totalOf = (c: Column<T>) => rows.reduce((a, r) => a + (Number(c.value(r)) || 0), 0);
  return (
    <Stack gap="2" className="report-section" data-testid={`report-${id}`}>
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h2" size="md">{title}</Heading>
        <Button className="no-print" variant="outline" size="xs" disabled={rows.length === 0}
          onClick={() => downloadText(fileName, tableCsv(columns, rows, currency))} data-testid={`report-${id}-export`}>
          <LuDownload aria-hidden /> CSV
        </Button>
      </HStack>
      {rows.length === 0 ? <Text color="fg.muted">{empty}</Text> : (
        <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} aria-label={title}>
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                {columns.map((c) => <Table.ColumnHeader key={c.header} textAlign={c.kind === 'text' ? 'start' : 'end'}>{c.header}</Table.ColumnHeader>)}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((r, i) => (
                <Table.Row key={i} data-testid={`report-${id}-row`}>
                  {columns.map((c) => <Table.Cell key={c.header} textAlign={c.kind === 'text' ? 'start' : 'end'}>{show(c.kind, c.value(r), currency)}</Table.Cell>)}
                </Table.Row>
              ))}
            </Table.Body>
            {hasTotals && (
              <Table.Footer>
                <Table.Row fontWeight="semibold" data-testid={`report-${id}-totals`}>
                  {columns.map((c, i) => (
                    <Table.Cell key={c.header} textAlign={c.kind === 'text' ? 'start' : 'end'}>
                      {c.total ? show(c.kind, totalOf(c), currency) : i === 0 ? 'Total' : ''}
                    </Table.Cell>
                  ))}
                </Table.Row>
              </Table.Footer>
            )}
          </Table.Root>
        </Table.ScrollArea>
      )}
      {note && <Text color="fg.muted" fontSize="sm">{note}</Text>}
    </Stack>
  );
}
