import { minorToPlain, type Currency } from '../../lib/money';

/**
 * CSV for report exports (RFC 4180: comma separated, CRLF, quotes doubled). A cell that a spreadsheet would read
 * as a formula (starting with = + - @, tab or carriage return) is prefixed with an apostrophe, so a product name
 * typed by a staff member cannot run in the owner's spreadsheet (CSV injection). Numbers are written as is.
 */
export type CsvCell = string | number | null | undefined;

function cell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [headers, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/**
 * Minor units to a decimal string in the currency's digits (the reports' money columns; shared/lib/money.ts).
 * Without a currency (a total over stores in different currencies): two places.
 */
export const minorToDecimal = (minor: number, currency: Currency = null): string => minorToPlain(minor, currency);
