import Papa from 'papaparse';

import { CATALOG_CSV_COLUMNS } from '../../../supabase/functions/_shared/export/csv-formats';

/** The columns of a catalog CSV: one list for the import, the catalog export and the business export. */
export const CSV_COLUMNS = CATALOG_CSV_COLUMNS;
export type CsvRow = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

export interface ParsedCsv {
  rows: CsvRow[];
  /** Whole-file problems (encoding, header); row problems come from the database's dry run. */
  errors: string[];
}

const MAX_ROWS = 20_000;

/**
 * Decodes the file as UTF-8 (refusing a broken encoding rather than importing mojibake) and parses it with
 * papaparse; prices are whole cents as the database expects.
 */
export function parseCatalogCsv(bytes: ArrayBuffer): ParsedCsv {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { rows: [], errors: ['The file is not UTF-8 text: save it from your spreadsheet as "CSV UTF-8" and try again.'] };
  }
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim().toLowerCase(),
  });
  const errors: string[] = [];
  const headers = parsed.meta.fields ?? [];
  const unknown = headers.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0) errors.push(`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Use: ${CSV_COLUMNS.join(', ')}.`);
  for (const required of ['product_name', 'price']) {
    if (!headers.includes(required)) errors.push(`The column "${required}" is missing.`);
  }
  for (const e of parsed.errors.slice(0, 20)) errors.push(`Row ${(e.row ?? 0) + 1}: ${e.message}`);
  if (parsed.data.length === 0) errors.push('The file has no rows.');
  if (parsed.data.length > MAX_ROWS) errors.push(`Import at most ${MAX_ROWS.toLocaleString('en-US')} rows at once.`);
  const rows = parsed.data.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([k]) => (CSV_COLUMNS as readonly string[]).includes(k))
      .map(([k, v]) => [k, (v ?? '').trim()])) as CsvRow);
  return { rows: errors.length > 0 ? [] : rows, errors };
}
