import { parseQty, qtyMessage } from './inventory-schemas';
import type { SheetRow } from './transfers-api';

/**
 * A line of the count sheet: what count_sheet returned, or a lot found on the shelf that the store holds nothing
 * of yet (found: no lot id; posted by number and expiry, and created by post_count).
 */
export type CountRow = Omit<SheetRow, 'lot_id' | 'lot_number' | 'expires_on'> & {
  lot_id: string | null; lot_number: string | null; expires_on: string | null; found?: boolean;
};

export const sheetKey = (r: { variant_id: string; lot_id: string | null; lot_number?: string | null; found?: boolean }) =>
  r.found ? `${r.variant_id}|new:${r.lot_number ?? ''}` : `${r.variant_id}|${r.lot_id ?? ''}`;

/** A found lot's line for the sheet: nothing on record, so the whole counted quantity is its variance. */
export function foundLotRow(item: Pick<SheetRow, 'variant_id' | 'product_name' | 'sku' | 'option1' | 'option2' | 'option3' | 'unit'>,
  lotNumber: string, expiresOn: string): CountRow {
  return {
    ...item, lot_id: null, has_lots: true, lot_number: lotNumber.trim(), expires_on: expiresOn || null, on_hand: 0, found: true,
  };
}

export interface CountedLine {
  key: string;
  row: CountRow;
  expected: number;
  counted: number;
  variance: number;
}

/**
 * The lines of a count from what was typed: blank means "not counted" (left as it is), anything else must be a
 * quantity for the item's unit. The variance is counted minus what the ledger said when the sheet was loaded;
 * posting recomputes it under lock. A found lot must be counted (above zero): it is why the line exists.
 */
export function countLines(sheet: CountRow[], entries: Record<string, string>): { lines: CountedLine[]; errors: Record<string, string> } {
  const lines: CountedLine[] = [];
  const errors: Record<string, string> = {};
  for (const row of sheet) {
    const key = sheetKey(row);
    const text = entries[key] ?? '';
    if (text.trim() === '') {
      if (row.found) errors[key] = 'Enter how many of this lot you found';
      continue;
    }
    const counted = parseQty(text, row.unit);
    if (counted === null || (row.found && counted === 0)) {
      errors[key] = counted === null ? qtyMessage(row.unit) : 'Enter how many of this lot you found';
      continue;
    }
    const expected = Number(row.on_hand);
    lines.push({ key, row, expected, counted, variance: Math.round((counted - expected) * 1000) / 1000 });
  }
  return { lines, errors };
}

/** What post_count receives: a lot on record by id, a found lot by number and expiry. */
export function countPayload(lines: CountedLine[]) {
  return lines.map(({ row, counted }) => (row.found
    ? { variant_id: row.variant_id, lot_number: row.lot_number ?? '', ...(row.expires_on ? { expires_on: row.expires_on } : {}), counted }
    : { variant_id: row.variant_id, lot_id: row.lot_id, counted }));
}
