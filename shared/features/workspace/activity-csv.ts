import Papa from 'papaparse';
import { actorName } from '../../lib/actor-name';
import type { ActivityEntry } from './workspace-api';

/**
 * The trail as CSV for a spreadsheet. papaparse quotes what needs quoting and escapes formula-leading cells
 * (=, +, -, @), so a store named "=HYPERLINK(...)" cannot run in the reader's spreadsheet. The person is the
 * account (id and email at the time, docs/adr/0175); emailOf supplies the email of entries written before the trail
 * stored it, from the team list.
 */
export function activityCsv(
  rows: ActivityEntry[], storeName: (id: string | null) => string, emailOf: (userId: string | null) => string | null = () => null,
): string {
  return Papa.unparse(
    rows.map((r) => ({
      at: r.at,
      person: actorName({ email: r.actor_email ?? emailOf(r.actor_id), name: r.actor_label }),
      person_email: r.actor_email ?? emailOf(r.actor_id) ?? '',
      person_name: r.actor_label ?? '',
      person_id: r.actor_id ?? '',
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
