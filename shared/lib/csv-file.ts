import Papa from 'papaparse';

/** A CSV file read for an import: its rows (cells trimmed, known columns only) or what stops the whole file. */
export interface ParsedCsvFile<K extends string> {
  rows: Partial<Record<K, string>>[];
  /** Whole-file problems (encoding, header, size); row problems come from the database's check. */
  errors: string[];
}

export interface CsvFileShape<K extends string> {
  /** The columns the import reads (headers are matched trimmed and in lower case; order is free). */
  columns: readonly K[];
  /** Columns that must be in the header. */
  required: readonly K[];
  /** More rows than this are refused whole. */
  maxRows: number;
}

/**
 * Undoes the formula escape every Storewise export applies (papaparse's escapeFormulae puts a quote before a
 * cell starting with =, +, -, @, tab or return, so a spreadsheet does not run it): an exported "+1 555 0100"
 * arrives as "'+1 555 0100" and must import as the number it was, or an export would not re-import unchanged.
 */
export const unescapeFormula = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/**
 * Decodes the file as UTF-8 (refusing a broken encoding rather than importing mojibake) and parses it with
 * papaparse; cells are kept as text. Unknown columns and missing required ones refuse the whole file, naming them.
 */
export function parseCsvFile<K extends string>(bytes: ArrayBuffer, shape: CsvFileShape<K>): ParsedCsvFile<K> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { rows: [], errors: ['The file is not UTF-8 text: save it from your spreadsheet as "CSV UTF-8" and try again.'] };
  }
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim().toLowerCase(),
  });
  const known: readonly string[] = shape.columns;
  const errors: string[] = [];
  const headers = parsed.meta.fields ?? [];
  const unknown = headers.filter((h) => !known.includes(h));
  if (unknown.length > 0) errors.push(`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Use: ${known.join(', ')}.`);
  for (const column of shape.required) {
    if (!headers.includes(column)) errors.push(`The column "${column}" is missing.`);
  }
  for (const e of parsed.errors.slice(0, 20)) errors.push(`Row ${(e.row ?? 0) + 1}: ${e.message}`);
  if (parsed.data.length === 0) errors.push('The file has no rows.');
  if (parsed.data.length > shape.maxRows) errors.push(`Import at most ${shape.maxRows.toLocaleString('en-US')} rows at once.`);
  const rows = parsed.data.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([k]) => known.includes(k))
      .map(([k, v]) => [k, unescapeFormula((v ?? '').trim())])) as Partial<Record<K, string>>);
  return { rows: errors.length > 0 ? [] : rows, errors };
}
