import Papa from 'papaparse';
import type { ActivityEntry } from './workspace-api';

/**
 * The trail as CSV for a spreadsheet. papaparse quotes what needs quoting and escapes formula-leading cells
 * (=, +, -, @), so a store named "=HYPERLINK(...)" cannot run in the reader's spreadsheet.
 */
export function activityCsv(rows: ActivityEntry[], storeName: (id: string | null) => string): string {
  return Papa.unparse(
    rows.map((r) => ({
      at: r.at,
      person: r.actor_label ?? 'System',
      kind: r.kind,
      store: storeName(r.store_id),
      entity: r.entity_type,
      entity_id: r.entity_id ?? '',
      before: r.before === null ? '' : JSON.stringify(r.before),
      after: r.after === null ? '' : JSON.stringify(r.after),
    })),
    { escapeFormulae: true },
  );
}
