import { formatMinor } from '../../lib/money';
import type { ShiftFigures } from './pos-api';

/**
 * The X/Z report's lines for foreign cash (ADR 0395), each amount in its own currency: what the shift's foreign cash
 * tenders brought in (expected in the drawer) and, on the Z report, what was counted and the difference.
 */
export function foreignRows(figures: Pick<ShiftFigures, 'foreign_cash'>, kind: 'X' | 'Z'): [string, string][] {
  const rows: [string, string][] = [];
  for (const f of figures.foreign_cash ?? []) {
    const money = (n: number | null) => (n === null ? '–' : formatMinor(n, f.currency));
    rows.push([`${f.currency} expected`, `${f.tenders} · ${money(f.expected)}`]);
    if (kind === 'Z') rows.push([`${f.currency} counted`, money(f.counted)], [`${f.currency} difference`, money(f.difference)]);
  }
  return rows;
}
