import Papa from 'papaparse';
import { EXPORT_CSV_COLUMNS } from '../../../supabase/functions/_shared/export/csv-formats';
import { parseCsvFile, type ParsedCsvFile } from '../../lib/csv-file';
import type { StorewiseClient } from '../../lib/supabase-client';

/** The customer file's columns: the business export's customers.csv (csv-formats.ts), so an export imports unchanged. */
export const CUSTOMER_CSV_COLUMNS = EXPORT_CSV_COLUMNS.customers;
export type CustomerCsvColumn = (typeof CUSTOMER_CSV_COLUMNS)[number];
export type CustomerCsvRow = Partial<Record<CustomerCsvColumn, string>>;

/** What import_customers takes in one call (all or nothing, ADR 0370). */
export const MAX_CUSTOMER_ROWS = 2_000;

/** A customer file, read as the catalog's is (shared/lib/csv-file.ts): UTF-8, these columns, the name required. */
export function parseCustomerCsv(bytes: ArrayBuffer): ParsedCsvFile<CustomerCsvColumn> {
  return parseCsvFile(bytes, { columns: CUSTOMER_CSV_COLUMNS, required: ['name'], maxRows: MAX_CUSTOMER_ROWS });
}

export interface CustomerExportRow { name: string; email: string | null; phone: string | null }

const PAGE = 1000;

/** Every customer of the business, as the business export lists them (erased ones too: anonymous, no email). */
export async function fetchCustomersForExport(supabase: StorewiseClient, businessId: string): Promise<CustomerExportRow[]> {
  const rows: CustomerExportRow[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await supabase.from('customers').select('name, email, phone').eq('business_id', businessId)
      .order('name').order('id').range(from, from + PAGE - 1);
    if (error) throw new Error(error.message);
    rows.push(...(data ?? []));
    if ((data ?? []).length < PAGE) return rows;
  }
}

/** The customers as CSV in the export's columns, formulas escaped as every export does (the import undoes it). */
export function customersCsv(rows: CustomerExportRow[]): string {
  const fields = [...CUSTOMER_CSV_COLUMNS];
  return Papa.unparse({ fields, data: rows.map((r) => [r.name, r.email ?? '', r.phone ?? '']) }, { escapeFormulae: true, newline: '\r\n' });
}
