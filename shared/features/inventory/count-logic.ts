import { parseQty, qtyMessage } from './inventory-schemas';
import type { SheetRow } from './transfers-api';

export const sheetKey = (r: { variant_id: string; lot_id: string | null }) => `${r.variant_id}|${r.lot_id ?? ''}`;

export interface CountedLine {
  key: string;
  row: SheetRow;
  expected: number;
  counted: number;
  variance: number;
}

/**
 * The lines of a count from what was typed: blank means "not counted" (left as it is), anything else must be a
 * quantity for the item's unit. The variance is counted minus what the ledger said when the sheet was loaded;
 * posting recomputes it under lock.
 */
export function countLines(sheet: SheetRow[], entries: Record<string, string>): { lines: CountedLine[]; errors: Record<string, string> } {
  const lines: CountedLine[] = [];
  const errors: Record<string, string> = {};
  for (const row of sheet) {
    const key = sheetKey(row);
    const text = entries[key] ?? '';
    if (text.trim() === '') continue;
    const counted = parseQty(text, row.unit);
    if (counted === null) {
      errors[key] = qtyMessage(row.unit);
      continue;
    }
    const expected = Number(row.on_hand);
    lines.push({ key, row, expected, counted, variance: Math.round((counted - expected) * 1000) / 1000 });
  }
  return { lines, errors };
}
